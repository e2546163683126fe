// net.js's socket addresses: a seat follows its room's node (a cluster), everything else
// stays on the page's own host (node's built-in runner: `node --test tests/client/js`).

import { test } from "node:test";
import assert from "node:assert/strict";
import { wsUrl } from "../../../static/js/net.js";

const page = (href) => new URL(href);

test("no node: the page's own host, as on a server on its own", () => {
  assert.equal(wsUrl("/ws/play", null, page("http://127.0.0.1:8002/#/play/g")), "ws://127.0.0.1:8002/ws/play");
  assert.equal(wsUrl("/ws/play", undefined, page("https://riichi.example/")), "wss://riichi.example/ws/play");
  assert.equal(wsUrl("/ws/play", "", page("https://riichi.example/")), "wss://riichi.example/ws/play");
});

test("the page's own node: its own host (no cross-origin socket)", () => {
  assert.equal(wsUrl("/ws/play", "http://127.0.0.1:8002", page("http://127.0.0.1:8002/")), "ws://127.0.0.1:8002/ws/play");
  assert.equal(wsUrl("/ws/play", "https://b.example/", page("https://b.example/#/")), "wss://b.example/ws/play");
});

test("another node: its host, with its scheme and any base path", () => {
  assert.equal(wsUrl("/ws/play", "http://127.0.0.1:8001", page("http://127.0.0.1:8002/")), "ws://127.0.0.1:8001/ws/play");
  assert.equal(wsUrl("/ws/play", "https://a.example", page("http://b.example/")), "wss://a.example/ws/play");
  assert.equal(wsUrl("/ws/play", "https://riichi.example/a/", page("https://riichi.example/b/")), "wss://riichi.example/a/ws/play");
});

test("a node that is no http(s) URL is not followed", () => {
  assert.equal(wsUrl("/ws/play", "not a url", page("http://127.0.0.1:8002/")), "ws://127.0.0.1:8002/ws/play");
  assert.equal(wsUrl("/ws/play", "javascript:alert(1)", page("http://127.0.0.1:8002/")), "ws://127.0.0.1:8002/ws/play");
});

test("the page's own host named with another scheme (a TLS proxy in front): the page's scheme", () => {
  assert.equal(wsUrl("/ws/play", "http://b.example", page("https://b.example/")), "wss://b.example/ws/play");
});
