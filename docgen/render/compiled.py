"""Templates compiled once, not in every process: Jinja's compiled code for each template,
kept in memory and in a private folder on this machine's disk.

Compiling the built-in templates takes about 0.5 s of processor (every kind's, as the
desk's rendering processes warm up; the desk's own pages as much again) and about 0.1 s of
a single ``docgen render``. A process finds a template here by its name and file and the
settings it is compiled with, and takes it only while its source is unchanged (Jinja's
checksum of it): a template edited in place, or an environment's option changed, is
compiled again.

The folder: ``DOCGEN_CACHE``, else ``$XDG_CACHE_HOME/docgen``, else ``~/.cache/docgen``
(the service's: /var/cache/docgen, docs/deploy/docgen.service), one subfolder per version
of docgen, Jinja and Python. It is used only while it and each folder in it are this
user's alone (made 0700, owned by the user, writable by nobody else): code is loaded from
it. A folder that cannot be made or is not private, a file that cannot be read or written,
and a file that is not a compiled template are all the same to a render: the template is
compiled as it would be without the folder, and nothing is said.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
import threading
from collections import OrderedDict
from functools import cached_property
from pathlib import Path
from typing import Any

import jinja2
from jinja2.bccache import Bucket, BytecodeCache

import docgen
from docgen.errors import OutputError
from docgen.render.output import atomic_write

MAX_IN_MEMORY = 2_000  # templates; the documents' and the desk's pages are about 120


def cache_folder() -> Path | None:
    """docgen's cache folder on this machine (not made here); None for a user with no
    home folder and none named."""
    named = os.environ.get("DOCGEN_CACHE", "").strip()
    if named:
        return Path(named)
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    if xdg:
        return Path(xdg) / "docgen"
    try:
        return Path.home() / ".cache" / "docgen"
    except (RuntimeError, KeyError):  # no HOME, and no entry in the password database
        return None


def private_folder(root: Path, *names: str) -> Path | None:
    """``root/names...``, each folder made 0700 where missing, when every one of them is this
    user's alone (no link, owned by the user, no one else may write in it): no one else can
    put a file in it, or a folder of theirs in its place. None otherwise."""
    folders = [root]
    for name in names:
        folders.append(folders[-1] / name)
    for folder in folders:
        try:
            folder.mkdir(mode=0o700, parents=folder == root, exist_ok=True)
            found = os.lstat(folder)
        except OSError:
            return None
        alone = (
            stat.S_ISDIR(found.st_mode)
            and found.st_uid == os.getuid()
            and not found.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
        )
        if not alone:
            return None
    return folders[-1]


def compiled_with(env: jinja2.Environment) -> str:
    """What an environment's compiled code depends on besides the template's source: its
    class (a sandbox intercepts operators), its syntax and whitespace options, its
    extensions and their plain policies, and the names of its filters and tests (checked
    as a template is compiled). Code compiled under other settings is never taken."""
    escape = env.autoescape if isinstance(env.autoescape, bool) else "by name"
    policies = sorted(
        (name, value)
        for name, value in env.policies.items()
        if isinstance(value, str | bool | int | float | type(None))
    )
    return repr(
        (
            type(env).__module__,
            type(env).__qualname__,
            env.block_start_string,
            env.block_end_string,
            env.variable_start_string,
            env.variable_end_string,
            env.comment_start_string,
            env.comment_end_string,
            env.line_statement_prefix,
            env.line_comment_prefix,
            env.trim_blocks,
            env.lstrip_blocks,
            env.newline_sequence,
            env.keep_trailing_newline,
            env.optimized,
            env.finalize is not None,
            env.is_async,
            escape,
            sorted(env.extensions),
            policies,
            sorted(env.filters),
            sorted(env.tests),
            sorted(getattr(env, "intercepted_binops", ())),
            sorted(getattr(env, "intercepted_unops", ())),
        )
    )


class CompiledTemplates(BytecodeCache):
    """Compiled templates in memory (bounded, the least recently used dropped past
    ``MAX_IN_MEMORY``) and, where a private folder is found, on disk. One serves every
    environment (the documents', a custom folder's sandbox, the desk's pages): a code is
    found by its template and by the settings it was compiled with (:meth:`get_bucket`)."""

    def __init__(self) -> None:
        self._codes: OrderedDict[str, tuple[str, Any]] = OrderedDict()
        self._codes_lock = threading.Lock()  # the desk's pages are made on several threads

    @cached_property
    def folder(self) -> Path | None:
        """The private folder of this version's compiled templates, looked for once."""
        root = cache_folder()
        python = sys.implementation.cache_tag
        version = f"{docgen.__version__}-jinja{jinja2.__version__}-{python}"
        return None if root is None else private_folder(root, "templates", version)

    def get_bucket(
        self, environment: jinja2.Environment, name: str, filename: str | None, source: str
    ) -> Bucket:
        """The template's bucket, found by its name and file and by what the environment
        compiles it with (:func:`compiled_with`)."""
        key = hashlib.sha1(
            f"{name}|{filename}|{compiled_with(environment)}".encode(), usedforsecurity=False
        ).hexdigest()
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        with self._codes_lock:
            found = self._codes.get(bucket.key)
            if found is not None and found[0] == bucket.checksum:
                self._codes.move_to_end(bucket.key)
                bucket.code = found[1]
                return
        folder = self.folder
        if folder is None:
            return
        try:
            bucket.bytecode_from_string((folder / f"{bucket.key}.cache").read_bytes())
        except (OSError, EOFError, ValueError, TypeError):  # what marshal and pickle raise
            bucket.reset()
        if bucket.code is not None:
            self._keep(bucket)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._keep(bucket)
        folder = self.folder
        if folder is None:
            return
        # whole or not at all; a killed writer's temporary is cleared by the next write
        with contextlib.suppress(OutputError):
            atomic_write(folder / f"{bucket.key}.cache", bucket.bytecode_to_string())

    def _keep(self, bucket: Bucket) -> None:
        with self._codes_lock:
            self._codes[bucket.key] = (bucket.checksum, bucket.code)
            self._codes.move_to_end(bucket.key)
            while len(self._codes) > MAX_IN_MEMORY:
                self._codes.popitem(last=False)


COMPILED = CompiledTemplates()
