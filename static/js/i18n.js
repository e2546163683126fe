// English and Japanese labels: interface words, tile names and yaku names.
// Yaku are keyed by the engine's romaji id; Tenhou's Japanese name maps back to the same id.

const UI = {
  en: {
    lobby: "Lobby", rooms: "Open rooms", create: "Create room", join: "Join", code: "Room code",
    name: "Your name", preset: "Rules", bots: "Bots", botKind: "Bot", clock: "Clock (base + bank, s)",
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
    openLog: "Open a log (Tenhou JSON, mjai)", nextDraw: "Next draw", nextTurn: "My next turn",
    prevHand: "Previous hand", nextHand: "Next hand", storedGames: "Stored games", spectating: "Spectating",
    choose: "Choose tiles", cancel: "Cancel", turn: "to play", noValue: "no yaku",
    tsumoWin: "Tsumo", ronWin: "Ron", from: "from", language: "Language",
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
    showFinal: "Final standings", all: "all", allPay: "{n} all", player: "Player", change: "Change",
    resultPts: "Result (uma)", unseen: "{n} left", noChii: "No chii", noKan: "Skip kans", volume: "Volume", options: "Options",
    mute: "Mute sounds", unmute: "Turn sounds on",
    help: "Yaku and points", yakuList: "Yaku", yaku: "Yaku", closedHan: "Closed", openHan: "Open", close: "Close",
    childPoints: "Non-dealer", dealerPoints: "Dealer", seatWindYaku: "Seat wind", roundWindYaku: "Round wind",
    refNote: "Han when closed and when open (— : closed only). Points as at Tenhou (no kiriage mangan); the table's own results come from the server.",
    autoPlay: "Play", pause: "Pause", speed: "Speed",
    end: "End", scoreGraph: "Scores over the hands", reason_bust: "Ended: a player's score went below zero",
    reason_last: "Ended: all hands were played", reason_extra: "Ended in the extra round", reason_early: "Ended before the last hand",
    leave: "Leave table", leaveTitle: "Leave this table?", stay: "Stay", leaveConfirm: "Leave",
    leaveText: "Your seat plays on by itself while you are away: it passes every call and discards the tile it draws. Come back from the lobby (Back to your seat) to play again.", sticksToFirst: "Leftover riichi sticks to first place: +{n}",
    login: "Log in", logout: "Log out", register: "Register", account: "Account", accountName: "Account name", password: "Password",
    registerHint: "8 to 256 characters. Names follow the table's rules (at most 16 characters).",
    guestsNote: "No account is needed for casual rooms: guests play them as before. An account plays the ranked lobbies and has a profile.",
    loggedInAs: "Logged in as", changePassword: "Change password", oldPassword: "Current password", newPassword: "New password",
    passwordChanged: "Password changed; your other sessions were logged out.", deleteAccount: "Delete account", deleteTitle: "Delete this account?",
    deleteText: "Your account, standings and stats are deleted. Your games stay, with the name shown as anonymous.",
    ranked: "Ranked lobbies", queue: "Queue", leaveQueue: "Leave queue", loginToQueue: "Log in to play ranked",
    queued: "Waiting for players", inQueue: "{n} in queue", forming: "Your table is being made…", seatedRanked: "Seated at a ranked table",
    profile: "Profile", leaderboard: "Leaderboard", lobbyName: "Lobby", rank: "Rank", dan: "Dan", pt: "pt", rating: "R", games: "Games",
    stableDan: "Stable dan", placements: "Placements", toPromotion: "{n} pt to promotion", topRank: "The top rank",
    ratingGraph: "Rating over the games", agreementGraph: "Agreement with the reviewer", avgAgreement: "Average agreement", reviewedGames: "Reviewed games",
    recentGames: "Recent games", noPlayer: "No ranked games for this name yet.", noPlayers: "Nobody has played here yet.",
    stats: "Stats", statAvgPlace: "Average placement", statFirst: "1st rate", statLast: "Last rate", statWin: "Win rate", statDealIn: "Deal-in rate",
    statRiichi: "Riichi rate", statCall: "Call rate", statTsumo: "Tsumo rate (of wins)", statAvgWin: "Average win", statAvgDealIn: "Average deal-in",
    ordinals: ["1st", "2nd", "3rd", "4th"], statDrawTenpai: "Tenpai at draws", statHands: "Hands", ended: "Ended", delta: "R change",
    err_bad_login: "Wrong name or password.", err_name_taken: "That name (or one that looks the same) is taken.",
    err_bad_account: "Not a valid name or password (passwords: 8 to 256 characters).", err_rate_limited: "Too many attempts: wait a minute and try again.",
    err_banned: "This account is banned.", err_no_session: "Log in first.", err_queued: "You are already in a queue.",
    err_seated: "You already have a ranked seat: finish that game first.", err_not_admitted: "Your dan or R is below this lobby's floor.",
    err_no_table: "The table could not start; you stay queued.", err_csrf: "Your session is out of date: reload the page.",
  },
  ja: {
    lobby: "ロビー", rooms: "募集中の卓", create: "卓を作る", join: "参加", code: "卓コード",
    name: "名前", preset: "ルール", bots: "ボット", botKind: "ボットの種類", clock: "持ち時間 (基本 + 予備, 秒)",
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
    openLog: "牌譜を開く（天鳳JSON・mjai）", nextDraw: "次のツモ", nextTurn: "次の手番",
    prevHand: "前の局", nextHand: "次の局", storedGames: "保存された対局", spectating: "観戦中",
    choose: "牌を選ぶ", cancel: "キャンセル", turn: "の手番", noValue: "役なし",
    tsumoWin: "ツモ", ronWin: "ロン", from: "放銃", language: "言語",
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
    showFinal: "最終結果へ", all: "オール", allPay: "{n}オール", player: "プレイヤー", change: "収支",
    resultPts: "ポイント (ウマ込み)", unseen: "残り{n}枚", noChii: "チーなし", noKan: "カンなし", volume: "音量", options: "設定",
    mute: "消音", unmute: "音を出す",
    help: "役と点数", yakuList: "役一覧", yaku: "役", closedHan: "門前", openHan: "副露", close: "閉じる",
    childPoints: "子", dealerPoints: "親", seatWindYaku: "自風牌", roundWindYaku: "場風牌",
    refNote: "門前と副露の飜数 (—: 門前のみ)。点数は天鳳と同じ (切り上げ満貫なし)。対局の結果はサーバーが計算します。",
    autoPlay: "再生", pause: "一時停止", speed: "速度",
    end: "終局", scoreGraph: "局ごとの点数", reason_bust: "終局: 持ち点がマイナスになりました (トビ)",
    reason_last: "終局: 全局終了", reason_extra: "終局: 延長戦", reason_early: "終局: オーラス前に終了",
    leave: "退席", leaveTitle: "この卓から退席しますか?", stay: "残る", leaveConfirm: "退席する",
    leaveText: "退席中は自動で打ちます: 鳴かずにツモ切りします。ロビーの「自分の席に戻る」から再開できます。", sticksToFirst: "残った供託はトップへ: +{n}",
    login: "ログイン", logout: "ログアウト", register: "新規登録", account: "アカウント", accountName: "アカウント名", password: "パスワード",
    registerHint: "8〜256文字。名前は卓の名前と同じ決まり (16文字まで)。",
    guestsNote: "一般卓はアカウントなしでこれまで通り遊べます。段位戦とプロフィールにはアカウントが必要です。",
    loggedInAs: "ログイン中:", changePassword: "パスワード変更", oldPassword: "現在のパスワード", newPassword: "新しいパスワード",
    passwordChanged: "パスワードを変更しました。他のセッションはログアウトされました。", deleteAccount: "アカウント削除", deleteTitle: "このアカウントを削除しますか?",
    deleteText: "アカウント・段位・成績は削除されます。対局は残り、名前は anonymous と表示されます。",
    ranked: "段位戦", queue: "対戦待ちに入る", leaveQueue: "待ちをやめる", loginToQueue: "ログインして段位戦へ",
    queued: "対戦相手を待っています", inQueue: "待ち {n}人", forming: "卓を作成中…", seatedRanked: "段位戦の卓に着席中",
    profile: "プロフィール", leaderboard: "ランキング", lobbyName: "ロビー", rank: "順位", dan: "段位", pt: "pt", rating: "R", games: "対戦数",
    stableDan: "安定段位", placements: "着順", toPromotion: "昇段まで {n}pt", topRank: "最高位",
    ratingGraph: "レーティングの推移", agreementGraph: "AI検討との一致率", avgAgreement: "平均一致率", reviewedGames: "検討した対局",
    recentGames: "最近の対局", noPlayer: "この名前の段位戦の記録はまだありません。", noPlayers: "まだ誰も対局していません。",
    stats: "成績", statAvgPlace: "平均順位", statFirst: "トップ率", statLast: "ラス率", statWin: "和了率", statDealIn: "放銃率",
    statRiichi: "立直率", statCall: "副露率", statTsumo: "ツモ率 (和了中)", statAvgWin: "平均打点", statAvgDealIn: "平均放銃",
    ordinals: ["1位", "2位", "3位", "4位"], statDrawTenpai: "流局時聴牌率", statHands: "局数", ended: "終了", delta: "R変動",
    err_bad_login: "名前またはパスワードが違います。", err_name_taken: "その名前 (または紛らわしい名前) は使われています。",
    err_bad_account: "名前かパスワードが使えません (パスワードは8〜256文字)。", err_rate_limited: "試行が多すぎます。少し待ってから再度お試しください。",
    err_banned: "このアカウントは停止されています。", err_no_session: "先にログインしてください。", err_queued: "すでに対戦待ちに入っています。",
    err_seated: "段位戦の卓に着席中です。その対局を先に終えてください。", err_not_admitted: "段位またはRがこのロビーの条件に届きません。",
    err_no_table: "卓を開始できませんでした。待ちはそのままです。", err_csrf: "セッションが古くなっています。ページを再読み込みしてください。",
  },
  zh: {
    lobby: "大厅", rooms: "招募中的桌", create: "开桌", join: "加入", code: "桌号",
    name: "你的名字", preset: "规则", bots: "机器人", botKind: "机器人类型", clock: "用时 (基本 + 备用, 秒)",
    watch: "观战", replay: "牌谱", noRooms: "暂无招募中的桌", finishedGames: "已结束的对局", noFinished: "还没有已结束的对局", more: "更多", share: "分享链接",
    connecting: "连接中…", online: "已连接", offline: "重新连接中…",
    skip: "跳过", chii: "吃", pon: "碰", daiminkan: "杠", ankan: "杠", kakan: "杠",
    riichi: "立直", tsumo: "自摸", ron: "荣和", kyuushu: "九种九牌", kita: "拔北",
    discard: "打牌", next_round: "确定", tenpai: "听牌", waits: "听", furiten: "振听",
    autoWin: "自动和牌", noCalls: "不鸣牌", autoTsumogiri: "立直后自动摸切",
    sound: "声音", honba: "本场", sticks: "供托", left: "余", dora: "宝牌",
    han: "番", fu: "符", points: "点", yakuman: "役满", ura: "里", aka: "赤",
    ryuukyoku: "流局", final: "最终结果", place: "顺位", score: "点数",
    back: "后退", forward: "前进", round: "局", viewpoint: "视角", allHands: "全员手牌",
    openLog: "打开牌谱（天凤 JSON、mjai）", nextDraw: "下一摸", nextTurn: "下一轮到我",
    prevHand: "上一局", nextHand: "下一局", storedGames: "保存的对局", spectating: "观战中",
    choose: "选择牌", cancel: "取消", turn: "的回合", noValue: "无役",
    tsumoWin: "自摸", ronWin: "荣和", from: "放铳", language: "语言",
    winds: ["东", "南", "西", "北"], start: "开始", notenpai: "未听牌", replayGame: "本局牌谱",
    draw_exhaustive: "荒牌流局", draw_nagashi: "流局满贯", draw_kyuushu: "九种九牌",
    draw_suufon_renda: "四风连打", draw_suucha_riichi: "四家立直", draw_suukaikan: "四杠散了",
    draw_sanchahou: "三家和了",
    practice: "练习", broadcast: "直播", locked: "已上锁", owner: "房主",
    broadcastOpt: "直播: 观战者延迟看到所有手牌",
    shuffle: "洗牌", verified: "洗牌已验证", cannotVerify: "洗牌未验证 (此页面没有 crypto.subtle: 请用 https)",
    mismatch: "警告: 公开的种子与洗牌承诺不符",
    restarting: "服务器重启中 — 重新连接中…", kicked: "房主已将你移出此桌。",
    badtoken: "服务器不认识这个座位的密钥。", replaced: "此座位已在另一个标签页打开。",
    refused: "服务器拒绝了此连接。", ended: "对局结束",
    kick: "移出", lock: "上锁", unlock: "解锁", invite: "邀请链接 (含密钥)",
    waitOwner: "等待房主开始",
    status_waiting: "招募中", status_playing: "对局中", status_suspended: "暂停",
    status_finished: "已结束", status_aborted: "已中止",
    download: "下载", copyLink: "复制链接", copied: "已复制", backToSeat: "回到你的座位",
    showFinal: "最终结果", all: "全付", allPay: "{n}点 全付", player: "玩家", change: "变动",
    resultPts: "得分 (含马点)", unseen: "剩{n}张", noChii: "不吃", noKan: "不杠", volume: "音量", options: "设置",
    mute: "静音", unmute: "打开声音",
    help: "役种与点数", yakuList: "役种一览", yaku: "役", closedHan: "门前", openHan: "副露", close: "关闭",
    childPoints: "子家", dealerPoints: "庄家", seatWindYaku: "自风牌", roundWindYaku: "场风牌",
    refNote: "门前与副露的番数 (—: 仅门前)。点数同天凤 (无切上满贯)。对局结果由服务器计算。",
    autoPlay: "播放", pause: "暂停", speed: "速度",
    end: "终局", scoreGraph: "各局点数走势", reason_bust: "终局: 有玩家点数低于零 (被飞)",
    reason_last: "终局: 所有局已打完", reason_extra: "终局: 延长战", reason_early: "终局: 在最后一局前结束",
    leave: "离开牌桌", leaveTitle: "离开这张牌桌?", stay: "留下", leaveConfirm: "离开",
    leaveText: "离开期间你的座位自动进行: 不鸣牌, 摸什么打什么。可在大厅点「回到你的座位」继续。", sticksToFirst: "剩余立直棒归第一名: +{n}",
    login: "登录", logout: "退出登录", register: "注册", account: "账号", accountName: "账号名", password: "密码",
    registerHint: "8 到 256 个字符。名字与牌桌名字规则相同 (最多 16 个字符)。",
    guestsNote: "普通桌无需账号, 游客照常游玩。段位战和个人资料需要账号。",
    loggedInAs: "已登录:", changePassword: "修改密码", oldPassword: "当前密码", newPassword: "新密码",
    passwordChanged: "密码已修改, 其他会话已退出。", deleteAccount: "删除账号", deleteTitle: "删除这个账号?",
    deleteText: "账号、段位和战绩将被删除。对局保留, 名字显示为 anonymous。",
    ranked: "段位战", queue: "排队", leaveQueue: "退出排队", loginToQueue: "登录后进行段位战",
    queued: "正在等待对手", inQueue: "排队 {n} 人", forming: "正在组桌…", seatedRanked: "已在段位战牌桌就座",
    profile: "个人资料", leaderboard: "排行榜", lobbyName: "大厅", rank: "名次", dan: "段位", pt: "pt", rating: "R", games: "对局数",
    stableDan: "稳定段位", placements: "顺位", toPromotion: "距升段 {n}pt", topRank: "最高段位",
    ratingGraph: "R 值走势", agreementGraph: "与 AI 复盘的一致率", avgAgreement: "平均一致率", reviewedGames: "已复盘对局",
    recentGames: "最近对局", noPlayer: "这个名字还没有段位战记录。", noPlayers: "还没有人在这里对局。",
    stats: "战绩", statAvgPlace: "平均顺位", statFirst: "一位率", statLast: "四位率", statWin: "和牌率", statDealIn: "放铳率",
    statRiichi: "立直率", statCall: "副露率", statTsumo: "自摸率 (和牌中)", statAvgWin: "平均打点", statAvgDealIn: "平均放铳",
    ordinals: ["一位", "二位", "三位", "四位"], statDrawTenpai: "流局听牌率", statHands: "局数", ended: "结束", delta: "R 变动",
    err_bad_login: "名字或密码错误。", err_name_taken: "这个名字 (或看起来相同的名字) 已被使用。",
    err_bad_account: "名字或密码不可用 (密码 8 到 256 个字符)。", err_rate_limited: "尝试次数过多, 请稍后再试。",
    err_banned: "此账号已被封禁。", err_no_session: "请先登录。", err_queued: "你已经在排队了。",
    err_seated: "你已在段位战牌桌就座, 请先打完那一局。", err_not_admitted: "你的段位或 R 值未达到这个大厅的要求。",
    err_no_table: "牌桌未能开始, 你仍在排队中。", err_csrf: "会话已过期, 请刷新页面。",
  },
};

