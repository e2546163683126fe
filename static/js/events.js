// Engine events as the server sends them (docs/protocol.md, engine/game/events.py) mapped to
// the table model's events. Only a renaming: no rule is decided here.

const MELD = ["chii", "pon", "daiminkan", "kakan", "ankan", "kita"];

/** Meld on the wire: [type, tiles, called, from_seat, added] (or an object). */
function meld(m) {
  const [type, tiles, called, from, added] = Array.isArray(m) ? m : [m.type, m.tiles, m.called, m.from_seat, m.added];
  return { type: typeof type === "number" ? MELD[type] : String(type).toLowerCase(), tiles: [...tiles],
    called: called >= 0 ? called : null, from: from >= 0 ? from : null, added: added >= 0 ? added : null };
}

function pointsText(r, tsumo, dealer) {
  if (!tsumo) return String(r.ron);
  return dealer ? `${r.tsumo_other} ∀` : `${r.tsumo_other}-${r.tsumo_dealer}`;
}

function agari(e, dealer) {
  const wins = e.wins.map((w) => {
    const r = w.result, tsumo = w.from_seat === w.seat;
    return { who: w.seat, from: w.from_seat, pao: w.pao_seat, tsumo, hand: [...w.hand], winTile: w.tile,
      melds: (w.melds || []).map(meld), han: r.han, fu: r.fu, limit: r.limit, yakuman: r.yakuman,
      yaku: r.yaku.map((y) => ({ name: y.name, han: y.han, yakuman: r.yakuman ? 1 : 0, tenhou: y.tenhou })),
      counts: { dora: r.dora, aka: r.aka, ura: r.ura, kita: r.kita }, points: pointsText(r, tsumo, w.seat === dealer) };
  });
  return { t: "result", kind: "win", wins, deltas: [...e.deltas], scores: [...e.scores], ura: [...(e.ura_indicators || [])] };
}

/** One server event -> zero or more model events. */
export function fromEngine(e, tb) {
  switch (e.type) {
    case "BeginGame": return [{ t: "start", n: e.players, scores: e.scores }];
    case "RoundStarted":
      return [{ t: "round", kyoku: e.kyoku, honba: e.honba, kyotaku: e.kyotaku, scores: e.scores,
        dora: e.dora_indicator >= 0 ? [e.dora_indicator] : [], tilesLeft: tb.n === 3 ? 55 : 70 }];
    case "Haipai": return e.tiles ? [{ t: "haipai", seat: e.seat, tiles: e.tiles }] : [];
    case "Draw": return [{ t: "draw", seat: e.seat, tile: e.tile, tilesLeft: e.remaining, furiten: e.furiten ?? null }];
    case "Discard":
      return [{ t: "discard", seat: e.seat, tile: e.tile, tsumogiri: e.tsumogiri, riichi: e.riichi, furiten: e.furiten ?? null }];
    case "RiichiAccepted": return [{ t: "riichi", seat: e.seat, accepted: true, scores: e.scores, kyotaku: e.kyotaku }];
    // sanma: a North set aside is a meld of its own (type kita) beside the calls
    case "Call": case "Kan": case "Kita": return [{ t: "call", seat: e.seat, meld: meld(e.meld) }];
    case "DoraRevealed": return [{ t: "dora", tile: e.indicator }];
    case "Agari": return [agari(e, tb.dealer)];
    case "Ryuukyoku":
      return [{ t: "result", kind: "draw", reason: e.kind, tenpai: [...(e.tenpai || [])], hands: e.hands || [],
        deltas: e.deltas && e.deltas.length ? [...e.deltas] : Array(tb.n).fill(0), scores: e.scores && e.scores.length ? [...e.scores] : null }];
    case "GameEnded": return [{ t: "end", scores: e.scores, ranks: e.ranks, results: e.points }];
    default: return [];
  }
}
