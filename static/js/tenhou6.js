// tenhou.net/6 JSON -> the client's internal events, one list per round, for the replay viewer.
// The log gives each seat's takes and discards but not the turn order, so it is rebuilt here:
// after a discard, a pon/kan naming the discarder comes first, then a chi by the next seat,
// otherwise the next seat draws.

const RED_CODE = { 51: 16, 52: 52, 53: 88 };

function codeKind(c) {
  if (c >= 51) return [4, 13, 22][c - 51];
  const s = Math.floor(c / 10) - 1, n = c % 10;
  return s < 3 ? s * 9 + n - 1 : 27 + n - 1;
}

/** Allocates physical ids to tile codes so that every tile of a round has its own id. */
class Ids {
  constructor(aka) { this.used = new Set(); this.aka = aka; }
  take(c) {
    if (RED_CODE[c] !== undefined && this.aka) { this.used.add(RED_CODE[c]); return RED_CODE[c]; }
    const k = codeKind(c);
    for (let i = 0; i < 4; i++) {
      const id = k * 4 + i;
      if (this.aka && Object.values(RED_CODE).includes(id)) continue;
      if (!this.used.has(id)) { this.used.add(id); return id; }
    }
    return k * 4 + 3; // a malformed log: reuse rather than fail the viewer
  }
}

const matches = (id, c, aka) =>
  (RED_CODE[c] !== undefined && aka ? id === RED_CODE[c] : (id >> 2) === codeKind(c) && !(aka && Object.values(RED_CODE).includes(id) && c < 50));

/** Parse a call string: letter, its position, and the tile codes in order. */
function parseCall(s) {
  const m = /[cpmkaf]/.exec(s);
  const letter = m[0], pos = m.index;
  const codes = [];
  for (let i = 0; i < s.length; ) {
    if (/[cpmkaf]/.test(s[i])) { i++; continue; }
    codes.push(Number(s.slice(i, i + 2))); i += 2;
  }
  const calledCode = Number(s.slice(pos + 1, pos + 3));
  return { letter, pos, codes, calledCode };
}

const CALL_TYPE = { c: "chii", p: "pon", m: "daiminkan", k: "kakan", a: "ankan", f: "kita" };

/** The seat a call took from. Positions count round a four-seat table even in sanma,
 * whose empty North seat is never a giver (seat 2 facing seat 0 is "toimen"). */
function sourceSeat(seat, pos) {
  return (seat + (pos === 0 ? 3 : pos === 2 ? 2 : 1)) % 4;
}

/** One round array -> internal events. */
export function roundEvents(r, n, aka) {
  // Tenhou numbers sanma hands like 4-player ones (dealer = kyoku % 4, 3 and 7 skipped);
  // the engine and the model count hands per wind: kyoku = wind * n + dealer
  const [tk, honba, kyotaku] = r[0];
  const kyoku = Math.floor(tk / 4) * n + (tk % 4);
  const ids = new Ids(aka);
  const hand = [], takes = [], acts = [];
  for (let s = 0; s < n; s++) {
    hand.push(r[4 + 3 * s].map((c) => ids.take(c)));
    takes.push(r[5 + 3 * s]); acts.push(r[6 + 3 * s]);
  }
  const dora = r[2].map((c) => ids.take(c));
  const ev = [{ t: "round", kyoku, honba, kyotaku, scores: r[1].slice(0, n), dora: [dora[0]],
    hands: hand.map((h) => [...h]), tilesLeft: n === 3 ? 55 : 70 }];
  const ti = Array(n).fill(0), di = Array(n).fill(0), drawn = Array(n).fill(null);
  let doraShown = 1, same = kyoku % n, last = null, pendingRiichi = null, seat = same;

  const takeFromHand = (s, c) => {
    const all = drawn[s] !== null ? [...hand[s], drawn[s]] : hand[s];
    const id = all.find((x) => matches(x, c, aka)) ?? all.find((x) => (x >> 2) === codeKind(c));
    if (id === drawn[s]) drawn[s] = null; else hand[s].splice(hand[s].indexOf(id), 1);
    return id;
  };
  const settle = (s) => { if (drawn[s] !== null) hand[s].push(drawn[s]); drawn[s] = null; };
  const revealDora = () => { if (doraShown < dora.length) ev.push({ t: "dora", tile: dora[doraShown++] }); };
  const callsLast = (s, tk, letters) => typeof tk === "string" && letters.test(tk) &&
    sourceSeat(s, parseCall(tk).pos) === last.seat && matches(last.id, parseCall(tk).calledCode, aka);

  for (let guard = 0; guard < 1000; guard++) {
    let next = same;
    if (last) {
      next = (last.seat + 1) % n;
      for (let k = 1; k < n; k++) {
        const s = (last.seat + k) % n;
        if (callsLast(s, takes[s][ti[s]], /[pm]/)) { next = s; break; }
      }
    }
    const tk = takes[next][ti[next]];
    if (tk === undefined) break; // a ron (or a draw) ended the round
    if (pendingRiichi !== null) { ev.push({ t: "riichi", seat: pendingRiichi, accepted: true }); pendingRiichi = null; }
    ti[next]++;
    seat = next;
    if (typeof tk === "number") {
      drawn[seat] = ids.take(tk);
      ev.push({ t: "draw", seat, tile: drawn[seat] });
    } else {
      const c = parseCall(tk);
      const rest = [...c.codes];
      rest.splice(rest.indexOf(c.calledCode), 1);
      const own = rest.map((code) => takeFromHand(seat, code));
      const tiles = [last.id, ...own].sort((x, y) => x - y);
      ev.push({ t: "call", seat, meld: { type: CALL_TYPE[c.letter], tiles, called: last.id, from: last.seat } });
    }
    last = null;
    const a = acts[seat][di[seat]];
    if (a === undefined) break; // tsumo or nine terminals: the round ends after this take
    di[seat]++;
    same = seat;
    if (a === 0) { revealDora(); continue; } // daiminkan: the rinshan draw is the next take
    if (typeof a === "number" || a.startsWith("r")) {
      const riichi = typeof a === "string";
      const code = riichi ? Number(a.slice(1)) : a;
      if (riichi) { ev.push({ t: "riichi", seat }); pendingRiichi = seat; }
      const tsumogiri = code === 60;
      const id = tsumogiri ? drawn[seat] : takeFromHand(seat, code);
      if (tsumogiri) drawn[seat] = null;
      settle(seat);
      ev.push({ t: "discard", seat, tile: id, tsumogiri, riichi });
      last = { seat, id };
      continue;
    }
    const c = parseCall(a);
    if (c.letter === "k") {
      const added = takeFromHand(seat, c.calledCode);
      settle(seat);
      ev.push({ t: "call", seat, meld: { type: "kakan", added, tiles: [], called: null, from: seat } });
      revealDora();
    } else if (c.letter === "a") {
      const tiles = c.codes.map((code) => takeFromHand(seat, code)).sort((x, y) => x - y);
      settle(seat);
      ev.push({ t: "call", seat, meld: { type: "ankan", tiles, called: null, from: seat } });
      revealDora();
    } else {
      const tile = takeFromHand(seat, c.calledCode);
      settle(seat);
      ev.push({ t: "call", seat, meld: { type: "kita", tiles: [tile], called: null, from: seat } });
    }
  }
  // a riichi discard that nobody ronned still puts its stick down (exhaustive or abortive draw)
  if (pendingRiichi !== null && r[16][0] !== "和了") ev.push({ t: "riichi", seat: pendingRiichi, accepted: true });
  ev.push(resultEvent(r, hand, drawn, last, n, ids, dora));
  return ev;
}

