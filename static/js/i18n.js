// English and Japanese labels: interface words, tile names and yaku names.
// Yaku are keyed by the engine's romaji id; Tenhou's Japanese name maps back to the same id.

const UI = {
  en: {
    lobby: "Lobby", rooms: "Open rooms", create: "Create room", join: "Join", code: "Room code",
    name: "Your name", preset: "Rules", bots: "Bots", clock: "Clock (base + bank, s)",
    watch: "Watch", replay: "Replay", noRooms: "No open rooms", finishedGames: "Finished games", noFinished: "No finished games yet", more: "More", share: "Share this link",
    connecting: "Connecting…", online: "Connected", offline: "Reconnecting…",
    skip: "Skip", chii: "Chii", pon: "Pon", daiminkan: "Kan", ankan: "Kan", kakan: "Kan",
    riichi: "Riichi", tsumo: "Tsumo", ron: "Ron", kyuushu: "Nine terminals", kita: "Kita",
    discard: "Discard", next_round: "OK", tenpai: "Tenpai", waits: "Waits", furiten: "Furiten",
    autoWin: "Auto-win", noCalls: "No calls", autoTsumogiri: "Auto-discard in riichi",
    sound: "Sound", honba: "honba", sticks: "riichi sticks", left: "left", dora: "Dora",
    han: "han", fu: "fu", points: "points", yakuman: "yakuman", ura: "Ura", aka: "Red",
    ryuukyoku: "Draw", final: "Final standings", place: "Place", score: "Score",
    back: "Back", forward: "Forward", round: "Round", viewpoint: "Viewpoint", allHands: "All hands",
    openLog: "Open Tenhou JSON", storedGames: "Stored games", spectating: "Spectating",
    choose: "Choose tiles", cancel: "Cancel", turn: "to play", noValue: "no yaku",
    tsumoWin: "Tsumo", ronWin: "Ron", from: "from", language: "日本語",
    winds: ["East", "South", "West", "North"], start: "Start", notenpai: "Noten", replayGame: "Replay this game",
    draw_exhaustive: "Exhaustive draw", draw_nagashi: "Nagashi mangan", draw_kyuushu: "Nine terminals",
    draw_suufon_renda: "Four winds", draw_suucha_riichi: "Four riichi", draw_suukaikan: "Four kans",
    draw_sanchahou: "Triple ron",
    practice: "Practice", broadcast: "Broadcast", locked: "Locked", owner: "owner",
    broadcastOpt: "broadcast: spectators see every hand, delayed",
    shuffle: "Shuffle", verified: "shuffle verified", cannotVerify: "shuffle not checked (this page has no crypto.subtle: use https)",
    mismatch: "WARNING: the revealed seed does not match the shuffle commitment",
    restarting: "Server restarting — reconnecting…", kicked: "The room's owner removed you from this room.",
    badtoken: "This seat's key is not known to the server.", replaced: "This seat was opened in another tab.",
    refused: "The server refused this connection.", ended: "Game over",
    kick: "Kick", lock: "Lock room", unlock: "Unlock", invite: "Invite link (with the key)",
    waitOwner: "Waiting for the room's owner to start",
    status_waiting: "waiting", status_playing: "playing", status_suspended: "suspended",
    status_finished: "finished", status_aborted: "aborted",
    download: "Download", copyLink: "Copy link", copied: "Copied", backToSeat: "Back to your seat",
    showFinal: "Final standings", all: "all",
  },
  ja: {
    lobby: "ロビー", rooms: "募集中の卓", create: "卓を作る", join: "参加", code: "卓コード",
    name: "名前", preset: "ルール", bots: "ボット", clock: "持ち時間 (基本 + 予備, 秒)",
    watch: "観戦", replay: "牌譜", noRooms: "募集中の卓はありません", finishedGames: "終了した対局", noFinished: "終了した対局はまだありません", more: "もっと見る", share: "共有リンク",
    connecting: "接続中…", online: "接続済み", offline: "再接続中…",
    skip: "スキップ", chii: "チー", pon: "ポン", daiminkan: "カン", ankan: "カン", kakan: "カン",
    riichi: "リーチ", tsumo: "ツモ", ron: "ロン", kyuushu: "九種九牌", kita: "抜き",
    discard: "打牌", next_round: "OK", tenpai: "聴牌", waits: "待ち", furiten: "フリテン",
    autoWin: "自動和了", noCalls: "鳴きなし", autoTsumogiri: "リーチ後自動ツモ切り",
    sound: "音", honba: "本場", sticks: "供託", left: "残り", dora: "ドラ",
    han: "飜", fu: "符", points: "点", yakuman: "役満", ura: "裏", aka: "赤",
    ryuukyoku: "流局", final: "最終結果", place: "順位", score: "点数",
    back: "戻る", forward: "進む", round: "局", viewpoint: "視点", allHands: "全員の手牌",
    openLog: "天鳳JSONを開く", storedGames: "保存された対局", spectating: "観戦中",
    choose: "牌を選ぶ", cancel: "キャンセル", turn: "の手番", noValue: "役なし",
    tsumoWin: "ツモ", ronWin: "ロン", from: "放銃", language: "English",
    winds: ["東", "南", "西", "北"], start: "開始", notenpai: "不聴", replayGame: "この対局の牌譜",
    draw_exhaustive: "流局", draw_nagashi: "流し満貫", draw_kyuushu: "九種九牌",
    draw_suufon_renda: "四風連打", draw_suucha_riichi: "四家立直", draw_suukaikan: "四槓散了",
    draw_sanchahou: "三家和了",
    practice: "練習", broadcast: "配信", locked: "鍵付き", owner: "作成者",
    broadcastOpt: "配信: 観戦者は全員の手牌を遅れて見る",
    shuffle: "シャッフル", verified: "シャッフル検証済み", cannotVerify: "シャッフル未検証 (crypto.subtle なし: https で開いてください)",
    mismatch: "警告: 公開されたシードがシャッフルの約束と一致しません",
    restarting: "サーバー再起動中 — 再接続中…", kicked: "卓の作成者により退出させられました。",
    badtoken: "この席の鍵はサーバーに知られていません。", replaced: "この席は別のタブで開かれました。",
    refused: "サーバーが接続を拒否しました。", ended: "対局終了",
    kick: "退出させる", lock: "鍵をかける", unlock: "鍵を外す", invite: "招待リンク (鍵付き)",
    waitOwner: "作成者の開始待ち",
    status_waiting: "募集中", status_playing: "対局中", status_suspended: "中断",
    status_finished: "終了", status_aborted: "中止",
    download: "ダウンロード", copyLink: "リンクをコピー", copied: "コピーしました", backToSeat: "自分の席に戻る",
    showFinal: "最終結果へ", all: "オール",
  },
};

