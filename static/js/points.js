// The usual riichi point table, for the help panel only: the table's own results always come
// from the server. Basic points fu x 2^(han+2), a mangan from 2000 (5 han, or more basic
// points than that), rounded up to 100 per payment; no kiriage mangan (as at Tenhou).

const LIMITS = [[13, 8000], [11, 6000], [8, 4000], [6, 3000], [5, 2000]];
const up = (x) => Math.ceil(x / 100) * 100;

/** Basic points of han and fu (limits applied). */
export function basicPoints(han, fu) {
  for (const [h, b] of LIMITS) if (han >= h) return b;
  return Math.min(2000, fu * 2 ** (han + 2));
}

/**
 * What a hand is paid: {ron, tsumo} where tsumo is [each non-dealer, the dealer] for a
 * non-dealer's win and [each] for the dealer's; null where no hand has those han and fu
 * (20 fu is a pinfu tsumo only, 25 fu is seven pairs: 2 han and more).
 */
export function payments(han, fu, dealer) {
  const b = basicPoints(han, fu);
  const ronOk = fu !== 20 && !(fu === 25 && han < 2);
  const tsumoOk = !(fu === 20 && han < 2) && !(fu === 25 && han < 3);
  return {
    ron: ronOk ? up(b * (dealer ? 6 : 4)) : null,
    tsumo: tsumoOk ? (dealer ? [up(b * 2)] : [up(b), up(b * 2)]) : null,
  };
}

/** The fu rows and han columns the help panel shows. */
export const FU = [20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110];
export const HAN = [1, 2, 3, 4];
/** The limit hands: [key, han that reach it]. */
export const LIMIT_ROWS = [["mangan", 5], ["haneman", 6], ["baiman", 8], ["sanbaiman", 11], ["yakuman", 13]];

/** The yaku with their han closed and open (0: not when open); yakuman as 13. */
export const YAKU_HAN = [
  ["riichi", 1, 0], ["ippatsu", 1, 0], ["menzen_tsumo", 1, 0], ["pinfu", 1, 0], ["iipeikou", 1, 0],
  ["tanyao", 1, 1], ["yakuhai_haku", 1, 1], ["yakuhai_hatsu", 1, 1], ["yakuhai_chun", 1, 1],
  ["jikaze", 1, 1], ["bakaze", 1, 1], ["rinshan", 1, 1], ["chankan", 1, 1], ["haitei", 1, 1], ["houtei", 1, 1],
  ["double_riichi", 2, 0], ["chiitoitsu", 2, 0], ["chanta", 2, 1], ["ittsu", 2, 1], ["sanshoku_doujun", 2, 1],
  ["sanshoku_doukou", 2, 2], ["sankantsu", 2, 2], ["toitoi", 2, 2], ["sanankou", 2, 2], ["shousangen", 2, 2],
  ["honroutou", 2, 2], ["ryanpeikou", 3, 0], ["junchan", 3, 2], ["honitsu", 3, 2], ["chinitsu", 6, 5],
  ["kokushi_musou", 13, 0], ["suuankou", 13, 0], ["chuuren_poutou", 13, 0], ["tenhou", 13, 0], ["chiihou", 13, 0],
  ["daisangen", 13, 13], ["shousuushii", 13, 13], ["daisuushii", 13, 13], ["tsuuiisou", 13, 13],
  ["ryuuiisou", 13, 13], ["chinroutou", 13, 13], ["suukantsu", 13, 13],
];
