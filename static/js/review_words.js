// The review's interface words (the replay viewer's "Review" control and its panel), added to
// i18n.js's tables so t() finds them as it finds every other label.

import { addWords } from "./i18n.js";

addWords({
  en: {
    review: "Review", reviewQueued: "queued", reviewRunning: "reviewing", reviewFailed: "review failed",
    matchRate: "match", reviewRating: "rating", blunders: "blunders", decisions: "decisions",
    grade_agree: "Agree", grade_close: "Close", grade_mistake: "Mistake", grade_blunder: "Blunder",
    prevMistake: "◀ Mistake", nextMistake: "Mistake ▶", worstMistake: "Worst mistake",
    played: "played", reviewerChoices: "Reviewer's choices", value: "value", prob: "prob.",
    loss: "loss", noDecisionHere: "No decision of this seat here", agreement: "Agreement over the game",
  },
  ja: {
    review: "AI検討", reviewQueued: "待機中", reviewRunning: "検討中", reviewFailed: "検討できません",
    matchRate: "一致率", reviewRating: "評価", blunders: "悪手", decisions: "判断",
    grade_agree: "一致", grade_close: "僅差", grade_mistake: "疑問手", grade_blunder: "悪手",
    prevMistake: "◀ 前の疑問手", nextMistake: "次の疑問手 ▶", worstMistake: "最大の悪手",
    played: "実際", reviewerChoices: "AIの候補", value: "評価値", prob: "確率",
    loss: "損失", noDecisionHere: "この局面はこの家の判断なし", agreement: "一局を通した一致",
  },
  zh: {
    review: "AI复盘", reviewQueued: "排队中", reviewRunning: "复盘中", reviewFailed: "无法复盘",
    matchRate: "一致率", reviewRating: "评分", blunders: "恶手", decisions: "决策",
    grade_agree: "一致", grade_close: "接近", grade_mistake: "失误", grade_blunder: "恶手",
    prevMistake: "◀ 上一个失误", nextMistake: "下一个失误 ▶", worstMistake: "最大失误",
    played: "实际", reviewerChoices: "AI 候选", value: "评估值", prob: "概率",
    loss: "损失", noDecisionHere: "此处无该家的决策", agreement: "全局一致情况",
  },
});
