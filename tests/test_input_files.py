"""Only regular files are read: devices, FIFOs, sockets and looping links are refused at
once (never read until memory runs out, never waited on), and a batch names each one it
skipped."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from docgen.batch.inputs import collect
from docgen.cases.loader import read_case_file, read_regular
from docgen.errors import CaseFileError
from tests.conftest import ROOT

SAMPLE = ROOT / "fixtures" / "notice-of-violation" / "homer-first-offense.yaml"


def docgen(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "docgen.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,  # a FIFO read would hang: the test fails instead of waiting forever
        check=False,
    )


@pytest.fixture
def odd_files(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    sock_path = tmp_path / "sock.yaml"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(sock_path))
    yield {"FIFO": fifo, "loops": loop, "socket": sock_path, "character device": Path("/dev/zero")}
    sock.close()


def test_read_regular_refuses_what_is_not_a_file_before_reading(odd_files):
    for what, path in odd_files.items():
        with pytest.raises(CaseFileError, match=what):
            read_regular(path, 1024)


def test_reads_stop_at_the_limit_as_they_go(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: b\n" * 300)
    with pytest.raises(CaseFileError, match="over the"):
        read_regular(big, 1000)
    assert read_regular(big, 1500) == b"a: b\n" * 300


def test_a_case_that_is_a_device_or_fifo_is_one_line_not_a_hang(odd_files, tmp_path):
    with pytest.raises(CaseFileError, match="is a character device, not a file"):
        read_case_file("/dev/zero")
    for path in (odd_files["FIFO"], Path("/dev/zero")):
        run = docgen("render", "notice-of-violation", str(path), "-o", "out/", cwd=tmp_path)
        assert run.returncode == 1
        assert "not a file" in run.stderr and "Traceback" not in run.stderr


def test_a_batch_lists_every_input_it_skipped_and_why(odd_files, tmp_path):
    folder = odd_files["FIFO"].parent
    (folder / "good.yaml").write_bytes(SAMPLE.read_bytes())
    inputs = collect([folder, odd_files["character device"]])
    errors = {Path(c.source).name: c.error for c in inputs if c.error}
    assert [c.source for c in inputs if not c.error] == [str(folder / "good.yaml")]
    assert "is a FIFO (named pipe), not a file" in errors["pipe.yaml"]
    assert "is a symbolic link that loops" in errors["loop.yaml"]
    assert "is a socket" in errors["sock.yaml"]
    assert "is a character device" in errors["zero"]
    run = docgen("batch", "notice-of-violation", str(folder), "-o", "out/", "-j", "1", cwd=tmp_path)
    assert run.returncode == 1
    for name in ("pipe.yaml", "loop.yaml", "sock.yaml"):
        assert name in run.stdout + run.stderr


def test_verify_refuses_a_device_at_once(tmp_path):
    run = docgen("verify", "/dev/zero", cwd=tmp_path)
    assert run.returncode == 1 and "is a character device, not a file" in run.stderr