const LIMITS = { 満貫: "mangan", 跳満: "haneman", 倍満: "baiman", 三倍満: "sanbaiman", 役満: "yakuman" };

function parseYaku(s) {
  const m = /^(.*)\((\d+)飜\)$/.exec(s) || /^(.*)\(役満\)$/.exec(s);
  if (!m) return { name: s, han: 0, yakuman: 0 };
  return m[2] !== undefined ? { name: m[1], han: Number(m[2]), yakuman: 0 } : { name: m[1], han: 13, yakuman: 1 };
}

function parseScore(text) {
  const fu = /(\d+)符/.exec(text), han = /(\d+)飜/.exec(text), pts = /([\d-]+)点/.exec(text);
  const limit = Object.keys(LIMITS).find((k) => text.startsWith(k));
  return { fu: fu ? Number(fu[1]) : 0, han: han ? Number(han[1]) : 0, points: pts ? pts[1] : "",
    limit: limit ? LIMITS[limit] : "", all: text.includes("∀") };
}

function resultEvent(r, hand, drawn, last, n, ids, dora) {
  const res = r[16];
  const head = res[0];
  if (head !== "和了") {
    return { t: "result", kind: "draw", reason: head, deltas: (res[1] || Array(n).fill(0)).slice(0, n),
      hands: hand.map((h, s) => [...h, ...(drawn[s] !== null ? [drawn[s]] : [])]) };
  }
  const ura = r[3].map((c) => ids.take(c));
  const wins = [];
  const total = Array(n).fill(0);
  for (let i = 1; i + 1 < res.length; i += 2) {
    const deltas = res[i].slice(0, n), info = res[i + 1];
    const [who, from, pao] = info;
    deltas.forEach((d, s) => { total[s] += d; });
    const tsumo = who === from;
    const winTile = tsumo ? drawn[who] : last ? last.id : null;
    const yaku = info.slice(4).map(parseYaku);
    const score = parseScore(info[3]);
    const han = score.han || yaku.reduce((a, y) => a + (y.yakuman ? 0 : y.han), 0);
    wins.push({ who, from, pao, tsumo, hand: [...hand[who]], winTile, yaku, han, fu: score.fu,
      limit: score.limit, points: score.all ? `${score.points} ∀` : score.points, deltas });
  }
  return { t: "result", kind: "win", wins, deltas: total, dora, ura };
}

/** A whole tenhou.net/6 game -> {names, rounds: [events...], players, final}. */
export function parseTenhou6(game) {
  const n = game.ratingc === "PF3" || (game.name && game.name[3] === "") ? 3 : 4;
  const aka = !game.rule || game.rule.aka !== 0 || game.rule.aka51 || game.rule.aka52 || game.rule.aka53 ?
    !(game.rule && game.rule.aka51 === 0 && game.rule.aka52 === 0 && game.rule.aka53 === 0) : false;
  const rounds = game.log.map((r) => roundEvents(r, n, aka));
  let final = null;
  if (game.sc) {
    // full points, as Tenhou's own logs and the server's export store them (not hundreds)
    const scores = [], results = [];
    for (let s = 0; s < n; s++) { scores.push(game.sc[2 * s]); results.push(game.sc[2 * s + 1]); }
    final = { t: "end", scores, results };
  }
  return { n, names: (game.name || []).slice(0, n), rounds, final, title: game.ref || "" };
}
