// `#/tournaments`: the list and, for organisers, a new tournament; `#/tournament/ID`: one
// tournament's page (docs/tournaments.md): entries and the join button, the own table once
// seated, the current round's tables (each a link to watch), the standings and a chart of the
// totals by round, all redrawn from the server's event stream (GET .../events) without a
// reload, and the organiser's controls on the same page.

import { t, presetName } from "./i18n.js";
import "./tournament_words.js";
import { el } from "./dom.js";
import { call, errorText, me, isAdmin, nameEl } from "./account.js";
import { sit } from "./ranked.js";
import { lineGraph } from "./profile.js";
import { totalsByRound, signedPoints } from "./tournament_chart.js";

/** "Round {n} of {m}" with its values. */
const say = (key, vars) => t(key).replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? ""));
const base = (id) => `/api/tournaments/${encodeURIComponent(id)}`;
/** the chart's lines at most: the top of the standings (a legend of 256 names helps nobody) */
const CHART_LINES = 8;

/** A select's options replaced, its choice kept when it is still there. */
function options(select, values) {
  const was = select.value;
  select.replaceChildren(...values.map((v) => el("option", { value: v }, v)));
  if (values.includes(was)) select.value = was;
}

// -- the list --

export function tournamentsPage(root) {
  const list = el("ul", { class: "rooms tournaments", id: "tn-list" });
  const note = el("p", { class: "muted", id: "tn-list-note" });
  const page = el("div", { class: "page tournaments-page" },
    el("section", { "aria-labelledby": "tn-list-title" }, el("h2", { id: "tn-list-title" }, t("tournaments")), list, note));
  root.replaceChildren(page);
  call("GET", "/api/tournaments").then((d) => {
    list.replaceChildren(...d.tournaments.map((x) => el("li", { "data-id": x.id },
      el("a", { href: `#/tournament/${encodeURIComponent(x.id)}`, class: "tn-link" }, x.name),
      el("span", { class: "preset" }, presetName(x.preset)),
      el("span", { class: "muted" }, `${t(`state_${x.state}`)} · ${x.round ? say("roundOf", { n: x.round, m: x.rounds }) : t("notStarted")} · ${t("entrants")} ${x.entrants}`))));
    note.textContent = d.tournaments.length ? "" : t("noTournaments");
    page.dataset.ready = "1";
  }).catch((e) => { note.textContent = errorText(e); page.dataset.ready = "1"; });
  if (me()) page.append(createForm());
  return () => {};
}

function createForm() {
  const field = (label, input) => el("label", "", label, input);
  const name = el("input", { id: "tn-new-name", required: "", maxlength: "64" });
  const preset = el("select", { id: "tn-new-preset" });
  const rounds = el("input", { id: "tn-new-rounds", type: "number", min: "1", max: "32", value: "4", class: "num" });
  const seating = el("select", { id: "tn-new-seating" },
    ...["balanced", "swiss"].map((s) => el("option", { value: s }, t(`seating_${s}`))));
  const fill = el("select", { id: "tn-new-fill" }, ...["none", "bots"].map((f) => el("option", { value: f }, t(`fill_${f}`))));
  const duplicate = el("input", { id: "tn-new-duplicate", type: "checkbox" });
  // empty: the server's own clock (RIICHI_BASE_S, RIICHI_BANK_S)
  const baseS = el("input", { id: "tn-new-base", type: "number", min: "0", max: "300", step: "any", class: "num", "aria-label": `${t("clock")}: base` });
  const bankS = el("input", { id: "tn-new-bank", type: "number", min: "0", max: "3600", step: "any", class: "num", "aria-label": `${t("clock")}: bank` });
  const err = el("p", { class: "error", id: "tn-new-error", role: "alert" });
  call("GET", "/api/presets").then((d) => {
    preset.replaceChildren(...d.presets.map((p) => (typeof p === "string" ? p : p.name))
      .map((key) => el("option", { value: key }, presetName(key))));
  }).catch(() => {});
  const form = el("form", { id: "tn-new", "aria-labelledby": "tn-new-title" },
    el("h2", { id: "tn-new-title" }, t("newTournament")),
    field(t("tnName"), name), field(t("preset"), preset), field(t("rounds"), rounds), field(t("seating"), seating),
    field(t("fill"), fill), el("label", "", t("clock"), el("span", "tn-clock", baseS, " + ", bankS)),
    el("label", "check", duplicate, t("duplicateOpt")),
    el("div", "", el("button", { type: "submit", id: "tn-new-submit" }, t("tnCreate"))), err);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    try {
      const made = await call("POST", "/api/tournaments", {
        name: name.value, preset: preset.value, rounds: Number(rounds.value), seating: seating.value,
        duplicate: duplicate.checked, fill: fill.value,
        ...(baseS.value === "" ? {} : { base_s: Number(baseS.value) }),
        ...(bankS.value === "" ? {} : { bank_s: Number(bankS.value) }),
      });
      location.hash = `#/tournament/${encodeURIComponent(made.id)}`;
    } catch (x) { err.textContent = errorText(x); }
  });
  return el("section", "", form);
}

