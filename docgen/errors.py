"""The one error family: every message says where, what, and which provision needs it."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

# A reference to the project's design notes behind a rule ("LAW.md § 3", "LAW.md §§ 3,
# 10", "LAW.md § 2(a)", "LAW.md § 4, reading 11"): for the reader of the code, never for a
# person reading a message, who reads the law's provision or the municipality's practice.
_NOTE = (
    r"LAW\.md ?§§? ?\d+(?: ?\([a-z]\))?(?:(?:, | and )(?:§ ?)?\d+(?:\([a-z]\))?)*"
    r"(?:, reading \d+)?"
)
_NOTES = re.compile(
    rf" ?\({_NOTE}\)"  # "(LAW.md § 3)", whole
    rf"|(?<=\(){_NOTE}(?:: |; )"  # "(LAW.md § 2(a): the document names ...)"
    rf"|(?:[;:,] ?| ){_NOTE}"  # "§ 228-79C(2); LAW.md § 3"
    rf"|^{_NOTE}(?:: |; | )?"  # "LAW.md § 13", alone or leading
)
# The model maintenance agreement's terms are the law's schedule, not a provision.
MODEL_TERM = "model term"


def without_notes(text: str) -> str:
    """``text`` without its references to the design notes ("(§ 228-79C(2); LAW.md § 3)"
    -> "(§ 228-79C(2))"; "is refused (LAW.md § 9)" -> "is refused")."""
    stripped, found = _NOTES.subn("", text)
    return stripped.replace(" ()", "").replace("()", "") if found else text


def cited(provision: str, practice: str = "") -> str:
    """A citation as a person reads it: a law's provision as it is, without the design
    notes; one that cites only the notes (a reading docgen chose) is the municipality's
    ``practice`` ("<the municipality> practice") where the caller knows the municipality,
    else nothing; a term of the model maintenance agreement is said so."""
    if provision == MODEL_TERM:
        return "a term of the model agreement"
    law = without_notes(provision)
    return law if law or not provision else practice


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a case: the field path, what is wrong, the provision behind it.
    Said (``str``) with the provision as a person reads it (:func:`cited`)."""

    field: str
    message: str
    provision: str = ""

    def __str__(self) -> str:
        message = without_notes(self.message)
        text = f"{self.field}: {message}" if self.field else message
        provision = cited(self.provision)
        return f"{text} ({provision})" if provision else text


class DocgenError(Exception):
    """Root of every error docgen reports to a user (exit code 1, no traceback). Said
    (``str``) without the design notes a message's rule was written from: the person reads
    the law's provision (:func:`without_notes`)."""

    def __str__(self) -> str:
        return without_notes(super().__str__())


class CaseFileError(DocgenError):
    """The case file cannot be read or parsed (empty, not YAML/JSON, too large...)."""


class CaseInvalid(DocgenError):
    """The case was read but breaks one or more rules; carries every problem at once.
    ``kind``: the kind of document whose case the problems' fields belong to, where the
    one raising it knows ("" otherwise), so whoever says it to a person names each field
    by that kind's form (docgen.api.in_words)."""

    def __init__(
        self,
        problems: list[Problem],
        source: str = "",
        said: Callable[[Problem], str] = str,
        kind: str = "",
    ):
        self.problems = list(problems)
        self.source = source
        self.kind = kind
        self._said = said
        lines = [said(p) for p in self.problems]
        head = f"{source}: " if source else ""
        count = len(lines)
        super().__init__(
            f"{head}{count} problem{'s' if count != 1 else ''}:\n  " + "\n  ".join(lines)
        )

    def about(self, kind: str) -> CaseInvalid:
        """The same problems, known to be about a case of ``kind``."""
        return CaseInvalid(self.problems, self.source, self._said, kind)


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
