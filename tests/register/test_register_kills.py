"""No `.part` file survives: a `docgen issue` killed outright (SIGKILL, as the kernel or a
power cut would) between writing its files' temporaries and renaming them leaves them
behind; the next run into that folder removes those, and only those: never a user's
file that happens to end in .part, never a live process's."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from docgen.register import Register
from tests.helpers.faults import held_at
from tests.helpers.register_cases import notice
from tests.register.test_register_cli import case_file

ROOT = Path(__file__).resolve().parents[2]


def paused_then_killed(tmp_path: Path, *args: object) -> None:
    """``docgen ARGS`` held once its temporaries are written, then sent SIGKILL."""
    proc, _ = held_at("staged", list(args), tmp_path)
    with proc:
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL


def test_temporaries_a_killed_issue_left_are_swept_by_the_next_run(register_url, tmp_path):
    out = tmp_path / "out"
    case = case_file(tmp_path, notice())
    paused_then_killed(
        tmp_path, "issue", "notice-of-violation", case, "-f", "html,pdf", "-o", "out/"
    )
    left = sorted(p.name for p in out.iterdir())
    assert len(left) == 2 and all(n.endswith(".part") and ".docgen-" in n for n in left), left
    with Register.open(register_url) as reg:
        (number,) = [d.number for d in reg.documents()]  # recorded before the kill
    # A user's files that look alike, and a temporary of a process still running (this
    # one), are never touched.
    host = re.search(r"\.docgen-([0-9a-f]{6})-", left[0]).group(1)
    mine = [".notes.txt.part", "draft.part", f".x.pdf.docgen-{host}-{os.getpid()}-abc.part"]
    for name in mine:
        (out / name).write_text("keep me", encoding="utf-8")
    again = subprocess.run(
        [sys.executable, "-m", "docgen.cli", "export", number, "-o", "out/", "-f", "html"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [*mine, f"{number}-notice-of-violation.html"]
    )
    assert all((out / name).read_text(encoding="utf-8") == "keep me" for name in mine)