// -- one tournament --

export function tournamentPage(root, id) {
  const title = el("h2", { id: "tn-title" }, t("tournament"));
  const meta = el("p", { class: "muted", id: "tn-meta" });
  const seat = el("div", { class: "tn-seat", id: "tn-seat", role: "status", "aria-live": "polite" });
  const entries = el("ul", { class: "tn-entries", id: "tn-entries" });
  const join = el("div", { class: "tn-join", id: "tn-join" });
  const tablesTitle = el("h2", { id: "tn-tables-title" }, t("tablesOf").replace("{n}", "1"));
  const tables = el("ul", { class: "rooms tn-tables", id: "tn-tables" });
  const standings = el("tbody", { id: "tn-standings" });
  const standHead = el("thead", "");
  const chart = el("div", { id: "tn-chart" });
  const penalties = el("ul", { class: "tn-penalties", id: "tn-penalties" });
  const err = el("p", { class: "error", id: "tn-error", role: "alert" });
  const controls = organiserControls(id, err);
  const page = el("div", { class: "page tournament-page" },
    el("section", { "aria-labelledby": "tn-title" }, title, meta, join, seat, err),
    controls.section,
    el("section", { "aria-labelledby": "tn-standings-title" }, el("h2", { id: "tn-standings-title" }, t("standings")),
      el("div", "scroll", el("table", { class: "tn-standings" }, standHead, standings)), chart,
      el("p", "tn-exports", el("a", { href: `${base(id)}/standings.csv`, download: "" }, t("exportCsv")), " · ",
        el("a", { href: `${base(id)}/export.zip`, download: "", id: "tn-zip" }, t("exportZip")))),
    el("section", { "aria-labelledby": "tn-tables-title", id: "tn-tables-section", hidden: "" }, tablesTitle, tables),
    el("section", { "aria-labelledby": "tn-entries-title" }, el("h2", { id: "tn-entries-title" }, t("entrants")), entries),
    el("section", { "aria-labelledby": "tn-penalties-title", id: "tn-penalties-section", hidden: "" },
      el("h2", { id: "tn-penalties-title" }, t("penalties")), penalties));
  root.replaceChildren(page);
  let tn = null, stopped = false, seatAsked = 0;

  function draw() {
    title.textContent = tn.name;
    meta.textContent = [presetName(tn.preset), tn.round ? say("roundOf", { n: tn.round, m: tn.rounds }) : t("notStarted"),
      t(`seating_${tn.seating}`), tn.duplicate ? t("duplicateShort") : null, t(`state_${tn.state}`)].filter(Boolean).join(" · ");
    drawEntries();
    drawTables();
    drawStandings();
    drawPenalties();
    controls.update(tn);
    page.dataset.version = String(Number(page.dataset.version || 0) + 1);
    page.dataset.ready = "1";
    askSeat();
  }

  function drawEntries() {
    const bots = new Set(tn.bots || []);
    entries.replaceChildren(...tn.entries.map((n) => el("li", { "data-name": n, class: n === me() ? "me" : null },
      bots.has(n) ? `${n} (${t("botMark")})` : nameEl(n, { always: true }))));
    if (!tn.entries.length) entries.replaceChildren(el("li", "muted", t("noEntrants")));
    join.replaceChildren();
    if (tn.state !== "registering") return;
    if (!me()) { join.append(el("a", { href: "#/account", id: "tn-login" }, t("loginToEnter"))); return; }
    const entered = tn.entries.includes(me());
    join.append(el("button", { type: "button", id: entered ? "tn-withdraw" : "tn-enter", onclick: () => write(entered ? "DELETE" : "POST", "/entries") },
      entered ? t("withdraw") : t("enter")));
  }

  function drawTables() {
    tables.parentElement.hidden = tn.round === 0;
    tablesTitle.textContent = say("tablesOf", { n: Math.max(tn.round, 1) });
    const now = tn.tables.filter((x) => x.round === tn.round);
    tables.replaceChildren(...now.map((x) => {
      // seat order (and so the winds) is known once the table is seated
      const winds = x.status === "pending" || x.status === "claimed" ? null : t("winds");
      const names = x.seats.map((n, s) => el("span", { class: `tn-seatname${n === me() ? " me" : ""}`, "data-name": n },
        winds ? el("abbr", { class: "wind", title: winds[s] }, winds[s][0]) : null, winds ? " " : null,
        n, x.points ? ` ${signedPoints(x.points[s])}` : ""));
      const li = el("li", { "data-table": String(x.table), "data-status": x.status },
        el("span", "code", say("tableN", { n: x.table })),
        el("span", "tn-names", ...names.flatMap((n, i) => (i ? [" · ", n] : [n]))),
        el("span", "muted", t(`tstatus_${x.status}`)));
      if (x.game && x.status !== "pending") {
        li.append(el("a", { href: `#/watch/${x.game}`, class: "watch", "aria-label": `${t("watch")}: ${say("tableN", { n: x.table })}` }, t("watch")));
      }
      return li;
    }));
  }

  function drawStandings() {
    const width = Math.max(3, ...tn.standings.map((s) => s.placements.length));
    const places = Array.from({ length: width }, (_, i) => `${i + 1}`);
    standHead.replaceChildren(el("tr", "", ...[[t("rank"), "num"], [t("player"), ""], [t("total"), "num"], [t("games"), "num"],
      ...places.map((p) => [p, "num place"]), [t("avgPlace"), "num"]].map(([h, cls]) => el("th", { scope: "col", class: cls || null }, h))));
    standings.replaceChildren(...tn.standings.map((s) => el("tr", { "data-name": s.name, class: s.name === me() ? "me" : null },
      el("td", "num", s.rank === null ? "–" : String(s.rank)),
      el("th", { scope: "row" }, s.bot ? `${s.name} (${t("botMark")})` : nameEl(s.name, { always: true })),
      el("td", { class: `num total ${s.total > 0 ? "plus" : s.total < 0 ? "minus" : ""}` }, signedPoints(s.total)),
      el("td", "num", String(s.games)),
      ...places.map((_, i) => el("td", "num place", String(s.placements[i] ?? 0))),
      el("td", "num", s.average_placement === null ? "–" : s.average_placement.toFixed(2)))));
    drawChart();
  }

  function drawChart() {
    const upTo = tn.round;
    const series = totalsByRound(tn.tables, tn.penalties, upTo);
    const top = tn.standings.filter((s) => series[s.name]).slice(0, CHART_LINES);  // people first
    if (!upTo || !top.length) { chart.replaceChildren(); return; }
    const all = top.flatMap((s) => series[s.name]);
    const lo = Math.floor(Math.min(0, ...all) / 10) * 10, hi = Math.ceil(Math.max(0, ...all) / 10) * 10 || 10;
    const lines = top.map((s) => series[s.name].map((v, x) => ({ x, v })));
    const shown = top.length < tn.standings.length ? ` (${say("chartTop", { n: top.length })})` : "";
    const desc = top.map((s) => `${s.name}: ${series[s.name].map(signedPoints).join(" → ")}`).join("; ");
    const g = lineGraph(lines, lo, lo === hi ? hi + 10 : hi, [...new Set([lo, 0, hi])], String, `${t("chart")}${shown}: ${desc}`,
      (x) => (x ? String(x) : t("start")));
    chart.replaceChildren(el("figure", { class: "scoregraph tn-chart", id: "tn-chart-figure" },
      el("figcaption", "", `${t("chart")}${shown}`), g,
      el("div", "legend", ...top.map((s, i) => el("span", `key s${i % CHART_LINES}`, el("i", ""), s.name)))));
  }

  function drawPenalties() {
    const list = tn.penalties || [];
    penalties.parentElement.hidden = !list.length;
    penalties.replaceChildren(...list.map((p) => el("li", "", `${p.name} −${Number(p.points).toFixed(1)}: ${p.reason}`,
      p.by ? el("span", "muted", ` (${p.by})`) : null)));
  }

  /** The own seat (GET .../seat) while it runs: a link to the table once seated. */
  async function askSeat() {
    const mine = ++seatAsked;
    if (!me() || !tn.entries.includes(me()) || tn.round === 0) { seat.replaceChildren(); return; }
    try {
      const s = await call("GET", `${base(id)}/seat`);
      if (mine !== seatAsked || stopped) return;
      if (s.state === "seated" && !s.token) {  // a substitute: a bot plays the seat
        seat.replaceChildren(el("span", "", say("yourSeat", { r: s.round, t: s.table }), ". ", t("subPlaying"), " "),
          el("a", { href: `#/watch/${s.game}`, id: "tn-watch-own" }, t("watch")));
      } else if (s.state === "seated") {
        seat.replaceChildren(el("span", "", say("yourSeat", { r: s.round, t: s.table }), " "),
          el("a", { href: `#/play/${s.game}`, id: "tn-go", class: "back-to-seat", onclick: (e) => { e.preventDefault(); sit(s); } }, t("goToTable")));
      } else seat.replaceChildren(el("span", "muted", s.state === "done" ? t("doneAll") : t("waitRound")));
    } catch { seat.replaceChildren(); }
  }

  async function write(method, path, body = {}) {
    err.textContent = "";
    try {
      await call(method, base(id) + path, body);
      await load();
    } catch (e) { err.textContent = errorText(e); }
  }

  async function load() {
    const got = await call("GET", base(id));
    if (!stopped) { tn = got; draw(); }
  }
  controls.write = write;

  const stream = new EventSource(`${base(id)}/events`);
  stream.addEventListener("tournament", (e) => { if (!stopped) { tn = JSON.parse(e.data); draw(); } });
  stream.addEventListener("standings", (e) => {
    if (stopped || !tn) return;
    const d = JSON.parse(e.data);
    tn.standings = d.standings;
    const x = tn.tables.find((y) => y.round === d.round && y.table === d.table);
    if (x) { x.points = d.points; x.status = "finished"; }
    draw();
  });
  load().catch((e) => { err.textContent = errorText(e); page.dataset.ready = "1"; });
  return () => { stopped = true; stream.close(); };
}

