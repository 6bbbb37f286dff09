"""Writing outputs without destroying anything: the rules every writer of documents follows.

- A name made from case data is safe on every system (``safe_name``).
- Only regular files are written: a device, pipe, socket or directory at the path (or a
  symbolic link to one) is refused, never replaced.
- An existing file with different bytes is kept unless the caller forces the write
  (``OutputExists``); the same bytes again is a no-op success.
- A set of files is written whole or not at all (``write_files``): every new file goes to
  a temporary beside its target first; only when all are written are they swapped in, and
  a failure during the swap puts back the files already swapped.
- A new file has the mode any program's new file has (0666 as the process's umask leaves
  it: the system applies the umask, docgen never reads or sets it); a replaced file keeps
  its own.
- Filesystem failures (permission, disk full, size limit, a parent that is a file) are
  ``OutputError``: one line naming the path and the cause.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import secrets
import shutil
import socket
import stat
import sys
import unicodedata
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path

from docgen.errors import OutputError, OutputExists
from docgen.faults import pause

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")

# Names Windows reserves for devices, with or without an extension ("NUL", "com1.pdf").
_RESERVED = re.compile(r"^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)", re.IGNORECASE)


def safe_name(text: str, fallback: str = "document", limit: int = 80) -> str:
    """A file name from case data: no separators, no '..', no control characters, and
    never a name Windows reserves for a device (``NUL`` becomes ``NUL_``)."""
    folded = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode()
    name = _UNSAFE.sub("-", folded).strip("-._")
    name = re.sub(r"-{2,}", "-", name)
    name = re.sub(r"\.{2,}", ".", name)[:limit].strip("-._")
    if _RESERVED.match(name):
        stem, dot, rest = name.partition(".")
        name = f"{stem}_{dot}{rest}"[:limit]
    return name or fallback


def _cannot(path: Path | str, err: OSError, doing: str = "cannot write") -> OutputError:
    cause = err.strerror or str(err)
    if err.errno == errno.EEXIST or err.errno == errno.ENOTDIR:
        cause = "a file is in the way where a folder is needed"
    return OutputError(f"{err.filename or path}: {doing}: {cause}")


def existing_bytes(path: Path) -> bytes | None:
    """What ``path`` holds now, if it is a regular file (or a link to one); None if nothing.

    Anything else at the path (a directory, device, pipe or socket, directly or through a
    symbolic link) is an OutputError: docgen writes regular files only.
    """
    try:
        info = path.stat()  # follows a symbolic link: /proc/self/fd/1 may be a pipe
    except FileNotFoundError:
        return None  # nothing there, or a dangling link (the link itself is replaced)
    except OSError as err:
        raise _cannot(path, err) from None
    if stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{path}: is a directory; a document is written as a file")
    if not stat.S_ISREG(info.st_mode):
        raise OutputError(
            f"{path}: is a device, pipe or socket, not a regular file; docgen writes only "
            "regular files (use -o - for standard output)"
        )
    try:
        return path.read_bytes()
    except OSError as err:
        raise _cannot(path, err, "cannot read the file already there") from None


def pending_writes(files: Mapping[Path, bytes], force: bool = False) -> dict[Path, bytes]:
    """The files of ``files`` that must be written: identical ones are left out, and a
    different file already at a path is OutputExists unless ``force``."""
    pending: dict[Path, bytes] = {}
    for path, data in files.items():
        current = existing_bytes(path)
        if current == data:
            continue
        if current is not None and not force:
            raise OutputExists(path)
        pending[path] = data
    return pending


def make_folder(folder: Path) -> Path:
    """``folder`` and its parents, or an OutputError naming the part in the way."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise _cannot(folder, err) from None
    return folder


# The temporaries docgen stages beside a target are named for it and for the process
# writing them: ".NAME.docgen-HOST-PID-RANDOM.part", and the backup of a file being
# replaced ".NAME.docgen-HOST-PID.old" (HOST: a short hash of the machine's name). A
# process killed outright (SIGKILL, a power cut) leaves them behind; the next write into
# that folder removes those of this machine whose process is gone. Nothing else is ever
# removed: not a user's file, not another machine's, not a live process's.
_HOST = hashlib.sha256(socket.gethostname().encode("utf-8", "replace")).hexdigest()[:6]
_OURS = re.compile(r"^\..+\.docgen-([0-9a-f]{6})-([0-9]+)(?:-[a-z0-9_]+\.part|\.old)$")
_SWEPT: set[str] = set()  # folders already swept by this process


def _marker() -> str:
    return f"docgen-{_HOST}-{os.getpid()}"


# A new temporary is made, never opened: O_EXCL refuses a name already there (a link
# planted in its place included), and the descriptor is not inherited by a child process.
_NEW = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC


