"""Releases (issue 44): one semantic version, in server/version.py, read by pyproject.toml,
``python -m server --version``, the changelog and the Docker image's labels (/healthz and the
footer: tests/server/routes/test_app.py, tests/client/test_version_footer.py)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from server.version import VERSION

ROOT = Path(__file__).resolve().parents[3]
#: semver 2.0.0's MAJOR.MINOR.PATCH with an optional pre-release
SEMVER = re.compile(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?")


def _key(version: str) -> tuple[int, ...]:
    match = SEMVER.fullmatch(version)
    assert match is not None, version
    return tuple(int(part) for part in match.groups()[:3])


def test_the_version_is_semantic_and_pyproject_reads_it_from_its_one_source() -> None:
    assert SEMVER.fullmatch(VERSION)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "server.version.VERSION"}


def test_python_m_server_version_prints_it_and_starts_nothing(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "server", "--version", "--data-dir", str(tmp_path / "d")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"riichi-server {VERSION}\n"
    assert not (tmp_path / "d").exists()


def test_the_changelog_keeps_a_changelog_and_no_release_is_newer_than_the_code() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    assert text.startswith("# Changelog\n") and "keepachangelog.com" in text
    sections = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", text, re.M)
    assert sections[0] == ("Unreleased", "")
    released = [name for name, _ in sections[1:]]
    assert "0.1.0" in released and all(date for _, date in sections[1:])
    assert [_key(v) for v in released] == sorted((_key(v) for v in released), reverse=True)
    assert _key(released[0]) <= _key(VERSION)
    for heading in re.findall(r"^### (.+)$", text, re.M):
        assert heading in {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def test_the_image_is_labelled_with_the_version_the_build_script_reads() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    runtime = dockerfile[dockerfile.rindex("\nFROM ") :]  # the labels go on the final image
    assert "ARG VERSION" in runtime and "ARG REVISION" in runtime
    assert 'org.opencontainers.image.version="${VERSION}"' in runtime
    assert 'org.opencontainers.image.revision="${REVISION}"' in runtime
    build = (ROOT / "scripts" / "docker-build.sh").read_text()
    assert '--build-arg "VERSION=$VERSION"' in build
    read = re.search(r"^VERSION=\$\(sed -n '(.+)' server/version\.py\)$", build, re.M)
    assert read is not None
    found = subprocess.run(
        ["sed", "-n", read.group(1), "server/version.py"], cwd=ROOT, capture_output=True, text=True
    )
    assert found.stdout.strip() == VERSION
