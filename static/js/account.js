// The account: who is logged in (GET /api/session, kept for the page), the writes that need
// the session's CSRF token, the header's login/profile links, and the account page (register,
// log in, log out, change password, delete account). Guests never need any of it.

import { t } from "./i18n.js";
import { el } from "./dom.js";
import { modal } from "./dialog.js";

/** The session as the server told it: {name, admin, csrf, expires}, or null for a guest. */
let session = null;

/** The logged-in account's name, or null. */
export const me = () => (session ? session.name : null);

/** The CSRF header of the session ({} for a guest): a write made with fetch directly sends it
 * so the server knows the account (a review the seat's own account asks for feeds its match rate). */
export const csrfHeader = () => (session && session.csrf ? { "x-csrf-token": session.csrf } : {});
/** Whether the logged-in account is an admin (the server decides every write anyway). */
export const isAdmin = () => Boolean(session && session.admin);

/** Ask the server who this browser is (its HttpOnly cookie): call before drawing a page. */
export async function loadSession() {
  try {
    const r = await fetch("/api/session");
    session = r.ok ? (await r.json()).account ?? null : null;  // {"account": null}: a guest
  } catch { session = null; }
  return session;
}

/** An API error: the server's code (for a translated message) and its own words. */
export class ApiError extends Error {
  constructor(code, message, status) { super(message); this.code = code; this.status = status; }
}

/** A message for an API error in the page's language (the server's own text when none). */
export function errorText(e) {
  const key = e && e.code ? `err_${e.code}` : "";
  const said = key ? t(key) : key;
  return key && said !== key ? said : (e && e.message) || String(e);
}

/** GET (no body) or a write (POST/DELETE with a JSON body) carrying the session's CSRF token. */
export async function call(method, path, body) {
  const opts = { method, headers: {} };
  if (method !== "GET") {
    opts.headers["content-type"] = "application/json";
    opts.body = JSON.stringify(body ?? {});
    if (session && session.csrf) opts.headers["x-csrf-token"] = session.csrf;
  }
  const r = await fetch(path, opts);
  let data = {};
  try { data = await r.json(); } catch { /* an empty or non-JSON answer */ }
  // a session that ended elsewhere (a password change, a ban, its expiry): a guest from now on
  if (r.status === 401 && data.code === "no_session") session = null;
  if (!r.ok) throw new ApiError(data.code || String(r.status), data.message || r.statusText, r.status);
  return data;
}

/** The profile page's link for a player's name. */
export const profileHref = (name) => `#/player/${encodeURIComponent(name)}`;

/** A name as a link to its profile (`always`: any account's name, as in ranked lists), or for
 * a table's and lobby's names: a link only when it is the logged-in account's own name.
 * `newTab` keeps a seat's page open (a table in play). */
export function nameEl(name, { always = false, newTab = false, cls = "" } = {}) {
  if (!name || !(always || name === me())) return el("span", cls, name || "");
  const a = el("a", { href: profileHref(name), class: `player-link ${cls}`.trim() }, name);
  if (newTab) { a.target = "_blank"; a.rel = "noopener"; }
  return a;
}

/** The header's account part: the own name (its profile) and the account page, or log in. */
export function accountLinks() {
  if (!me()) return [el("a", { href: "#/account", id: "login-link" }, t("login"))];
  return [el("a", { href: profileHref(me()), id: "me-link", class: "player-link" }, me()),
    el("a", { href: "#/account", id: "account-link" }, t("account"))];
}

function field(id, label, type, autocomplete) {
  const input = el("input", { id, name: id, type, autocomplete, required: "" });
  return [el("label", { for: id }, label, input), input];
}

/** A form that shows its error under it and turns busy while the request runs. */
function form(id, title, fields, submit, onSubmit) {
  const err = el("div", { class: "error", id: `${id}-error`, role: "alert" });
  const button = el("button", { type: "submit", id: `${id}-submit` }, submit);
  const f = el("form", { id, class: "account-form", "aria-labelledby": `${id}-title`, novalidate: "" },
    el("h2", { id: `${id}-title` }, title), ...fields, el("div", "", button), err);
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    button.disabled = true;
    try { await onSubmit(); } catch (x) { err.textContent = errorText(x); } finally { button.disabled = false; }
  });
  return f;
}

