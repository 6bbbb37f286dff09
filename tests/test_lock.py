"""requirements.lock, what scripts/setup.sh installs (and so `make demo`, `make test` and
CI): every dependency of docgen and of its tests pinned to one version with its hashes,
each pin inside the range pyproject.toml states, and this environment installed from it.
A dependency added to pyproject.toml without `make lock` fails here, not on a newcomer's
machine."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import PackageNotFoundError, version

import pytest
from conftest import ROOT
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

LOCK = ROOT / "requirements.lock"
ENTRY = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+?)(?:\s*;\s*(.+?))?\s*\\?$")


def entries() -> dict[str, tuple[str, Marker | None, list[str]]]:
    """Each pin of the lock: name -> (version, environment marker, hashes)."""
    found: dict[str, tuple[str, Marker | None, list[str]]] = {}
    name = ""
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        match = ENTRY.match(line)
        if match:
            name = canonicalize_name(match[1])
            marker = Marker(match[3]) if match[3] else None
            found[name] = (match[2], marker, [])
        elif line.strip().startswith("--hash=sha256:") and name:
            found[name][2].append(line.strip().removeprefix("--hash=sha256:").rstrip(" \\"))
    return found


def declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [
        Requirement(r) for r in project["dependencies"] + project["optional-dependencies"]["test"]
    ]


def test_every_declared_dependency_is_pinned_inside_its_range():
    pins = entries()
    assert len(pins) > 100, "the lock should hold every transitive dependency too"
    for requirement in declared():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is in pyproject.toml, not in the lock: make lock"
        pinned = pins[name][0]
        assert requirement.specifier.contains(pinned, prereleases=True), (
            f"the lock pins {requirement.name}=={pinned}, outside {requirement}: make lock"
        )


def test_every_pin_has_its_hashes():
    for name, (_version, _marker, hashes) in entries().items():
        assert hashes, f"{name} has no hash in the lock"
        assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes), name


def test_this_environment_is_the_lock():
    """What setup.sh installed is what the lock says (for this platform's markers)."""
    differ = []
    for name, (pinned, marker, _hashes) in entries().items():
        if marker is not None and not marker.evaluate():
            continue
        try:
            have = version(name)
        except PackageNotFoundError:
            differ.append(f"{name}: locked {pinned}, not installed")
            continue
        if have != pinned:
            differ.append(f"{name}: locked {pinned}, installed {have}")
    assert not differ, "run scripts/setup.sh: " + "; ".join(differ)


def test_the_lock_says_how_it_is_made_and_the_makefile_makes_it():
    head = LOCK.read_text(encoding="utf-8").splitlines()[:3]
    assert "#    make lock" in head
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^lock:\n\t\$\(UV\) pip compile pyproject.toml --extra test", makefile, re.M)
    assert "--generate-hashes" in makefile and "--universal" in makefile
    setup = (ROOT / "scripts" / "setup.sh").read_text(encoding="utf-8")
    assert "--require-hashes -r requirements.lock" in setup
    # pip first, from its own lock: the pip a venv starts with refuses the lock's extras
    assert setup.index("-r requirements-pip.lock") < setup.index("-r requirements.lock")
    pip = (ROOT / "requirements-pip.lock").read_text(encoding="utf-8")
    assert re.search(r"^pip==[\d.]+ \\\n    --hash=sha256:[0-9a-f]{64}", pip, re.M)


@pytest.mark.parametrize("bounded", ["uvicorn"])
def test_a_dependency_whose_internals_docgen_uses_is_bounded(bounded):
    (requirement,) = [r for r in declared() if r.name == bounded]
    assert any(s.operator == "<" for s in requirement.specifier), requirement
