"""The contract between the HTML and the Word frame (templates/base/frame.docx).

scripts/build_frame.py builds the frame from these names and ids; the writer maps the
rendered HTML onto them. Change a style here and rebuild the frame (``make frame``).
"""

from __future__ import annotations

FONT = "Times New Roman"

# A paragraph's class -> its Word style (an element with ``data-docx-style`` names its own).
STYLE_FOR_CLASS = {
    "letterhead": "Letterhead",
    "letterhead-name": "Letterhead Name",
    "subtitle": "Subtitle",
    "signature": "Signature",
    "small": "Small",
    "note": "Small",
    "address": "Address",
    "window-line": "Address",
    "statement": "Quote",
    "placard": "Placard",
    "placard-heading": "Placard Heading",
    "clerk-space": "Clerk Space",
    "tagline": "Tagline",
}
HEADING_STYLE = {"h1": "Title", "h2": "Heading 1", "h3": "Heading 2", "h4": "Heading 3"}
LIST_NUMBER, LIST_BULLET, LIST_CONTINUE = "List Number", "List Bullet", "List Continue"
TABLE_TEXT, AFTER_TABLE, RULE = "Table Text", "After Table", "Rule"
# The language-access block on a posted placard: the placard's 14 pt (LAW.md §§ 3, 13).
PLACARD_TAGLINE = "Placard Tagline"
# Every paragraph style the writer may ask the frame for.
STYLE_NAMES = frozenset(
    {
        *STYLE_FOR_CLASS.values(),
        *HEADING_STYLE.values(),
        LIST_NUMBER,
        LIST_BULLET,
        LIST_CONTINUE,
        TABLE_TEXT,
        AFTER_TABLE,
        RULE,
        PLACARD_TAGLINE,
        "Normal",
    }
)

# The frame's abstract numbering definitions: 1. (a) (i) for ordered lists, bullets otherwise.
ABSTRACT_DECIMAL, ABSTRACT_BULLET = 10, 11
LIST_LEVELS = 3

# Letter paper with 1-inch margins, in inches.
PAGE_WIDTH, PAGE_HEIGHT, MARGIN = 8.5, 11.0, 1.0
TEXT_WIDTH_INCHES = PAGE_WIDTH - 2 * MARGIN
