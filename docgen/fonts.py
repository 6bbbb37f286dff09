"""The installed fonts, asked of fontconfig in this process: the face a font family
resolves to and whether it has a glyph for a character (as ``fc-match FAMILY:style=Regular``
would answer), and whether any font covers a language (as ``fc-list :lang=LANG``).

Through ctypes, from the library Pango (and so WeasyPrint) already loads, and from its
cache: no font file is read and no program is started (a program for each of a
document's twelve families and twelve tagline languages cost a fresh process 0.4 s of
processor). Faces are kept for the life of the process.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

_LIBRARY = "libfontconfig.so.1"
_MATCH_PATTERN = 0  # FcMatchPattern
_RESULT_MATCH = 0  # FcResultMatch


class _FontSet(ctypes.Structure):
    _fields_ = [("nfont", ctypes.c_int), ("sfont", ctypes.c_int), ("fonts", ctypes.c_void_p)]


_P, _TEXT, _INT = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
_SIGNATURES: dict[str, tuple[list[Any], Any]] = {  # name: (arguments, result)
    "FcNameParse": ([_TEXT], _P),
    "FcConfigSubstitute": ([_P, _P, _INT], _INT),
    "FcDefaultSubstitute": ([_P], None),
    "FcFontMatch": ([_P, _P, ctypes.POINTER(_INT)], _P),
    "FcPatternDestroy": ([_P], None),
    "FcPatternGetString": ([_P, _TEXT, _INT, ctypes.POINTER(_TEXT)], _INT),
    "FcPatternGetCharSet": ([_P, _TEXT, _INT, ctypes.POINTER(_P)], _INT),
    "FcCharSetHasChar": ([_P, ctypes.c_uint32], _INT),
    "FcObjectSetCreate": ([], _P),
    "FcObjectSetAdd": ([_P, _TEXT], _INT),
    "FcObjectSetDestroy": ([_P], None),
    "FcFontList": ([_P, _P, _P], ctypes.POINTER(_FontSet)),
    "FcFontSetDestroy": ([ctypes.POINTER(_FontSet)], None),
}


@cache
def _library() -> ctypes.CDLL | None:
    try:
        fc = ctypes.CDLL(_LIBRARY)
    except OSError:
        return None
    for name, (arguments, result) in _SIGNATURES.items():
        function = getattr(fc, name)
        function.argtypes, function.restype = arguments, result
    return fc


class Face:
    """The face fontconfig gives a family: its file, and the characters it has."""

    def __init__(self, fc: ctypes.CDLL, match: int, charset: int, file: str) -> None:
        self._fc, self._match, self._charset = fc, match, charset  # the match holds the set
        self.file = file

    def has(self, point: int) -> bool:
        """Whether the face has a glyph for the code point ``point``."""
        return bool(self._fc.FcCharSetHasChar(self._charset, point))


@contextmanager
def _parsed(name: str) -> Iterator[tuple[ctypes.CDLL, int] | None]:
    """fontconfig and the pattern ``name`` (fontconfig's syntax), destroyed after; None
    without fontconfig or when it cannot parse the name."""
    fc = _library()
    pattern = fc.FcNameParse(name.encode()) if fc is not None else None
    if fc is None or not pattern:
        yield None
        return
    try:
        yield fc, pattern
    finally:
        fc.FcPatternDestroy(pattern)


@cache
def face(family: str) -> Face | None:
    """The face fontconfig uses for ``family`` in its regular style; None without
    fontconfig, or when it matches no face with a character set."""
    with _parsed(f"{family}:style=Regular") as parsed:
        if parsed is None:
            return None
        fc, pattern = parsed
        fc.FcConfigSubstitute(None, pattern, _MATCH_PATTERN)  # None: the current configuration
        fc.FcDefaultSubstitute(pattern)
        result = ctypes.c_int()
        match = fc.FcFontMatch(None, pattern, ctypes.byref(result))
    if not match:
        return None
    file, charset = ctypes.c_char_p(), ctypes.c_void_p()
    if (
        fc.FcPatternGetString(match, b"file", 0, ctypes.byref(file)) != _RESULT_MATCH
        or fc.FcPatternGetCharSet(match, b"charset", 0, ctypes.byref(charset)) != _RESULT_MATCH
        or not file.value
        or not charset.value
    ):
        fc.FcPatternDestroy(match)
        return None
    return Face(fc, match, charset.value, file.value.decode(errors="replace"))


@cache
def covers(lang: str) -> bool:
    """Whether an installed font covers the fontconfig language ``lang`` (``zh-cn``, ``ar``);
    False without fontconfig."""
    with _parsed(f":lang={lang}") as parsed:
        if parsed is None:
            return False
        fc, pattern = parsed
        wanted = fc.FcObjectSetCreate()
        fc.FcObjectSetAdd(wanted, b"family")
        listed = fc.FcFontList(None, pattern, wanted)  # None: the current configuration
        fc.FcObjectSetDestroy(wanted)
    if not listed:
        return False
    count = int(listed.contents.nfont)
    fc.FcFontSetDestroy(listed)
    return count > 0
