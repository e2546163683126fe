// Leaving a table: the header's button asks first, in a small dialog. Leaving closes this
// page's connection, and the server treats the seat as disconnected: its turns are played by
// the defaults (pass; discard the drawn tile) until the player comes back ("back to your
// seat" in the lobby keeps the seat's key). The protocol has no message to give a game up.

import { t } from "./i18n.js";
import { el } from "./dom.js";
import { modal } from "./dialog.js";

/** The header's "Leave table" button. */
export function leaveButton(onLeave) {
  const b = el("button", { type: "button", id: "leave", class: "leave" }, t("leave"));
  b.addEventListener("click", () => {
    const stay = el("button", { type: "button", id: "leave-stay", onclick: () => d.close() }, t("stay"));
    const go = el("button", { type: "button", id: "leave-confirm", class: "danger", onclick: () => { d.close(); onLeave(); } }, t("leaveConfirm"));
    const d = modal(b, { id: "leave-dialog", title: t("leaveTitle"), cls: "leave",
      body: [el("p", { id: "leave-text" }, t("leaveText")), el("div", "buttons", stay, " ", go)] });
    d.panel.setAttribute("aria-describedby", "leave-text");
    stay.focus();
  });
  return b;
}