// The presets' names by key in each language (the server's label is the English one, and
// stands for a key this table does not know)
const PRESET_NAMES = {
  en: { "tenhou-hanchan": "Tenhou 4p hanchan", "tenhou-tonpuu": "Tenhou 4p tonpuusen", "tenhou-sanma-hanchan": "Tenhou sanma hanchan",
    "tenhou-sanma-tonpuu": "Tenhou sanma tonpuusen", "mahjongsoul-hanchan": "Mahjong Soul 4p hanchan",
    "mahjongsoul-sanma": "Mahjong Soul 3p hanchan", mleague: "M-League", wrc: "World Riichi Championship" },
  ja: { "tenhou-hanchan": "天鳳 四麻 東南戦", "tenhou-tonpuu": "天鳳 四麻 東風戦", "tenhou-sanma-hanchan": "天鳳 三麻 東南戦",
    "tenhou-sanma-tonpuu": "天鳳 三麻 東風戦", "mahjongsoul-hanchan": "雀魂 四麻 半荘戦", "mahjongsoul-sanma": "雀魂 三麻 半荘戦",
    mleague: "Mリーグ", wrc: "世界リーチ麻雀選手権 (WRC)" },
  zh: { "tenhou-hanchan": "天凤 四麻 东南战", "tenhou-tonpuu": "天凤 四麻 东风战", "tenhou-sanma-hanchan": "天凤 三麻 东南战",
    "tenhou-sanma-tonpuu": "天凤 三麻 东风战", "mahjongsoul-hanchan": "雀魂 四麻 半庄战", "mahjongsoul-sanma": "雀魂 三麻 半庄战",
    mleague: "M联赛", wrc: "世界立直麻将锦标赛 (WRC)" },
};