// [romaji id, English, Japanese (Tenhou's spelling)]
const YAKU = [
  ["menzen_tsumo", "Fully concealed tsumo", "門前清自摸和"], ["riichi", "Riichi", "立直"],
  ["ippatsu", "Ippatsu", "一発"], ["chankan", "Robbing a kan", "槍槓"],
  ["rinshan", "After a kan", "嶺上開花"], ["haitei", "Last tile tsumo", "海底摸月"],
  ["houtei", "Last discard ron", "河底撈魚"], ["pinfu", "Pinfu", "平和"],
  ["tanyao", "All simples", "断幺九"], ["iipeikou", "Pure double sequence", "一盃口"],
  ["jikaze_ton", "Seat wind East", "自風 東"], ["jikaze_nan", "Seat wind South", "自風 南"],
  ["jikaze_sha", "Seat wind West", "自風 西"], ["jikaze_pei", "Seat wind North", "自風 北"],
  ["bakaze_ton", "Round wind East", "場風 東"], ["bakaze_nan", "Round wind South", "場風 南"],
  ["bakaze_sha", "Round wind West", "場風 西"], ["bakaze_pei", "Round wind North", "場風 北"],
  ["yakuhai_haku", "White dragon", "役牌 白"], ["yakuhai_hatsu", "Green dragon", "役牌 發"],
  ["yakuhai_chun", "Red dragon", "役牌 中"], ["double_riichi", "Double riichi", "両立直"],
  ["chiitoitsu", "Seven pairs", "七対子"], ["chanta", "Half outside hand", "混全帯幺九"],
  ["ittsu", "Pure straight", "一気通貫"], ["sanshoku", "Mixed triple sequence", "三色同順"],
  ["sanshoku_doukou", "Triple triplets", "三色同刻"], ["sankantsu", "Three kans", "三槓子"],
  ["toitoi", "All triplets", "対々和"], ["sanankou", "Three concealed triplets", "三暗刻"],
  ["shousangen", "Little three dragons", "小三元"], ["honroutou", "All terminals and honours", "混老頭"],
  ["ryanpeikou", "Twice pure double sequence", "二盃口"], ["junchan", "Fully outside hand", "純全帯幺九"],
  ["honitsu", "Half flush", "混一色"], ["chinitsu", "Full flush", "清一色"],
  ["renhou", "Blessing of man", "人和"], ["tenhou", "Blessing of heaven", "天和"],
  ["chiihou", "Blessing of earth", "地和"], ["daisangen", "Big three dragons", "大三元"],
  ["suuankou", "Four concealed triplets", "四暗刻"], ["suuankou_tanki", "Four concealed triplets, single wait", "四暗刻単騎"],
  ["tsuuiisou", "All honours", "字一色"], ["ryuuiisou", "All green", "緑一色"],
  ["chinroutou", "All terminals", "清老頭"], ["chuuren_poutou", "Nine gates", "九蓮宝燈"],
  ["junsei_chuuren_poutou", "True nine gates", "純正九蓮宝燈"], ["kokushi_musou", "Thirteen orphans", "国士無双"],
  ["kokushi_musou_13", "Thirteen orphans, 13-sided", "国士無双１３面"], ["daisuushii", "Big four winds", "大四喜"],
  ["shousuushii", "Little four winds", "小四喜"], ["suukantsu", "Four kans", "四槓子"],
  ["dora", "Dora", "ドラ"], ["ura", "Ura dora", "裏ドラ"], ["aka", "Red fives", "赤ドラ"],
  ["uradora", "Ura dora", "裏ドラ"], ["akadora", "Red fives", "赤ドラ"], ["kita", "North dora", "抜きドラ"],
  ["nagashi_mangan", "Nagashi mangan", "流し満貫"],
];
const YAKU_BY_ID = new Map(YAKU.map((y) => [y[0], y]));
const YAKU_BY_JA = new Map(YAKU.map((y) => [y[2], y]));