/** Log in (after registering too): the session kept, then `next` (a hash) or the lobby. */
async function logIn(name, password, next) {
  session = await call("POST", "/api/session", { name, password });
  localStorage.setItem("name", session.name);
  location.hash = next || "#/";
}

function loginForms(root) {
  const [nameL, name] = field("login-name", t("accountName"), "text", "username");
  const [passL, pass] = field("login-password", t("password"), "password", "current-password");
  const login = form("login", t("login"), [nameL, passL], t("login"), () => logIn(name.value.trim(), pass.value));
  const [rnameL, rname] = field("register-name", t("accountName"), "text", "username");
  const [rpassL, rpass] = field("register-password", t("password"), "password", "new-password");
  const hint = el("p", { class: "muted", id: "register-hint" }, t("registerHint"));
  rpass.setAttribute("aria-describedby", "register-hint");
  rpass.minLength = 8;
  const register = form("register", t("register"), [rnameL, rpassL, hint], t("register"), async () => {
    await call("POST", "/api/accounts", { name: rname.value.trim(), password: rpass.value });
    await logIn(rname.value.trim(), rpass.value);
  });
  root.replaceChildren(el("div", { class: "page account" },
    el("section", {}, login), el("section", {}, register), el("p", { class: "muted" }, t("guestsNote"))));
  name.focus();
}

function accountForms(root) {
  const out = el("button", { type: "button", id: "logout", onclick: async () => {
    try { await call("DELETE", "/api/session"); } catch { /* already ended: a guest either way */ }
    session = null;
    location.hash = "#/";
  } }, t("logout"));
  const [oldL, old] = field("old-password", t("oldPassword"), "password", "current-password");
  const [newL, neu] = field("new-password", t("newPassword"), "password", "new-password");
  const done = el("div", { class: "ok", id: "password-done", role: "status" });
  const change = form("password", t("changePassword"), [oldL, newL, done], t("changePassword"), async () => {
    done.textContent = "";
    await call("POST", "/api/account/password", { old: old.value, new: neu.value });
    old.value = ""; neu.value = "";
    done.textContent = t("passwordChanged");
  });
  const [delL, del] = field("delete-password", t("password"), "password", "current-password");
  // asked once more in a dialog (the account, its standings and stats go for good); the
  // submit only opens it, so Esc or a click outside leaves the form as it was
  const remove = form("delete", t("deleteAccount"), [el("p", "", t("deleteText")), delL], t("deleteAccount"), async () => {
    const yes = el("button", { type: "button", class: "danger", id: "delete-confirm" }, t("deleteAccount"));
    const no = el("button", { type: "button", id: "delete-cancel" }, t("cancel"));
    const dlg = modal(document.getElementById("delete-submit"), { id: "delete-dialog", title: t("deleteTitle"), cls: "leave",
      body: [el("p", "", t("deleteText")), el("div", "buttons", no, yes)] });
    no.addEventListener("click", () => dlg.close());
    yes.addEventListener("click", async () => {
      dlg.close();
      try {
        await call("DELETE", "/api/account", { password: del.value });
        session = null;
        location.hash = "#/";
      } catch (x) { document.getElementById("delete-error").textContent = errorText(x); }
    });
    no.focus();
  });
  root.replaceChildren(el("div", { class: "page account" },
    el("section", {}, el("h2", {}, t("account")),
      el("p", {}, `${t("loggedInAs")} `, nameEl(me(), { always: true }), " ", out)),
    el("section", {}, change), el("section", {}, remove)));
}

/** `#/account`: the login and register forms for a guest, the account's settings otherwise. */
export function accountPage(root) {
  if (me()) accountForms(root); else loginForms(root);
  return () => {};
}
