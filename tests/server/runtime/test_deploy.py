"""Deployment: the README's start command works, and the Docker files run that same command;
the configuration table documents every setting."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import httpx
import msgspec
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from server.app import _packaged_static
from server.settings import LOOPBACK_HOSTS, Settings, from_args, from_env

ROOT = Path(__file__).resolve().parents[3]
README = (ROOT / "README.md").read_text()
SET_UP = "python3 -m pip install -e . && python3 -m server"


def test_the_dockerfile_installs_the_locked_wheel_and_starts_the_readme_server() -> None:
    """The image's facts that a glance at the files can check (scripts/docker-smoke.sh builds
    and plays it for real): pinned base, hash-checked lock, non-editable, non-root, health."""
    assert SET_UP in README
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^ARG BASE=python:3\.\d+-slim-[a-z]+$", dockerfile, re.M)
    # the wheel is built where mypyc has a C compiler, and only a compiled engine passes
    assert re.search(r"^ARG BUILD_BASE=python:3\.\d+-[a-z]+$", dockerfile, re.M)
    assert 'assert not n.REASON, n.REASON"' in dockerfile
    assert "--require-hashes" in dockerfile and "-r requirements.lock" in dockerfile
    assert " -e " not in dockerfile and "--editable" not in dockerfile
    assert "compileall" in dockerfile
    assert "USER 10001:10001" in dockerfile and 'VOLUME ["/data"]' in dockerfile
    assert 'CMD ["python3", "-m", "server", "--healthcheck"]' in dockerfile
    assert dockerfile.rstrip().endswith('CMD ["python3", "-m", "server"]')
    compose = (ROOT / "docker-compose.yml").read_text()
    assert 'command: ["python3", "-m", "server"]' in compose and "records:/data" in compose
    assert '- "127.0.0.1:${RIICHI_PUBLISH_PORT:-8000}:8000"' in compose
    assert "read_only: true" in compose


def test_the_build_context_is_only_what_the_image_installs() -> None:
    lines = (ROOT / ".dockerignore").read_text().split("\n")
    kept = {line[1:].rstrip("/") for line in lines if line.startswith("!")}
    assert next(line for line in lines if line and not line.startswith("#")) == "*"
    copied = set(re.findall(r"^COPY (?!--from)(.+) \S+$", (ROOT / "Dockerfile").read_text(), re.M))
    assert {name for line in copied for name in line.split()} == kept


def _pins(lock: str) -> dict[str, Version]:
    found = re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", (ROOT / lock).read_text(), re.M)
    return {canonicalize_name(name): Version(version) for name, version in found}


def test_the_locks_pin_every_dependency_within_the_pyproject_bounds() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for lock, wanted in (
        ("requirements.lock", project["project"]["dependencies"]),
        ("requirements-build.lock", project["build-system"]["requires"]),
    ):
        pins = _pins(lock)
        for line in wanted:
            requirement = Requirement(line)
            name = canonicalize_name(requirement.name)
            assert name in pins, (lock, name)
            assert requirement.specifier.contains(pins[name]), (lock, line, pins[name])
    # uvicorn before 0.35 has no ws="websockets-sansio", which python -m server asks for
    assert "uvicorn>=0.35" in project["project"]["dependencies"]


def test_the_browser_client_is_found_in_a_checkout() -> None:
    assert _packaged_static() == ROOT / "static"
    setup = (ROOT / "setup.py").read_text()
    assert 'package_dir={"server.static": "static"}' in setup


def test_every_setting_is_in_the_configuration_table() -> None:
    section = README.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    for field in msgspec.structs.fields(Settings):
        assert f"`RIICHI_{field.name.upper()}`" in section, field.name


def test_flags_override_env_which_overrides_defaults() -> None:
    env = {"RIICHI_PORT": "9001", "RIICHI_BASE_S": "2.5", "RIICHI_HOST": "0.0.0.0"}
    assert from_env(env).port == 9001 and from_env(env).base_s == 2.5
    settings = from_args(["--port", "9002", "--data-dir", "/tmp/x"], env)
    assert (settings.host, settings.port, settings.data_dir) == ("0.0.0.0", 9002, "/tmp/x")
    # the one difference: a start on loopback serves only this machine's names (issue 43)
    assert from_args([], {}) == Settings(allowed_hosts=LOOPBACK_HOSTS)
    assert from_args(["--host", "0.0.0.0"], {}).allowed_hosts == "*"
    assert from_args([], {"RIICHI_ALLOWED_HOSTS": "a.example"}).allowed_hosts == "a.example"


def test_every_flag_of_python_m_server_says_what_it_does_and_its_variable() -> None:
    env = {"PATH": "/usr/bin:/bin", "COLUMNS": "1000"}  # one line per flag, unwrapped
    out = subprocess.run(
        [sys.executable, "-m", "server", "--help"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    flags = re.findall(r"^  (--[a-z-]+)(?: [A-Z_]+)? +(.*)$", out, re.M)
    assert {f for f, _ in flags} >= {"--host", "--port", "--data-dir", "--redis", "--healthcheck"}
    for flag, text in flags:
        if flag != "--help":
            assert re.search(r"\(.*RIICHI_[A-Z_]+\)$", text), (flag, text)
            assert len(text.split()) >= 4, (flag, text)


def test_python_m_server_starts_on_embedded_defaults(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port), "--data-dir", str(tmp_path / "d")],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except httpx.TransportError:
                assert proc.poll() is None, "the server exited"
                assert time.monotonic() < deadline, "the server did not answer in 30 s"
                time.sleep(0.1)
        assert response.json() == {"ok": True}
        grant = httpx.post(f"http://127.0.0.1:{port}/api/rooms", json={"bots": 3}).json()
        assert grant["room"]["status"] == "playing"
        assert (tmp_path / "d" / "records.sqlite3").exists()
        assert _healthcheck(port) == 0
    finally:
        proc.terminate()
        proc.wait(10)


def _healthcheck(port: int) -> int:
    command = [sys.executable, "-m", "server", "--healthcheck", "--port", str(port)]
    return subprocess.run(command, cwd=ROOT, timeout=30).returncode


def test_the_health_check_fails_where_no_server_answers() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert _healthcheck(port) == 1


def test_an_unwritable_data_dir_is_one_clear_line_and_exit_73(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    data_dir = str(tmp_path / "file" / "d")  # under a plain file: no uid can create it
    command = [sys.executable, "-m", "server", "--port", "0", "--data-dir", data_dir]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 73
    assert "cannot write the records to the data dir" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 2


def test_ci_runs_the_readme_tests_and_then_the_docker_smoke_test() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    test_command = "python3 -m pip install -q -e '.[test,rl]' && python3 -m pytest"
    assert "python3 -m pip install -e '.[test,rl]' && python3 -m pytest" in README
    assert ci.index(test_command) < ci.index("\nscripts/docker-smoke.sh\n")
    assert "docker.io" in ci and "debootstrap" in ci


def test_the_readme_docker_command_is_the_one_the_smoke_test_runs() -> None:
    """The README's one Docker command builds the image, then compose starts it (Debian's
    docker.io has no compose plugin; its docker-compose 1.29 cannot build this Dockerfile);
    scripts/docker-smoke.sh runs that same pair, and the scale profile."""
    assert "scripts/docker-build.sh && docker-compose up" in README
    smoke = (ROOT / "scripts" / "docker-smoke.sh").read_text()
    assert "scripts/docker-build.sh | tail -n 1\n    compose up -d" in smoke
    assert "compose --profile scale up -d node-a node-b" in smoke
    assert "COMPOSE=(docker-compose)" in smoke
    assert "websockets" not in smoke.replace("without the websockets package", "")
    ci = (ROOT / ".ci" / "run").read_text()
    assert "missing+=(docker-compose)" in ci
