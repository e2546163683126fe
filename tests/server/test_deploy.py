"""Deployment: the README's start command works, and the Docker files run that same command;
the configuration table documents every setting."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import msgspec

from server.settings import Settings, from_args, from_env

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
SET_UP = "python3 -m pip install -e . && python3 -m server"


def test_the_dockerfile_installs_and_starts_as_the_readme_says() -> None:
    assert SET_UP in README
    dockerfile = (ROOT / "Dockerfile").read_text()
    install, start = SET_UP.split(" && ")
    assert install == "python3 -m pip install -e ."
    assert re.search(r"^RUN python3 -m pip install (--no-cache-dir )?-e \.$", dockerfile, re.M)
    assert start == "python3 -m server"
    assert 'CMD ["python3", "-m", "server"]' in dockerfile
    assert "USER riichi" in dockerfile and "HEALTHCHECK" in dockerfile and "/healthz" in dockerfile
    compose = (ROOT / "docker-compose.yml").read_text()
    assert 'command: ["python3", "-m", "server"]' in compose and "/data" in compose


def test_every_setting_is_in_the_configuration_table() -> None:
    section = README.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    for field in msgspec.structs.fields(Settings):
        assert f"`RIICHI_{field.name.upper()}`" in section, field.name


def test_flags_override_env_which_overrides_defaults() -> None:
    env = {"RIICHI_PORT": "9001", "RIICHI_BASE_S": "2.5", "RIICHI_HOST": "0.0.0.0"}
    assert from_env(env).port == 9001 and from_env(env).base_s == 2.5
    settings = from_args(["--port", "9002", "--data-dir", "/tmp/x"], env)
    assert (settings.host, settings.port, settings.data_dir) == ("0.0.0.0", 9002, "/tmp/x")
    assert from_args([], {}) == Settings()


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
    finally:
        proc.terminate()
        proc.wait(10)