const TILE_EN = ["Man", "Pin", "Sou"];
const HONOR_EN = ["East", "South", "West", "North", "White", "Green", "Red"];
const HONOR_JA = ["東", "南", "西", "北", "白", "發", "中"];
const NUM_JA = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
const SUIT_JA = ["萬", "筒", "索"];

// storage and navigator may be absent (node's test runner): then English
const stored = () => (typeof localStorage === "undefined" ? null : localStorage.getItem("lang"));
const browserLang = () => (typeof navigator === "undefined" ? "en" : navigator.language || "en");
let lang = stored() || (browserLang().startsWith("ja") ? "ja" : "en");

export const getLang = () => lang;
export function setLang(l) {
  lang = l;
  if (typeof localStorage !== "undefined") localStorage.setItem("lang", l);
}

/** An interface word. */
export const t = (key) => UI[lang][key] ?? UI.en[key] ?? key;

/** A tile kind's name in the current language; red fives say so. */
export function tileLabel(k, red = false) {
  if (k >= 27) return lang === "ja" ? HONOR_JA[k - 27] : HONOR_EN[k - 27];
  const n = (k % 9) + 1, s = Math.floor(k / 9);
  if (lang === "ja") return `${red ? "赤" : ""}${NUM_JA[n - 1]}${SUIT_JA[s]}`;
  return `${red ? "red " : ""}${n} ${TILE_EN[s]}`;
}

/** A yaku's name from its romaji id or Tenhou's Japanese name. */
export function yakuLabel(name) {
  const y = YAKU_BY_ID.get(name) || YAKU_BY_JA.get(name);
  if (!y) return name;
  return lang === "ja" ? y[2] : y[1];
}

export const windName = (i) => UI[lang].winds[i % 4];
/** One character per wind for tight places (the centre panel). */
export const windShort = (i) => (lang === "ja" ? UI.ja.winds[i % 4] : "ESWN"[i % 4]);
export const LIMIT = {
  en: { mangan: "Mangan", haneman: "Haneman", baiman: "Baiman", sanbaiman: "Sanbaiman", yakuman: "Yakuman" },
  ja: { mangan: "満貫", haneman: "跳満", baiman: "倍満", sanbaiman: "三倍満", yakuman: "役満" },
};
export const limitLabel = (l) => (l ? LIMIT[lang][l] || l : "");
