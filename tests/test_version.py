"""Versions from release tags (hatch-vcs): a source archive made by ``git archive`` (a
release tarball, GitHub's "Source code") knows the version of its commit from
.git_archival.txt, which git fills in on export (.gitattributes: export-subst), not
"0.0.0+unknown" (pyproject.toml's fallback-version)."""

from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout


def test_a_source_archive_knows_its_version_from_the_release_tag(tmp_path):
    """A copy of the repository (its own tags untouched) tagged as a release: the archive
    of the tagged commit, with no repository beside it, reads as that release."""
    from setuptools_scm import get_version

    clone = tmp_path / "clone"
    git("clone", "--quiet", "--no-hardlinks", str(ROOT), str(clone), cwd=tmp_path)
    git("-c", "user.name=t", "-c", "user.email=t@example.org", "tag", "-a", "v9.8.7",
        "-m", "release", cwd=clone)  # fmt: skip
    archive = subprocess.run(
        ["git", "archive", "--format=tar", "HEAD"], cwd=clone, capture_output=True, check=True
    ).stdout
    unpacked = tmp_path / "source"
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(unpacked, filter="data")
    archival = (unpacked / ".git_archival.txt").read_text(encoding="utf-8")
    assert "$Format" not in archival  # filled in by git on export
    assert f"node: {git('rev-parse', 'HEAD', cwd=clone).strip()}" in archival
    assert not (unpacked / ".git").exists()
    assert get_version(root=str(unpacked)) == "9.8.7"
