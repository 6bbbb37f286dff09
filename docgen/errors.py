"""The one error family: every message says where, what, and which provision needs it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a case: the field path, what is wrong, the provision behind it."""

    field: str
    message: str
    provision: str = ""

    def __str__(self) -> str:
        text = f"{self.field}: {self.message}" if self.field else self.message
        return f"{text} ({self.provision})" if self.provision else text


class DocgenError(Exception):
    """Root of every error docgen reports to a user (exit code 1, no traceback)."""


class CaseFileError(DocgenError):
    """The case file cannot be read or parsed (empty, not YAML/JSON, too large...)."""


class CaseInvalid(DocgenError):
    """The case was read but breaks one or more rules; carries every problem at once."""

    def __init__(
        self, problems: list[Problem], source: str = "", said: Callable[[Problem], str] = str
    ):
        self.problems = list(problems)
        self.source = source
        lines = [said(p) for p in self.problems]
        head = f"{source}: " if source else ""
        count = len(lines)
        super().__init__(
            f"{head}{count} problem{'s' if count != 1 else ''}:\n  " + "\n  ".join(lines)
        )


class UnsupportedKind(DocgenError):
    """The jurisdiction's article has no provision for this kind of document."""


class RenderError(DocgenError):
    """A template or engine failed on a valid case (a defect in docgen or a custom template)."""


class OutputError(DocgenError):
    """A file cannot be written: the message names the path and the cause (exit code 1)."""


class OutputExists(OutputError):
    """The path holds a different file; it is replaced only when the caller forces it."""

    def __init__(self, path: object):
        self.path = path
        super().__init__(
            f"{path}: a different file is already there; it was kept "
            "(--force replaces it, e.g. after correcting a notice not yet served)"
        )


class Unanswered(DocgenError):
    """A question docgen could not answer because what holds the answer could not be
    reached or read: ``docgen verify`` whose register is unreachable (exit code 3, so a
    script never takes "could not check" for "not issued")."""


class OutputUsage(DocgenError):
    """The output options contradict each other (the CLI's usage error, exit code 2)."""


class OptionUnsupported(OutputUsage):
    """An option the kind or bundle cannot honour (``--split`` on a packet, ``--layout
    placard`` on a notice): a usage error (exit code 2), never silently ignored."""