def staging_file(target: Path, mode: int = 0o600, named: set[str] | None = None) -> tuple[int, str]:
    """A new temporary beside ``target``, named as ours (see above), open for writing,
    after the folder's stale temporaries are swept: (descriptor, path), as
    ``tempfile.mkstemp``; an OSError if the folder refuses. It is made with ``mode`` as the
    process's umask leaves it (the system applies the umask: docgen never sets it). Its
    path is put in ``named`` before it is made, so that a caller interrupted at any step
    after (Ctrl-C lands between any two) knows what to remove."""
    sweep_stale(target.parent)
    stem = os.path.join(os.path.abspath(target.parent), f".{target.name[:120]}.{_marker()}-")
    for _ in range(100):
        path = f"{stem}{secrets.token_hex(4)}.part"
        if named is not None:
            named.add(path)
        try:
            return os.open(path, _NEW, mode), path
        except FileExistsError:
            if named is not None:
                named.discard(path)  # not ours
            continue
    raise FileExistsError(errno.EEXIST, "no free name for a temporary file", stem)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # alive, and someone else's
    return True


def sweep_stale(folder: Path) -> list[str]:
    """Remove from ``folder`` the temporaries that docgen processes of this machine, now
    gone, left there (once per folder and process); the names removed."""
    key = os.path.abspath(folder)
    if key in _SWEPT:
        return []
    _SWEPT.add(key)
    removed = []
    with suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            found = _OURS.match(entry.name)
            if found is None or found.group(1) != _HOST or _alive(int(found.group(2))):
                continue
            with suppress(OSError):
                if entry.is_file(follow_symlinks=False):
                    os.unlink(entry.path)
                    removed.append(entry.name)
    return removed


def _stage(path: Path, data: bytes, named: set[str]) -> Path:
    """``data`` in a temporary file beside ``path``, flushed to disk, with the final mode
    (its path put in ``named`` before it is made)."""
    make_folder(path.parent)
    try:
        kept: int | None = stat.S_IMODE(path.stat().st_mode)  # a replaced file keeps its mode
    except OSError:
        kept = None  # a new file: 0666 as the umask leaves it, as any program's new file
    try:
        fd, tmp = staging_file(path, 0o600 if kept is not None else 0o666, named)
    except OSError as err:
        raise _cannot(path.parent, err) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if kept is not None:
            os.chmod(tmp, kept)
    except BaseException as err:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise _cannot(path, err) from None
        raise
    return Path(tmp)


def _swap(staged: dict[Path, Path]) -> None:
    """Move every staged file onto its target; on failure, put back what was replaced."""
    done: list[tuple[Path, Path | None]] = []  # (target, backup of the old file or None)
    try:
        for target, tmp in staged.items():
            backup: Path | None = None
            if os.path.lexists(target):
                backup = target.with_name(f".{target.name[:120]}.{_marker()}.old")
                try:
                    os.link(target, backup, follow_symlinks=False)
                except OSError:  # a filesystem without hard links: keep a copy instead
                    shutil.copy2(target, backup, follow_symlinks=False)
            done.append((target, backup))
            os.replace(tmp, target)
    except BaseException as err:
        for target, backup in reversed(done):
            with suppress(OSError):
                if backup is not None:
                    os.replace(backup, target)
                else:
                    target.unlink(missing_ok=True)
        for tmp in staged.values():
            tmp.unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise _cannot(target, err) from None
        raise
    finally:
        for _, backup in done:
            if backup is not None:
                backup.unlink(missing_ok=True)


def write_files(files: Mapping[Path, bytes], force: bool = False) -> list[Path]:
    """Write a set of files whole or not at all, following the module's rules.

    Returns every path of ``files`` (those already holding the same bytes included).
    Raises OutputExists (a different file is there and ``force`` is false) or OutputError
    (the path is not a regular file, or the filesystem refused); either way every file
    that was there before is still there, unchanged, and no temporary is left.
    """
    pending = pending_writes(files, force)
    named: set[str] = set()  # each temporary's path, put here before it is made
    try:
        staged = {path: _stage(path, data, named) for path, data in pending.items()}
        if staged:
            pause("staged")
        _swap(staged)
    except BaseException:
        # A KeyboardInterrupt (Ctrl-C; SIGTERM in a batch) may land between any two steps,
        # even before a temporary's path reached ``staged``: every one named is removed.
        # Those moved onto their targets are gone from their names already.
        for tmp in named:
            with suppress(OSError):
                os.unlink(tmp)
        raise
    return list(files)


def atomic_write(path: Path, data: bytes) -> Path:
    """Replace ``path`` with ``data`` (a reader sees the old file or the whole new one).

    For files docgen owns outright, such as a batch manifest; documents go through
    ``write_files``, which never replaces a different file unless forced.
    """
    write_files({path: data}, force=True)
    return path


STDOUT = "-"


def write_stdout(data: bytes) -> None:
    """One document to standard output (``-o -``); a reader that stops early is an error,
    and so is a standard output closed before docgen started (``>&-``)."""
    if sys.stdout is None:
        raise OutputError(
            "standard output: closed (docgen was started without one); nothing was "
            "written: give a file or folder with -o instead of -"
        )
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        # nothing more can reach the reader: point stdout at nothing so the exit is quiet
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise OutputError("standard output: closed before the whole document was written") from None
