"""Output never destroys anything: a different file is kept unless forced, only regular
files are written, a set is written whole or not at all, names keep their dots, and
filesystem failures are one-line user errors. Faults are real: a FIFO, a socket, a device
node, a file-size limit, a tiny tmpfs, a closed pipe."""

from __future__ import annotations

import os
import resource
import shutil
import socket
import stat
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import ROOT

from docgen.errors import OutputError, OutputExists
from docgen.render.output import write_files
from tests.helpers import cli
from tests.helpers.tools import unavailable

CASE = ROOT / "fixtures" / "penalty-statement" / "homer-first-offense.yaml"
OTHER = ROOT / "fixtures" / "penalty-statement" / "homer-third-offense.yaml"
CERTS = ROOT / "fixtures" / "contractor-certification" / "homer-three-contractors.yaml"


def docgen(*args, **kw):
    """``docgen ARGS`` as a process of its own, for what only a process shows (a file-size
    limit); the rest run in this process (tests/helpers/cli.py)."""
    return subprocess.run(
        [sys.executable, "-m", "docgen.cli", *map(str, args)], capture_output=True, **kw
    )


def same_number(tmp_path: Path) -> Path:
    """Another case under the first case's document number: a different document, same name."""
    number = next(
        line.split(":", 1)[1].strip()
        for line in CASE.read_text().splitlines()
        if line.startswith("number:")
    )
    text = "\n".join(
        f"number: {number}" if line.startswith("number:") else line
        for line in OTHER.read_text().splitlines()
    )
    path = tmp_path / "other.yaml"
    path.write_text(text + "\n", encoding="utf-8")
    return path


# -- the library rules ---------------------------------------------------------------------


def test_a_different_file_is_kept_unless_forced(tmp_path):
    served = tmp_path / "PS.pdf"
    served.write_bytes(b"served")
    served.chmod(0o444)
    with pytest.raises(OutputExists) as err:
        write_files({served: b"new"})
    assert str(served) in str(err.value)
    assert served.read_bytes() == b"served" and stat.S_IMODE(served.stat().st_mode) == 0o444
    write_files({served: b"new"}, force=True)
    assert served.read_bytes() == b"new"
    assert stat.S_IMODE(served.stat().st_mode) == 0o444  # the replaced file's mode is kept


def test_the_same_bytes_again_touch_nothing(tmp_path):
    served = tmp_path / "PS.pdf"
    served.write_bytes(b"served")
    before = served.stat()
    assert write_files({served: b"served"}) == [served]
    after = served.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_a_refused_set_writes_none_of_its_files(tmp_path):
    (tmp_path / "a.html").write_bytes(b"old")
    with pytest.raises(OutputExists):
        write_files({tmp_path / "a.pdf": b"new", tmp_path / "a.html": b"new"})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.html"]


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _socket(path: Path) -> None:
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    sock.close()


def _device(path: Path) -> None:
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # like /dev/null
    except PermissionError:
        unavailable("mknod needs privileges this machine does not give (CI runs as root)")


def _link_to_fifo(path: Path) -> None:
    _fifo(path.with_name("fifo"))
    path.symlink_to(path.with_name("fifo"))


@pytest.mark.parametrize("make", [_fifo, _socket, _device, _link_to_fifo])
def test_only_regular_files_are_written(tmp_path, make):
    target = tmp_path / "out.html"
    make(target)
    kind = os.lstat(target).st_mode
    for force in (False, True):
        with pytest.raises(OutputError, match="not a regular file"):
            write_files({target: b"x"}, force=force)
    assert os.lstat(target).st_mode == kind


def test_a_directory_in_the_way_keeps_the_old_set_whole(tmp_path):
    old = {tmp_path / f"N.{fmt}": f"old {fmt}".encode() for fmt in ("pdf", "docx")}
    for path, data in old.items():
        path.write_bytes(data)
    (tmp_path / "N.html").mkdir()
    new = {path: b"new" for path in old} | {tmp_path / "N.html": b"new"}
    with pytest.raises(OutputError, match="is a directory"):
        write_files(new, force=True)
    assert {p: p.read_bytes() for p in old} == old
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


# -- faults of the filesystem, through real processes ---------------------------------------

