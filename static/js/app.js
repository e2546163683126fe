// Entry point: a hash router over the lobby, the table (play / watch) and the replay viewer.

import { t, setLang, getLang, LANGS } from "./i18n.js";
import { replayPage } from "./replay.js";

const app = document.getElementById("app");
let cleanup = null;

function header(extra = []) {
  const bar = document.createElement("header");
  bar.className = "bar";
  const title = document.createElement("a");
  title.className = "title"; title.href = "#/"; title.textContent = "Riichi";
  const replay = document.createElement("a");
  replay.href = "#/replay"; replay.textContent = t("replay");
  const spacer = document.createElement("span");
  spacer.className = "spacer";
  const lang = document.createElement("select");
  lang.id = "lang"; lang.title = t("language");
  for (const [code, label] of LANGS) {
    const o = document.createElement("option");
    o.value = code; o.textContent = label; o.lang = code;
    lang.append(o);
  }
  lang.value = getLang();
  lang.addEventListener("change", () => { setLang(lang.value); route(); });
  bar.append(title, replay, ...extra, spacer, lang);
  return bar;
}

async function route() {
  if (cleanup) { cleanup(); cleanup = null; }
  const hash = location.hash.replace(/^#\/?/, "");
  const [page, arg, key] = hash.split("/");
  const body = document.createElement("div");
  body.className = "body";
  document.documentElement.lang = getLang();
  if (page === "replay") {
    app.replaceChildren(header(), body);
    cleanup = replayPage(body, arg ? { url: `/api/games/${arg}/record?format=tenhou`, game: arg } : {});
  } else if (page === "play" || page === "watch") {
    const { tablePage } = await import("./play.js");
    const extra = [];
    app.replaceChildren(header(extra), body);
    cleanup = tablePage(body, app.querySelector("header"), { mode: page, game: arg });
  } else if (page === "room") {
    const { joinPage } = await import("./lobby.js");
    app.replaceChildren(header(), body);
    cleanup = joinPage(body, arg, key ? decodeURIComponent(key) : "");
  } else {
    const { lobbyPage } = await import("./lobby.js");
    app.replaceChildren(header(), body);
    cleanup = lobbyPage(body);
  }
}

window.addEventListener("hashchange", route);
route();
