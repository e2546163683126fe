// Leaving a table: the header's button asks first, in a small dialog. Leaving closes this
// page's connection, and the server treats the seat as disconnected: its turns are played by
// the defaults (pass; discard the drawn tile) until the player comes back ("back to your
// seat" in the lobby keeps the seat's key). The protocol has no message to give a game up.

import { t } from "./i18n.js";
import { el } from "./dom.js";

/** The dialog; Esc or "Stay" closes it and gives the focus back to `opener`. */
function confirmLeave(opener, onLeave) {
  const close = () => { box.remove(); document.removeEventListener("keydown", onKey, true); opener.focus(); };
  const stay = el("button", { type: "button", id: "leave-stay", onclick: close }, t("stay"));
  const go = el("button", { type: "button", id: "leave-confirm", class: "danger", onclick: () => { close(); onLeave(); } }, t("leaveConfirm"));
  const panel = el("div", { class: "panel leave", role: "dialog", "aria-modal": "true", "aria-labelledby": "leave-title", "aria-describedby": "leave-text" },
    el("h2", { id: "leave-title" }, t("leaveTitle")), el("p", { id: "leave-text" }, t("leaveText")), el("div", "buttons", stay, " ", go));
  const box = el("div", { class: "overlay modal", id: "leave-dialog" }, panel);
  function onKey(e) {
    if (e.key === "Escape") { e.stopPropagation(); close(); }
    // the focus stays inside the dialog
    if (e.key === "Tab") { e.preventDefault(); (document.activeElement === stay ? go : stay).focus(); }
  }
  document.addEventListener("keydown", onKey, true);
  document.body.append(box);
  stay.focus();
}

/** The header's "Leave table" button. */
export function leaveButton(onLeave) {
  const b = el("button", { type: "button", id: "leave", class: "leave" }, t("leave"));
  b.addEventListener("click", () => confirmLeave(b, onLeave));
  return b;
}
