"""Accounts' core: names, argon2id hashes, the login budget and session tokens."""

from __future__ import annotations

import statistics
import time

import pytest
from argon2 import PasswordHasher
from argon2.low_level import Type

from server.accounts.budget import Bucket, LoginBudget
from server.accounts.names import NameRefused, check_name, name_key
from server.accounts.passwords import PasswordRefused, Passwords
from server.accounts.sessions import csrf_ok, digest, issue, valid

#: argon2id, cheap enough for tests but with real work to time (8 MiB, 2 passes)
TEST_HASHER = PasswordHasher(time_cost=2, memory_cost=8192, parallelism=1)


@pytest.mark.parametrize("name", ["Taro", "天鳳 太郎", "Nguyễn", "x" * 16, "a.b_c-d"])
def test_good_names(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(
    "name",
    [
        "",
        " Taro",
        "Taro ",
        "a  b",
        "a\tb",
        "a\u200bb",
        "a\u202eb",
        "x" * 17,
        "x\u0301\u0302\u0303",
        "Guest",
        "ＡＤＭＩＮ",
    ],
)
def test_bad_names(name: str) -> None:
    with pytest.raises(NameRefused):
        check_name(name)


def test_look_alike_names_share_a_key() -> None:
    assert name_key("Taro") == name_key("TARO") == name_key("Ｔａｒｏ")
    assert name_key("Taro") != name_key("Tar0")
    assert check_name("Cafe\u0301") == "Caf\u00e9"  # NFC: one form stored


def test_hash_is_argon2id_and_verifies() -> None:
    pw = Passwords(TEST_HASHER)
    stored = pw.hash("correct horse")
    assert stored.startswith("$argon2id$")
    assert TEST_HASHER.type is Type.ID
    assert pw.verify(stored, "correct horse")
    assert not pw.verify(stored, "correct horsf")
    assert not pw.verify("not a hash", "correct horse")
    assert not pw.verify(None, "correct horse")
    assert pw.hash("correct horse") != stored  # salted
    assert Passwords(PasswordHasher(time_cost=3, memory_cost=8192, parallelism=1)).needs_rehash(
        stored
    )
    for bad in ("short", "x" * 257):
        with pytest.raises(PasswordRefused):
            pw.hash(bad)
    at_bound = "y" * 256
    kept = pw.hash(at_bound)
    assert pw.verify(kept, at_bound)
    assert not pw.verify(kept, at_bound + "z" * 10_000)  # cut to the bound, never a match


def test_unknown_name_costs_what_a_wrong_password_costs() -> None:
    """The dummy hash has the real parameters, so an unknown name does the same argon2 work
    (timing on a shared machine: medians of many runs, a wide margin)."""
    pw = Passwords(TEST_HASHER)
    stored = pw.hash("correct horse")
    assert pw.dummy.split("$")[:4] == stored.split("$")[:4]  # same algorithm and parameters

    # taken in turn, so both medians see the same moments of a shared machine's load (one
    # after the other, a fresh-clone run's busy second measured 14.5 against 6.9 ms)
    times: dict[str | None, list[float]] = {None: [], stored: []}
    for _ in range(15):
        for stored_hash, taken in times.items():
            t = time.perf_counter()
            assert not pw.verify(stored_hash, "wrong password")
            taken.append(time.perf_counter() - t)
    unknown, wrong = statistics.median(times[None]), statistics.median(times[stored])
    cheap = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    floor = statistics.median(
        [_timed(lambda: cheap.hash("x")) for _ in range(15)]
    )  # what skipping the work would cost
    assert 0.5 < unknown / wrong < 2.0, (unknown, wrong)
    assert unknown > 5 * floor, (unknown, floor)


def _timed(fn: object) -> float:
    t = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - t


def test_budget_per_account_and_per_address() -> None:
    budget = LoginBudget(account=Bucket(3, 1 / 60), address=Bucket(5, 1 / 10))
    assert all(budget.attempt("taro", "1.1.1.1", now=0) for _ in range(3))
    assert not budget.attempt("taro", "2.2.2.2", now=0)  # another address, same account
    assert budget.retry_after("taro", "2.2.2.2", now=0) == pytest.approx(60)
    assert budget.attempt("hanako", "1.1.1.1", now=0)
    assert budget.attempt("jiro", "1.1.1.1", now=0)
    assert not budget.attempt("saburo", "1.1.1.1", now=0)  # the address ran dry
    assert not budget.attempt("saburo", "1.1.1.1", now=5)
    assert budget.attempt("saburo", "1.1.1.1", now=10)  # one token back after 10 s
    assert budget.attempt("taro", "3.3.3.3", now=60)
    # refusals spend nothing: hammering does not push the owner's next try further away
    for t in range(61, 120):
        assert not budget.attempt("taro", "9.9.9.9", now=t)
    assert budget.attempt("taro", "3.3.3.3", now=120)


def test_budget_tables_stay_bounded() -> None:
    budget = LoginBudget(account=Bucket(2, 1), address=Bucket(2, 1), limit=50)
    for i in range(1000):
        budget.attempt(f"user{i}", f"10.0.{i // 256}.{i % 256}", now=i * 0.001)
    assert len(budget.accounts.levels) <= 50 and len(budget.addresses.levels) <= 50
    # the newest keys are the ones kept: the last attempt's bucket is still spent
    assert budget.accounts.tokens("user999", now=0.999) < 2


def test_sessions_store_only_the_digest() -> None:
    token, session = issue(7, now=100.0, ttl=3600)
    assert token not in repr(session)
    assert session.digest == digest(token) and len(session.digest) == 64
    assert valid(session, token, now=200.0)
    assert not valid(session, token, now=3700.0)  # expired
    assert not valid(session, token[:-1] + ("A" if token[-1] != "A" else "B"), now=200.0)
    assert not valid(None, token, now=200.0)
    again, other = issue(7, now=200.0, ttl=3600)
    assert again != token and other.csrf != session.csrf  # rotated at every login
    assert csrf_ok(session, session.csrf) and not csrf_ok(session, other.csrf)
    assert len(token) >= 43  # 32 random bytes
