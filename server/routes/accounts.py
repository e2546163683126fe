"""The accounts API: register, log in and out, change the password, delete the account.

A login answers with a bearer token (non-browser clients send ``Authorization: Bearer``) and
sets the same token as an HttpOnly, SameSite=Strict cookie (``Secure`` when the request came
over TLS, or through a trusted proxy that says so). A cookie-authenticated write must also
send the session's CSRF token in ``X-CSRF-Token`` (double submit: another site can make the
browser send the cookie, never read the token); the Shield refuses other Origins before that
(server/edge/security.py). Bearer requests carry no ambient credential and need no CSRF token.

Every login costs one argon2id verification in the hashing pool (server/accounts/hashing.py:
a pool of its own, 503 ``busy`` past its queue), against the dummy hash when the name is
unknown, so the answer and its time are the same for an unknown name and a wrong password.
The login budget (server/accounts/budget.py) is spent before, whether the name exists or
not: per name and per address for a client nobody knows, per (name, place) for a place the
owner logged in from before (a device cookie, the address of a past login, the session of a
password change or a deletion), so strangers' guesses cannot lock the owner out. A spent
budget is one answer everywhere: 429 with ``Retry-After``.

Every answer that carries a credential (a session or CSRF token) is ``Cache-Control:
no-store``: no cache between the server and the browser keeps one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable

import anyio
import msgspec
from starlette.requests import Request
from starlette.responses import Response

from server.accounts import devices, names, passwords, sessions
from server.accounts.budget import Bucket, LoginBudget, Places, Trusted
from server.accounts.hashing import RETRY_S, Busy, HashPool
from server.edge.limits import Bucket as SharedBucket
from server.edge.limits import BucketFactory, Guard, parse_list
from server.edge.web import error, json_response, no_store, read_body
from server.settings import Settings
from server.storage import accounts as rows
from server.storage import ranked
from server.storage.sqlite import Store

#: the session cookie's name
COOKIE = "riichi_session"
#: the header a cookie-authenticated write sends the CSRF token in
CSRF_HEADER = "x-csrf-token"
#: the one answer to a failed login, whatever failed
BAD_LOGIN = ("bad_login", "wrong name or password")


class Credentials(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    password: str


class NewPassword(msgspec.Struct, forbid_unknown_fields=True):
    old: str
    new: str


class Confirm(msgspec.Struct, forbid_unknown_fields=True):
    password: str


class Auth(msgspec.Struct, frozen=True):
    """Who a request is: the account and the login it came with."""

    account: rows.AccountRow
    login: rows.LoginRow
    cookie: bool


class AccountsApi:
    def __init__(
        self,
        store: Store,
        settings: Settings,
        guard: Guard,
        hasher: passwords.Passwords | None = None,
        shared: BucketFactory | None = None,
    ) -> None:
        """``shared``: a cluster's buckets (Redis), so the login budget is one budget on
        every node; without it the budget is this process's (server/accounts/budget.py)."""
        self.store = store
        self.settings = settings
        self.guard = guard
        self.passwords = hasher or passwords.Passwords()
        self.pool = HashPool(settings.hash_workers, settings.hash_queue)
        per_name = Bucket(settings.login_burst, settings.login_per_min / 60)
        self.budget = LoginBudget(
            per_name, Bucket(settings.login_address_burst, settings.login_address_per_min / 60)
        )
        #: a budget per (name, known place), and the addresses of each name's past logins
        self.trusted = Trusted(per_name)
        self.places = Places()
        #: registrations compare and insert one at a time (the look-alike check reads all)
        self.creating = threading.Lock()
        #: registrations: per address only (hashing a password costs as much as a login)
        per_address = Bucket(settings.login_address_burst, settings.login_address_per_min / 60)
        self.signups = LoginBudget(per_address, per_address)
        self.shared: tuple[SharedBucket, SharedBucket, SharedBucket, SharedBucket] | None = None
        if shared is not None:
            per_min, burst = settings.login_address_per_min, settings.login_address_burst
            self.shared = (
                shared("login-name", settings.login_per_min, settings.login_burst),
                shared("login-address", per_min, burst),
                shared("signup-address", per_min, burst),
                shared("login-trusted", settings.login_per_min, settings.login_burst),
            )
        self.proxies = parse_list(settings.trusted_proxies)
        #: called with a deleted account's id (the ranked queue drops its entry)
        self.on_delete: list[Callable[[int], Awaitable[object]]] = []
        #: called with the account's id after a logout (the queue drops an entry whose
        #: account has no session left)
        self.on_logout: list[Callable[[int], Awaitable[object]]] = []

    # -- who is asking --

    async def authenticate(self, request: Request) -> Auth | Response:
        """The request's account, or the error to send: 401 without a valid session, 403
        for a cookie write without the CSRF token, or for a banned account."""
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        cookie = scheme.lower() != "bearer"
        token = request.cookies.get(COOKIE, "") if cookie else token.strip()
        if not token:
            return error("no_session", "log in first", 401)
        found = await anyio.to_thread.run_sync(self._session, token)
        if found is None:
            return error("no_session", "the session ended; log in again", 401)
        account, login = found
        if cookie and request.method not in ("GET", "HEAD"):
            sent = request.headers.get(CSRF_HEADER, "")
            if not sessions.csrf_ok(sessions.Session(login.digest, 0, 0, 0, login.csrf), sent):
                return error("csrf", f"send the session's CSRF token in {CSRF_HEADER}", 403)
        if account.banned:
            return error("banned", "this account is banned", 403)
        return Auth(account, login, cookie)

    async def account_of(self, request: Request) -> int | None:
        """The request's account when it authenticates (CSRF and bans as ``authenticate``),
        else None: for routes open to everyone that treat an account's own asks apart."""
        auth = await self.authenticate(request)
        return None if isinstance(auth, Response) else auth.account.id

    def _session(self, token: str) -> tuple[rows.AccountRow, rows.LoginRow] | None:
        login = rows.login(self.store, sessions.digest(token))
        if login is None or login.expires <= time.time():
            return None
        account = rows.by_id(self.store, login.account)
        return None if account is None else (account, login)

    def secure(self, request: Request) -> bool:
        """The request came over TLS (directly, or from a trusted proxy that says so)."""
        if request.url.scheme in ("https", "wss"):
            return True
        peer = request.client.host if request.client else ""
        proto = request.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
        return peer in self.proxies and proto == "https"

    # -- routes --

    async def register(self, request: Request) -> Response:
        body = await read_body(request, Credentials)
        if isinstance(body, Response):
            return body
        address = self.guard.client(request.client, request.headers)
        try:
            name = names.check_name(body.name)
            passwords.check_password(body.password)
        except ValueError as exc:
            return error("bad_account", str(exc))
        try:
            with self.pool.place():
                wait = await self._spend(None, address)
                if wait > 0:
                    return _too_many(wait)
                if await anyio.to_thread.run_sync(names.alike, self.store, name):
                    return _taken()  # no hash for a name that cannot be had (checked again)
                hashed = await self.pool.run(self.passwords.hash, body.password)
        except Busy:
            return _busy()
        try:
            await anyio.to_thread.run_sync(self._create, name, hashed)
        except rows.NameTaken:
            return _taken()
        return no_store(json_response({"name": name}, 201))

    def _create(self, name: str, hashed: str) -> None:
        """The account, unless one whose name looks the same exists (NameTaken)."""
        with self.creating:
            if names.alike(self.store, name):
                raise rows.NameTaken(name)
            rows.create(self.store, name, names.name_key(name), hashed, time.time())

    async def login(self, request: Request) -> Response:
        body = await read_body(request, Credentials)
        if isinstance(body, Response):
            return body
        key = names.lookup_key(body.name)
        budget_key = names.name_key(body.name)[: names.KEY_MAX] if key is None else key
        address = self.guard.client(request.client, request.headers)
        cookie = request.cookies.get(devices.COOKIE, "")
        try:
            with self.pool.place():
                place = await self._place(key, address, cookie)
                wait = await self._spend(budget_key, address, place)
                if wait > 0:
                    return _too_many(wait)
                account = await self._check(key, body.password)
        except Busy:
            return _busy()
        if account is None:
            return error(*BAD_LOGIN, 401)
        if account.banned:
            return error("banned", "this account is banned", 403)
        assert key is not None
        self.places.add(key, address)
        old = request.cookies.get(COOKIE, "")
        token, session = sessions.issue(account.id, time.time(), self.settings.session_ttl_s)
        login = rows.LoginRow(
            session.digest, account.id, session.created, session.expires, session.csrf
        )

        def rotate() -> None:  # the session a browser came with ends: no fixation
            if old:
                rows.drop_login(self.store, sessions.digest(old))
            rows.drop_expired(self.store, time.time())
            rows.add_login(self.store, login)

        await anyio.to_thread.run_sync(rotate)
        answer = {
            "name": account.name,
            "token": token,
            "csrf": login.csrf,
            "expires": int(login.expires * 1000),
            "admin": account.admin,
        }
        response = no_store(json_response(answer))
        secure = self.secure(request)
        response.set_cookie(
            COOKIE,
            token,
            max_age=int(self.settings.session_ttl_s),
            path="/",
            httponly=True,
            samesite="strict",
            secure=secure,
        )
        if devices.device(cookie, key, account.hash) is None:  # this browser is known now
            response.set_cookie(
                devices.COOKIE,
                devices.issue(key, account.hash),
                max_age=devices.TTL_S,
                path="/api/",
                httponly=True,
                samesite="strict",
                secure=secure,
            )
        return response

    async def _place(self, key: str | None, address: str, cookie: str) -> str | None:
        """The place this login comes from when the owner logged in from it before (the
        address of a past login, or this browser's device cookie), else None (a stranger)."""
        if key is None:
            return None
        if self.places.known(key, address):
            return f"address:{address}"
        if not cookie:
            return None
        account = await anyio.to_thread.run_sync(rows.by_key, self.store, key)
        nonce = None if account is None else devices.device(cookie, key, account.hash)
        return None if nonce is None else f"device:{nonce}"

    async def _spend(self, key: str | None, address: str, place: str | None = None) -> float:
        """0 when an attempt may go ahead (and it is counted), else the seconds to wait;
        ``key`` None for a registration (per address only); ``place`` a known place of the
        name's owner, which spends its own bucket and nothing of strangers'."""
        now = time.monotonic()
        if self.shared is None:
            if key is None:
                ok = self.signups.attempt(address, address, now)
                return 0.0 if ok else max(self.signups.retry_after(address, address, now), 1.0)
            if place is not None:
                known = f"{key}\0{place}"
                ok = self.trusted.attempt(known, now)
                return 0.0 if ok else max(self.trusted.retry_after(known, now), 1.0)
            ok = self.budget.attempt(key, address, now)
            return 0.0 if ok else max(self.budget.retry_after(key, address, now), 1.0)
        names, addresses, signups, trusted = self.shared
        if key is None:
            return await signups.acquire(address)
        if place is not None:
            return await trusted.acquire(f"{key}\0{place}")
        return await names.acquire(key) or await addresses.acquire(address)

    async def _check(self, key: str | None, password: str) -> rows.AccountRow | None:
        """The account when the password is its own; the same work when there is none. The
        read runs in anyio's threads, the hashes in the pool's (within a ``place``)."""
        account = None
        if key is not None:
            account = await anyio.to_thread.run_sync(rows.by_key, self.store, key)
        stored = None if account is None else account.hash
        ok = await self.pool.run(self.passwords.verify, stored, password)
        if not ok or account is None or account.deleting:  # a deleted one, going
            return None
        if self.passwords.needs_rehash(account.hash):
            hashed = await self.pool.run(self.passwords.hash, password)
            await anyio.to_thread.run_sync(rows.set_hash, self.store, account.id, hashed)
        return account

    async def whoami(self, request: Request) -> Response:
        """``{"account": {...}}``, or ``{"account": null}`` for a guest: having no session
        (or one that ended) is the normal state of most visitors, not an error, so every
        page load of a guest asks without a 401 in its console; a banned account's
        session is still refused (403)."""
        auth = await self.authenticate(request)
        if isinstance(auth, Response):
            if auth.status_code == 401:  # no more cacheable than the account's own answer
                return no_store(json_response({"account": None}))
            return auth
        account = {
            "name": auth.account.name,
            "admin": auth.account.admin,
            "csrf": auth.login.csrf,
            "expires": int(auth.login.expires * 1000),
        }
        return no_store(json_response({"account": account}))

    async def logout(self, request: Request) -> Response:
        auth = await self.authenticate(request)
        if isinstance(auth, Response):
            return auth
        await anyio.to_thread.run_sync(rows.drop_login, self.store, auth.login.digest)
        for hook in self.on_logout:
            await hook(auth.account.id)
        response = json_response({"ok": True})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
        return response

    async def change_password(self, request: Request) -> Response:
        auth = await self.authenticate(request)
        if isinstance(auth, Response):
            return auth
        body = await read_body(request, NewPassword)
        if isinstance(body, Response):
            return body
        try:
            passwords.check_password(body.new)
        except ValueError as exc:
            return error("bad_account", str(exc))
        try:
            with self.pool.place():
                refused = await self._confirm(request, auth, body.old)
                if refused is not None:
                    return refused
                hashed = await self.pool.run(self.passwords.hash, body.new)
        except Busy:
            return _busy()

        def store() -> None:  # every other session of the account ends
            rows.set_hash(self.store, auth.account.id, hashed)
            rows.drop_logins(self.store, auth.account.id, keep=auth.login.digest)

        await anyio.to_thread.run_sync(store)
        return json_response({"ok": True})

    async def _confirm(self, request: Request, auth: Auth, password: str) -> Response | None:
        """None when ``password`` is the account's, else the answer: a stolen session alone
        cannot change the password or delete the account. The session is a known place:
        its own budget (strangers' guesses do not refuse the owner), 429 once spent."""
        key = names.name_key(auth.account.name)
        address = self.guard.client(request.client, request.headers)
        wait = await self._spend(key, address, f"session:{auth.login.digest}")
        if wait > 0:
            return _too_many(wait)
        if not await self.pool.run(self.passwords.verify, auth.account.hash, password):
            return error(*BAD_LOGIN, 401)
        return None

    async def delete(self, request: Request) -> Response:
        auth = await self.authenticate(request)
        if isinstance(auth, Response):
            return auth
        body = await read_body(request, Confirm)
        if isinstance(body, Response):
            return body
        try:
            with self.pool.place():
                refused = await self._confirm(request, auth, body.password)
        except Busy:
            return _busy()
        if refused is not None:
            return refused
        await anyio.to_thread.run_sync(self._delete, auth.account.id)
        for hook in self.on_delete:
            await hook(auth.account.id)
        response = json_response({"ok": True})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
        return response

    def _delete(self, account: int) -> None:
        """Delete now, or, while the account holds a ranked seat, mark it: its sessions end
        and its seat plays the default, and it goes when that game has counted for the
        others (server/ladder/finish.py); its name stays taken until then, so nobody
        re-registers it into a second ranked seat meanwhile."""
        if ranked.seated(self.store, account) is not None:
            rows.mark_deleting(self.store, account)
        else:
            rows.delete(self.store, account, ranked.seats_json_of(self.store, account))


def _too_many(wait: float) -> Response:
    response = error("rate_limited", f"too many attempts; try again in {int(wait) + 1} s", 429)
    response.headers["Retry-After"] = str(int(wait) + 1)
    return response


def _taken() -> Response:
    return error("name_taken", "that name (or one that looks the same) is taken", 409)


def _busy() -> Response:
    """503 ``busy``: the hashing pool and its queue are full (server/accounts/hashing.py)."""
    response = error("busy", "the server is checking many passwords; try again soon", 503)
    response.headers["Retry-After"] = str(RETRY_S)
    return response