/** A preset's name: this language's, else the server's label (English), else the table's English. */
export function presetName(key, serverLabel = null) {
  if (lang !== "en" && PRESET_NAMES[lang][key]) return PRESET_NAMES[lang][key];
  return serverLabel || PRESET_NAMES.en[key] || key;
}

// [romaji id, English, Japanese (Tenhou's spelling)]
const YAKU = [
  ["menzen_tsumo", "Fully concealed tsumo", "門前清自摸和"], ["riichi", "Riichi", "立直"],
  ["ippatsu", "Ippatsu", "一発"], ["chankan", "Robbing a kan", "槍槓"],
  ["rinshan", "After a kan", "嶺上開花"], ["haitei", "Last tile tsumo", "海底摸月"],
  ["houtei", "Last discard ron", "河底撈魚"], ["pinfu", "Pinfu", "平和"],
  ["tanyao", "All simples", "断幺九"], ["iipeikou", "Pure double sequence", "一盃口"],
  ["jikaze_ton", "Seat wind East", "自風 東"], ["jikaze_nan", "Seat wind South", "自風 南"],
  ["jikaze_shaa", "Seat wind West", "自風 西"], ["jikaze_pei", "Seat wind North", "自風 北"],
  ["bakaze_ton", "Round wind East", "場風 東"], ["bakaze_nan", "Round wind South", "場風 南"],
  ["bakaze_shaa", "Round wind West", "場風 西"], ["bakaze_pei", "Round wind North", "場風 北"],
  ["yakuhai_haku", "White dragon", "役牌 白"], ["yakuhai_hatsu", "Green dragon", "役牌 發"],
  ["yakuhai_chun", "Red dragon", "役牌 中"], ["double_riichi", "Double riichi", "両立直"],
  ["chiitoitsu", "Seven pairs", "七対子"], ["chanta", "Half outside hand", "混全帯幺九"],
  ["ittsu", "Pure straight", "一気通貫"], ["sanshoku_doujun", "Mixed triple sequence", "三色同順"],
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
// Simplified Chinese names (the usual mainland riichi terms), by romaji id
const YAKU_ZH = {
  menzen_tsumo: "门前清自摸和", riichi: "立直", ippatsu: "一发", chankan: "抢杠", rinshan: "岭上开花",
  haitei: "海底摸月", houtei: "河底捞鱼", pinfu: "平和", tanyao: "断幺九", iipeikou: "一杯口",
  jikaze_ton: "自风 东", jikaze_nan: "自风 南", jikaze_shaa: "自风 西", jikaze_pei: "自风 北",
  bakaze_ton: "场风 东", bakaze_nan: "场风 南", bakaze_shaa: "场风 西", bakaze_pei: "场风 北",
  yakuhai_haku: "役牌 白", yakuhai_hatsu: "役牌 发", yakuhai_chun: "役牌 中", double_riichi: "两立直",
  chiitoitsu: "七对子", chanta: "混全带幺九", ittsu: "一气通贯", sanshoku_doujun: "三色同顺",
  sanshoku_doukou: "三色同刻", sankantsu: "三杠子", toitoi: "对对和", sanankou: "三暗刻",
  shousangen: "小三元", honroutou: "混老头", ryanpeikou: "二杯口", junchan: "纯全带幺九",
  honitsu: "混一色", chinitsu: "清一色", renhou: "人和", tenhou: "天和", chiihou: "地和",
  daisangen: "大三元", suuankou: "四暗刻", suuankou_tanki: "四暗刻单骑", tsuuiisou: "字一色",
  ryuuiisou: "绿一色", chinroutou: "清老头", chuuren_poutou: "九莲宝灯", junsei_chuuren_poutou: "纯正九莲宝灯",
  kokushi_musou: "国士无双", kokushi_musou_13: "国士无双十三面", daisuushii: "大四喜", shousuushii: "小四喜",
  suukantsu: "四杠子", dora: "宝牌", ura: "里宝牌", aka: "赤宝牌", uradora: "里宝牌", akadora: "赤宝牌",
  kita: "拔北宝牌", nagashi_mangan: "流局满贯",
};
const YAKU_BY_ID = new Map(YAKU.map((y) => [y[0], y]));
const YAKU_BY_JA = new Map(YAKU.map((y) => [y[2], y]));

const TILE_EN = ["Man", "Pin", "Sou"];
const HONOR_EN = ["East", "South", "West", "North", "White", "Green", "Red"];
const HONOR_JA = ["東", "南", "西", "北", "白", "發", "中"];
const NUM_JA = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
const SUIT_JA = ["萬", "筒", "索"];
const HONOR_ZH = ["东", "南", "西", "北", "白", "发", "中"];
const SUIT_ZH = ["万", "饼", "条"];
/** The languages offered, each named in itself. */
export const LANGS = [["en", "English"], ["ja", "日本語"], ["zh", "简体中文"]];

// storage and navigator may be absent (node's test runner): then English
const stored = () => (typeof localStorage === "undefined" ? null : localStorage.getItem("lang"));
const browserLang = () => (typeof navigator === "undefined" ? "en" : navigator.language || "en");
const guess = () => LANGS.map((l) => l[0]).find((l) => browserLang().startsWith(l)) || "en";
let lang = stored() || guess();

export const getLang = () => lang;
export function setLang(l) {
  lang = l;
  if (typeof localStorage !== "undefined") localStorage.setItem("lang", l);
}

/** More interface words for the three languages, from a feature's own module (review_words.js). */
export function addWords(words) {
  for (const [l, w] of Object.entries(words)) Object.assign(UI[l], w);
}

/** An interface word. */
export const t = (key) => UI[lang][key] ?? UI.en[key] ?? key;

/** A tile kind's name in the current language; red fives say so. */
export function tileLabel(k, red = false) {
  if (k >= 27) return lang === "ja" ? HONOR_JA[k - 27] : lang === "zh" ? HONOR_ZH[k - 27] : HONOR_EN[k - 27];
  const n = (k % 9) + 1, s = Math.floor(k / 9);
  if (lang === "zh") return `${red ? "赤" : ""}${NUM_JA[n - 1]}${SUIT_ZH[s]}`;
  if (lang === "ja") return `${red ? "赤" : ""}${NUM_JA[n - 1]}${SUIT_JA[s]}`;
  return `${red ? "red " : ""}${n} ${TILE_EN[s]}`;
}

/** A yaku's name from its romaji id or Tenhou's Japanese name. */
export function yakuLabel(name) {
  const y = YAKU_BY_ID.get(name) || YAKU_BY_JA.get(name);
  if (!y) return name;
  if (lang === "zh") return YAKU_ZH[y[0]] || y[2];
  return lang === "ja" ? y[2] : y[1];
}

export const windName = (i) => UI[lang].winds[i % 4];
/** One character per wind for tight places (the centre panel). */
export const windShort = (i) => (lang === "en" ? "ESWN"[i % 4] : UI[lang].winds[i % 4]);
export const LIMIT = {
  en: { mangan: "Mangan", haneman: "Haneman", baiman: "Baiman", sanbaiman: "Sanbaiman", yakuman: "Yakuman" },
  ja: { mangan: "満貫", haneman: "跳満", baiman: "倍満", sanbaiman: "三倍満", yakuman: "役満" },
  zh: { mangan: "满贯", haneman: "跳满", baiman: "倍满", sanbaiman: "三倍满", yakuman: "役满" },
};
// Tenhou's ranks by number (0 新人 .. 20 天鳳位), as Tenhou writes them, and their equivalents
const KANJI_NUM = ["初", "二", "三", "四", "五", "六", "七", "八", "九", "十"];
const DAN_NAMES = {
  ja: ["新人", ...[9, 8, 7, 6, 5, 4, 3, 2, 1].map((k) => `${k}級`), ...KANJI_NUM.map((k) => `${k}段`), "天鳳位"],
  zh: ["新人", ...[9, 8, 7, 6, 5, 4, 3, 2, 1].map((k) => `${k}级`), ...KANJI_NUM.map((k) => `${k}段`), "天凤位"],
  en: ["Novice", ...[9, 8, 7, 6, 5, 4, 3, 2, 1].map((k) => `${k} kyu`), ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((k) => `${k} dan`), "Tenhoui"],
};
/** A Tenhou rank's name (0 新人 .. 20 天鳳位) in the current language. */
export const danName = (dan) => DAN_NAMES[lang][dan] ?? String(dan);

export const limitLabel = (l) => (l ? LIMIT[lang][l] || l : "");
