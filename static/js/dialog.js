// A modal dialog over the page: named by its title, Esc closes it, Tab stays inside it, and
// the focus goes back to the control that opened it.

import { el } from "./dom.js";

/** Open a dialog; returns its close function. opts: {id, title, body: nodes, cls}. */
export function modal(opener, { id, title, body, cls = "" }) {
  const panel = el("div", { class: `panel ${cls}`.trim(), role: "dialog", "aria-modal": "true", "aria-labelledby": `${id}-title`, tabindex: "-1" },
    el("h2", { id: `${id}-title` }, title), ...body);
  const box = el("div", { class: "overlay modal", id }, panel);
  const close = () => { box.remove(); document.removeEventListener("keydown", onKey, true); if (opener) opener.focus(); };
  function onKey(e) {
    if (e.key === "Escape") { e.stopPropagation(); e.preventDefault(); close(); return; }
    if (e.key !== "Tab") return;
    const all = [...panel.querySelectorAll("button, a[href], input, select, [tabindex='0']")];
    if (!all.length) return;
    const i = all.indexOf(document.activeElement);
    const next = e.shiftKey ? (i <= 0 ? all.length - 1 : i - 1) : (i + 1) % all.length;
    e.preventDefault();
    all[next].focus();
  }
  box.addEventListener("click", (e) => { if (e.target === box) close(); });
  document.addEventListener("keydown", onKey, true);
  document.body.append(box);
  return { close, panel };
}
