// A seat's interaction state beside the table model: the open inquiry and its clock, riichi-discard
// mode, a call's tile choice, the selected tile, the waits preview, the result overlay and its
// acknowledgement, the match's end. A pure reducer: no DOM, no clock read (time comes in the
// actions); play.js draws the state and sends `out`, the answer the last action owes the server.
//
// The inquiry/acknowledge protocol (docs/protocol.md), stated once:
// * `inquiry` opens a decision and replaces any open one (the server asks one question at a
//   time, so the newer is the question); riichi mode, a tile choice and the selection go with it.
// * Answering sends {answer, inquiry: id} once and closes it; a discard's waits become the preview.
// * The server's `answered` for that id closes it (its own answer or a time-out's default; an
//   older id closes nothing), and so does the next event (someone else's call may settle it
//   first) -- except a next_round inquiry, which the result's button answers.
// * A round result opens the overlay. Its button answers the open next_round inquiry; if the
//   server has not asked yet it closes the overlay and the next_round inquiry, when it comes, is
//   answered at once. The next round clears the overlay, that acknowledgement and the waits.
// * A snapshot (every (re)connect) rebuilds all this from the round's events and reopens the
//   pending inquiry with a fresh clock (the server restarts its base time).
// * The match's end closes the inquiry; the standings stay up (behind the last hand's result).

const NEXT = "next_round";
const indexOf = (inq, type) => (inq ? inq.actions.findIndex((a) => a.type === type) : -1);

/** The state before anything has been said. */
export const initial = () => ({
  inq: null, inqAt: 0, bank: null, riichi: false, choosing: null, selected: null, waits: [],
  overlay: null, answeredNext: false, ackPending: false, ended: false, out: null,
});

const closed = { inq: null, riichi: false, choosing: null };

function answer(s, action, option) {
  if (!s.inq) return s;
  const a = s.inq.actions[action];
  const waits = a.type === "discard" || a.type === "riichi" ? a.options[option].tenpai || [] : s.waits;
  return { ...s, ...closed, selected: null, waits, answeredNext: s.answeredNext || a.type === NEXT,
    out: { type: "answer", inquiry: s.inq.id, action, option } };
}

function open(s, inq, now) {
  const t = { ...s, inq: inq || null, inqAt: now, riichi: false, choosing: null, selected: null,
    bank: inq ? inq.bank_ms : s.bank };
  const next = indexOf(inq, NEXT);
  // the player closed the result before the server asked: that click was the answer
  if (next >= 0 && s.ackPending) return answer({ ...t, ackPending: false }, next, 0);
  return t;
}

/** One table-model event's mark on the interaction (seat: the page's own, null watching). */
function onTable(s, e, seat) {
  switch (e.t) {
    case "round": return { ...s, overlay: null, waits: [], answeredNext: false, ackPending: false };
    case "result": return { ...s, overlay: { result: e } };
    // the last hand's result stays up; the standings wait behind it (its button opens them)
    case "end": return { ...s, overlay: s.overlay && s.overlay.result ? { ...s.overlay, final: e } : { final: e } };
    case "call": return e.seat === seat ? { ...s, waits: [] } : s;
    default: return s;
  }
}

const fold = (s, events, seat) => (events || []).reduce((t, e) => onTable(t, e, seat), s);

function settle(s) {
  // an open inquiry is settled by the next event; a next_round one waits for the result's button
  return s.inq && indexOf(s.inq, NEXT) < 0 ? { ...s, ...closed } : s;
}

function ack(s) {
  const next = indexOf(s.inq, NEXT);
  if (next >= 0) return answer(s, next, 0);
  return s.answeredNext ? s : { ...s, ackPending: true, overlay: null };
}

function escape(s) {
  if (s.choosing !== null || s.riichi) return { ...s, choosing: null, riichi: false };
  const skip = indexOf(s.inq, "skip");
  return skip >= 0 ? answer(s, skip, 0) : s;
}

function end(s, final) {
  const overlay = !s.overlay ? { final } : s.overlay.final ? s.overlay : { ...s.overlay, final };
  return { ...s, ...closed, selected: null, ackPending: false, ended: true, overlay };
}

/**
 * The next state. Server: {type: "inquiry", inq, now} | {type: "event", events, seat} (the
 * model events of one server event) | {type: "snapshot", events, inquiry, now, seat} |
 * {type: "answered", inquiry} | {type: "clock", bank} | {type: "end", final}. Player:
 * {type: "answer", action, option} | "ack" (the result's button) | "showFinal" | "escape" |
 * {type: "riichi", on} | {type: "choose", index} | {type: "select", tile}.
 * Returns the same object when nothing changed.
 */
export function reduce(state, a) {
  const s = state.out ? { ...state, out: null } : state; // an answer is owed once
  switch (a.type) {
    case "inquiry": return open(s, a.inq, a.now);
    case "event": return fold(settle(s), a.events, a.seat);
    case "snapshot": return open(fold(s, a.events, a.seat), a.inquiry, a.now);
    case "answered": return s.inq && s.inq.id === a.inquiry ? { ...s, ...closed } : s;
    case "clock": return { ...s, bank: a.bank };
    case "end": return end(s, a.final);
    case "answer": return answer(s, a.action, a.option);
    case "ack": return ack(s);
    case "showFinal": return s.overlay ? { ...s, overlay: { final: s.overlay.final } } : s;
    case "escape": return escape(s);
    case "riichi": return { ...s, riichi: a.on, selected: null };
    case "choose": return { ...s, choosing: a.index };
    case "select": return s.selected === a.tile ? s : { ...s, selected: a.tile };
    default: return s;
  }
}

/** The inquiry whose choices the hand and buttons offer (a next_round one belongs to the result). */
export const asking = (s) => (s.inq && !s.inq.actions.every((a) => a.type === NEXT) ? s.inq : null);

/** The open next_round inquiry's action index, or -1. */
export const nextRound = (s) => indexOf(s.inq, NEXT);

/** Time left on the open inquiry at `now` (the clock inqAt came from): {base, bank} in ms. */
export function timeLeft(s, now) {
  const used = now - s.inqAt;
  return { base: Math.max(0, s.inq.base_ms - used), bank: Math.max(0, s.inq.bank_ms - Math.max(0, used - s.inq.base_ms)) };
}