/** The organiser's controls: start the next round (round 1 closes the entries), a bot for an
 * entrant who does not show, a penalty, and (admins) another organiser. Built once, so what
 * the organiser types survives the page's live redraws. */
function organiserControls(id, err) {
  const ctl = { write: null };
  const start = el("button", { type: "button", id: "tn-start", onclick: () => ctl.write("POST", "/rounds") }, "");
  const subName = el("select", { id: "tn-sub-name", "aria-label": t("substitute") });
  const penName = el("select", { id: "tn-pen-name", "aria-label": t("player") });
  const penPoints = el("input", { id: "tn-pen-points", type: "number", step: "0.1", min: "0", value: "10", class: "num" });
  const penReason = el("input", { id: "tn-pen-reason", maxlength: "200" });
  const orgName = el("input", { id: "tn-org-name" });
  const done = el("p", { class: "ok", id: "tn-org-done", role: "status" });
  const act = (fn) => async () => { done.textContent = ""; await fn(); };
  const admin = el("div", { class: "tn-row tn-admin", hidden: "" }, el("label", "", t("accountName"), orgName),
    el("button", { type: "button", id: "tn-org", onclick: act(() => ctl.write("POST", "/organizers", { name: orgName.value })) }, t("addOrganiser")));
  const subRow = el("div", { class: "tn-row", id: "tn-sub-row" }, el("label", "", t("substitute"), subName),
      el("button", { type: "button", id: "tn-sub", onclick: act(async () => {
        await ctl.write("POST", "/substitutes", { name: subName.value });
        if (!err.textContent) done.textContent = t("subDone").replace("{name}", subName.value);
      }) }, t("subBtn")));
  const section = el("section", { id: "tn-organiser", "aria-labelledby": "tn-organiser-title", hidden: "" },
    el("h2", { id: "tn-organiser-title" }, t("organiser")),
    el("div", "tn-row", start),
    subRow,
    el("div", "tn-row", el("label", "", t("penalty"), penName), el("label", "", t("penaltyPoints"), penPoints),
      el("label", "", t("reason"), penReason),
      el("button", { type: "button", id: "tn-pen", onclick: act(async () => {
        await ctl.write("POST", "/penalties", { name: penName.value, points: Number(penPoints.value), reason: penReason.value });
        if (!err.textContent) penReason.value = "";
      }) }, t("givePenalty"))),
    admin, done);
  ctl.section = section;
  ctl.update = (tn) => {
    const mayOrganise = isAdmin() || (tn.organizers || []).includes(me());
    section.hidden = !mayOrganise;
    subRow.hidden = tn.state === "finished";  // no table is seated any more
    admin.hidden = !isAdmin();
    const people = tn.entries.filter((n) => !(tn.bots || []).includes(n));
    options(subName, people);
    options(penName, people);
    const next = tn.round + 1;
    start.hidden = tn.state === "finished" || next > tn.rounds;
    start.textContent = tn.round === 0 ? t("closeAndStart") : say("startRound", { n: next });
    const running = tn.tables.some((x) => x.round === tn.round && x.status !== "finished" && x.status !== "aborted");
    start.disabled = tn.round > 0 && running;
  };
  return ctl;
}
