"""fontconfig asked in this process: the face a font family resolves to, and whether that
face has a glyph for a character, as ``fc-match FAMILY:style=Regular`` would answer.

Through ctypes, from the library Pango (and so WeasyPrint) already loads, and with its
cache: no font file is read and no program is started (twelve ``fc-match`` processes took
0.13 s of each fresh process's first PDF; asked here, 0.01 s). Faces are kept for the
life of the process.
"""

from __future__ import annotations

import ctypes
from functools import cache

_LIBRARY = "libfontconfig.so.1"
_MATCH_PATTERN = 0  # FcMatchPattern
_RESULT_MATCH = 0  # FcResultMatch


@cache
def _library() -> ctypes.CDLL | None:
    try:
        fc = ctypes.CDLL(_LIBRARY)
    except OSError:
        return None
    pointer, text, number = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    fc.FcNameParse.argtypes, fc.FcNameParse.restype = [text], pointer
    fc.FcConfigSubstitute.argtypes, fc.FcConfigSubstitute.restype = (
        [pointer, pointer, number],
        number,
    )
    fc.FcDefaultSubstitute.argtypes, fc.FcDefaultSubstitute.restype = [pointer], None
    fc.FcFontMatch.argtypes = [pointer, pointer, ctypes.POINTER(number)]
    fc.FcFontMatch.restype = pointer
    fc.FcPatternDestroy.argtypes, fc.FcPatternDestroy.restype = [pointer], None
    fc.FcPatternGetString.argtypes = [pointer, text, number, ctypes.POINTER(text)]
    fc.FcPatternGetString.restype = number
    fc.FcPatternGetCharSet.argtypes = [pointer, text, number, ctypes.POINTER(pointer)]
    fc.FcPatternGetCharSet.restype = number
    fc.FcCharSetHasChar.argtypes, fc.FcCharSetHasChar.restype = [pointer, ctypes.c_uint32], number
    return fc


class Face:
    """The face fontconfig gives a family: its file, and the characters it has."""

    def __init__(self, fc: ctypes.CDLL, match: int, charset: int, file: str) -> None:
        self._fc, self._match, self._charset = fc, match, charset  # the match holds the set
        self.file = file

    def has(self, point: int) -> bool:
        """Whether the face has a glyph for the code point ``point``."""
        return bool(self._fc.FcCharSetHasChar(self._charset, point))


@cache
def face(family: str) -> Face | None:
    """The face fontconfig uses for ``family`` in its regular style; None without
    fontconfig, or when it matches no face with a character set."""
    fc = _library()
    if fc is None:
        return None
    pattern = fc.FcNameParse(f"{family}:style=Regular".encode())
    if not pattern:
        return None
    try:
        fc.FcConfigSubstitute(None, pattern, _MATCH_PATTERN)  # None: the current configuration
        fc.FcDefaultSubstitute(pattern)
        result = ctypes.c_int()
        match = fc.FcFontMatch(None, pattern, ctypes.byref(result))
    finally:
        fc.FcPatternDestroy(pattern)
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
