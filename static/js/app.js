// Entry point: a hash router over the lobby, the table (play / watch), the replay viewer, the
// account page, players' profiles, the leaderboards and the tournaments.

import { t, setLang, getLang, LANGS } from "./i18n.js";
import "./tournament_words.js";
import { replayPage } from "./replay.js";
import { el } from "./dom.js";
import { helpButton } from "./reference.js";
import { loadSession, accountLinks } from "./account.js";

const app = document.getElementById("app");
let cleanup = null;

function header(extra = []) {
  const lang = el("select", { id: "lang", title: t("language"), "aria-label": t("language"), onchange: () => { setLang(lang.value); route(); } },
    ...LANGS.map(([code, label]) => el("option", { value: code, lang: code }, label)));
  lang.value = getLang();
  return el("header", "bar", el("a", { class: "title", href: "#/" }, "Riichi"), el("a", { href: "#/replay" }, t("replay")),
    el("a", { href: "#/leaderboard", id: "board-link" }, t("leaderboard")),
    el("a", { href: "#/tournaments", id: "tournaments-link" }, t("tournaments")),
    ...extra, el("span", "spacer"), ...accountLinks(), helpButton(), lang);
}

// the release this server runs (its /healthz says), asked once, for the footer
let release = null;

/** The page's footer: the server's version, so a player can say which one they saw. */
function footer() {
  const foot = el("footer", { class: "foot", id: "version" });
  if (!release) release = fetch("/healthz").then((r) => r.json()).then((h) => h.version || "").catch(() => "");
  release.then((v) => { if (v) foot.textContent = `riichi-server ${v}`; });
  return foot;
}

// who this browser is logged in as, asked once; the account page keeps it current after
let sessionAsked = null;
// each route's number: a page whose modules arrive after a later hash change is not drawn
let routed = 0;

/** The page a hash names, once its module is loaded: draw(body, header) -> its cleanup. */
async function pageOf(page, arg, key) {
  const text = (x) => (x ? decodeURIComponent(x) : null);
  if (page === "account") {
    const { accountPage } = await import("./account.js");
    return (body) => accountPage(body);
  }
  if (page === "player" && arg) {
    const { profilePage } = await import("./profile.js");
    return (body) => profilePage(body, text(arg));
  }
  if (page === "leaderboard") {
    const { leaderboardPage } = await import("./leaderboard.js");
    return (body) => leaderboardPage(body, text(arg));
  }
  if (page === "tournaments" || (page === "tournament" && arg)) {
    const { tournamentsPage, tournamentPage } = await import("./tournament.js");
    return page === "tournaments" ? (body) => tournamentsPage(body) : (body) => tournamentPage(body, text(arg));
  }
  if (page === "replay") return (body) => replayPage(body, arg ? { url: `/api/games/${arg}/replay`, game: arg } : {});
  if (page === "play" || page === "watch") {
    const { tablePage } = await import("./play.js");
    return (body, bar) => tablePage(body, bar, { mode: page, game: arg });
  }
  const { joinPage, lobbyPage } = await import("./lobby.js");
  if (page === "room") return (body) => joinPage(body, arg, text(key) || "");
  return (body) => lobbyPage(body);
}

async function route() {
  const mine = ++routed;
  if (cleanup) { cleanup(); cleanup = null; }
  const hash = location.hash.replace(/^#\/?/, "");
  const [page, arg, key] = hash.split("/");
  if (!sessionAsked) sessionAsked = loadSession();
  await sessionAsked;
  const draw = await pageOf(page, arg, key);
  if (mine !== routed) return;
  const body = el("div", "body");
  document.documentElement.lang = getLang();
  const bar = header();
  // at a table the header holds the seat's controls: a phone keeps only the own name there
  const atTable = page === "play" || page === "watch";
  if (atTable) bar.classList.add("at-table");
  // the table keeps the whole screen: the version is in every other page's footer
  app.replaceChildren(bar, body, ...(atTable ? [] : [footer()]));
  cleanup = draw(body, bar);
}

window.addEventListener("hashchange", route);
route();