WRITE_SET = """
import sys
from pathlib import Path
from docgen.render.output import write_files
from docgen.errors import OutputError
out = Path(sys.argv[1])
try:
    write_files({out / "N.pdf": b"p" * 4096, out / "N.docx": b"d" * 200_000}, force=True)
except OutputError as err:
    print(err)
    sys.exit(1)
"""


@contextmanager
def small_disk(tmp_path: Path, kilobytes: int):
    """A tmpfs of ``kilobytes`` (None where this machine does not allow mounting one)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        yield None
        return
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kilobytes}k", "tmpfs", mount])
    if made.returncode != 0:
        yield None
        return
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", mount], check=True)


def _limit_file_size(limit: int):
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


WRITE_ONE = """
import os, sys
from pathlib import Path
from docgen.render.output import write_files
write_files({Path(sys.argv[1]): b"new"})
print(oct(os.umask(0o022)))  # the umask the process started with, never changed
"""


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_a_new_file_has_the_mode_its_umask_leaves_and_the_umask_is_never_set(tmp_path, umask, mode):
    target = tmp_path / "N.pdf"
    run = subprocess.run(
        [sys.executable, "-c", WRITE_ONE, target], capture_output=True, text=True, umask=umask
    )
    assert run.returncode == 0, run.stderr
    assert target.read_bytes() == b"new" and stat.S_IMODE(target.stat().st_mode) == mode
    assert run.stdout.strip() == oct(umask)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["N.pdf"]  # no temporary left


def test_disk_full_keeps_the_old_set_whole(tmp_path):
    with small_disk(tmp_path, 64) as disk:
        if disk is None:  # no tmpfs here: a file-size limit fails the same write
            disk, limit = tmp_path / "disk", _limit_file_size(100_000)
        else:
            limit = None
        old = {disk / "N.pdf": b"old pdf", disk / "N.docx": b"old docx"}
        for path, data in old.items():
            path.write_bytes(data)
        run = subprocess.run(
            [sys.executable, "-c", WRITE_SET, disk],
            capture_output=True,
            text=True,
            preexec_fn=limit,
        )
        assert run.returncode == 1, run.stderr
        assert "N.docx" in run.stdout
        assert "No space left on device" in run.stdout or "File too large" in run.stdout
        assert {p: p.read_bytes() for p in old} == old
        assert sorted(p.name for p in disk.iterdir()) == ["N.docx", "N.pdf"]


def test_a_file_size_limit_is_a_one_line_error(tmp_path):
    run = docgen(
        "render", "penalty-statement", CASE, "-f", "pdf", "-o", f"{tmp_path}/",
        text=True, preexec_fn=_limit_file_size(1000),
    )  # fmt: skip
    assert run.returncode == 1
    assert run.stderr.count("\n") == 1 and "File too large" in run.stderr
    assert "internal error" not in run.stderr and str(tmp_path) in run.stderr
    assert list(tmp_path.iterdir()) == []


def test_permission_denied_is_a_one_line_error(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    tmp_path.chmod(0o755)
    # root may write anywhere: run without the capabilities that override permissions
    drop = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"]
    run = subprocess.run(
        [*(drop if os.geteuid() == 0 else []), sys.executable, "-m", "docgen.cli", "render",
         "penalty-statement", CASE, "-f", "html", "-o", f"{locked}/"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert run.returncode == 1, run.stderr
    assert "Permission denied" in run.stderr and str(locked) in run.stderr
    assert "internal error" not in run.stderr and run.stderr.count("\n") == 1


def test_a_parent_that_is_a_file_is_a_one_line_error(tmp_path):
    (tmp_path / "notices").write_text("a file")
    run = cli.docgen("render", "penalty-statement", CASE, "-f", "html", "-o",
                     f"{tmp_path}/notices/sub/")  # fmt: skip
    assert run.returncode == 1
    assert "notices" in run.stderr and "a file is in the way" in run.stderr
    assert "internal error" not in run.stderr and run.stderr.count("\n") == 1


def test_a_closed_pipe_after_writing_is_not_a_failure(tmp_path):
    read, write = os.pipe()
    os.close(read)  # the reader (`| head`) is gone before docgen prints the paths
    run = subprocess.run(
        [sys.executable, "-m", "docgen.cli", "render", "penalty-statement", CASE,
         "-f", "html", "-o", f"{tmp_path}/"],
        stdout=write, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    os.close(write)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    assert [p.suffix for p in tmp_path.iterdir()] == [".html"]


# -- the command line ----------------------------------------------------------------------


def test_a_served_notice_is_not_replaced_by_another_case(tmp_path):
    out = f"{tmp_path}/"
    first = cli.docgen("render", "penalty-statement", CASE, "-f", "pdf", "-o", out)
    assert first.returncode == 0, first.stderr
    served = Path(first.stdout.strip())
    served.chmod(0o444)
    kept = served.read_bytes()
    again = cli.docgen("render", "penalty-statement", CASE, "-f", "pdf", "-o", out)
    assert again.returncode == 0 and served.read_bytes() == kept  # same bytes: no-op
    other = same_number(tmp_path)
    refused = cli.docgen("render", "penalty-statement", other, "-f", "pdf", "-o", out)
    assert refused.returncode == 1 and str(served) in refused.stderr
    assert "--force" in refused.stderr and "Traceback" not in refused.stderr
    assert served.read_bytes() == kept and stat.S_IMODE(served.stat().st_mode) == 0o444
    forced = cli.docgen("render", "penalty-statement", other, "-f", "pdf", "-o", out, "--force")
    assert forced.returncode == 0 and served.read_bytes() != kept


def test_a_device_is_never_replaced(tmp_path):
    for path in (os.devnull, "/proc/self/fd/1"):
        run = docgen("render", "penalty-statement", CASE, "-f", "html", "-o", path, text=True)
        assert run.returncode == 1 and "not a regular file" in run.stderr, path
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    null = tmp_path / "null.html"
    _device(null)
    run = docgen("render", "penalty-statement", CASE, "-f", "html", "-o", null, "--force",
                 text=True)  # fmt: skip
    assert run.returncode == 1 and "not a regular file" in run.stderr
    assert stat.S_ISCHR(os.lstat(null).st_mode)


def test_dash_writes_one_format_to_standard_output(tmp_path):
    run = cli.docgen("render", "penalty-statement", CASE, "-f", "html", "-o", "-", cwd=tmp_path)
    assert run.returncode == 0
    assert run.stdout.startswith("<!DOCTYPE html>") and list(tmp_path.iterdir()) == []
    both = cli.docgen("render", "penalty-statement", CASE, "-o", "-", cwd=tmp_path)
    assert both.returncode == 2 and "one format" in both.stderr


def test_a_name_keeps_its_dots(tmp_path):
    run = cli.docgen("render", "penalty-statement", CASE, "-f", "pdf,html",
                     "-o", tmp_path / "notices" / "PS-2026.0011")  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in (tmp_path / "notices").iterdir()) == [
        "PS-2026.0011.html",
        "PS-2026.0011.pdf",
    ]


@pytest.mark.parametrize(
    "args",
    [
        ("penalty-statement", CASE, "-f", "pdf", "-o", "out.docx"),
        ("penalty-statement", CASE, "-f", "docx,html", "-o", "out.pdf"),
        ("contractor-certification", CERTS, "--split", "-f", "pdf", "-o", "certs.pdf"),
        ("contractor-certification", CERTS, "--split", "-f", "pdf", "-o", "-"),
    ],
    ids=["pdf-as-docx", "formats-without-pdf", "split-to-a-file", "split-to-stdout"],
)
def test_contradictory_output_options_are_usage_errors(tmp_path, args):
    run = cli.docgen("render", *args, cwd=tmp_path)
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr and list(tmp_path.iterdir()) == []


def test_dash_to_a_closed_pipe_is_a_one_line_error(tmp_path):
    read, write = os.pipe()
    os.close(read)  # nothing will read the document
    run = subprocess.run(
        [sys.executable, "-m", "docgen.cli", "render", "penalty-statement", CASE,
         "-f", "html", "-o", "-"],
        stdout=write, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
    )  # fmt: skip
    os.close(write)
    assert run.returncode == 1
    assert run.stderr == "error: standard output: closed before the whole document was written\n"
