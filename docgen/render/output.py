"""Writing outputs: safe file names, atomic writes (temp file, then rename)."""

from __future__ import annotations

import os
import re
import tempfile
import unicodedata
from pathlib import Path

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def safe_name(text: str, fallback: str = "document", limit: int = 80) -> str:
    """A file name from case data: no separators, no '..', no control characters."""
    folded = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode()
    name = _UNSAFE.sub("-", folded).strip("-._")
    name = re.sub(r"-{2,}", "-", name)
    name = re.sub(r"\.{2,}", ".", name)[:limit].strip("-._")
    return name or fallback


def atomic_write(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` so that a reader sees the old file or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _file_mode())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_all(files: dict[Path, bytes]) -> list[Path]:
    """Write every file, or none: if one write fails, the ones already written are removed."""
    written: list[Path] = []
    try:
        for path, data in files.items():
            written.append(atomic_write(path, data))
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        raise
    return written
