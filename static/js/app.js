// Entry point: a hash router over the lobby, the table (play / watch) and the replay viewer.

import { t, setLang, getLang, LANGS } from "./i18n.js";
import { replayPage } from "./replay.js";
import { el } from "./dom.js";
import { helpButton } from "./reference.js";

const app = document.getElementById("app");
let cleanup = null;

function header(extra = []) {
  const lang = el("select", { id: "lang", title: t("language"), "aria-label": t("language"), onchange: () => { setLang(lang.value); route(); } },
    ...LANGS.map(([code, label]) => el("option", { value: code, lang: code }, label)));
  lang.value = getLang();
  return el("header", "bar", el("a", { class: "title", href: "#/" }, "Riichi"), el("a", { href: "#/replay" }, t("replay")),
    ...extra, el("span", "spacer"), helpButton(), lang);
}

async function route() {
  if (cleanup) { cleanup(); cleanup = null; }
  const hash = location.hash.replace(/^#\/?/, "");
  const [page, arg, key] = hash.split("/");
  const body = el("div", "body");
  document.documentElement.lang = getLang();
  if (page === "replay") {
    app.replaceChildren(header(), body);
    cleanup = replayPage(body, arg ? { url: `/api/games/${arg}/replay`, game: arg } : {});
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
