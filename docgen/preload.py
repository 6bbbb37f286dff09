"""What the desk's fork server loads before it forks a renderer: the engines, then every
kind warmed up in PDF and DOCX (docgen.warm), so that each renderer forked from it starts
warm. Only fork servers import this module (docgen.render.PRELOAD names it).

A warning logged on the way (libharfbuzz-subset0 missing) is printed once, here. A warm-up
that fails loses only the head start: the fork server still forks, and each process warms
up on its first document.
"""

from __future__ import annotations

import gc
import logging
import sys

import docx  # noqa: F401  (the engines: loaded here, once for every process forked)
import docxtpl  # noqa: F401
import weasyprint  # noqa: F401

import docgen.api  # noqa: F401  (what the rendering processes' work calls)
from docgen.warm import Heard, warm_up


def _warm_up() -> None:
    logger = logging.getLogger("docgen")
    heard = Heard()
    logger.addHandler(heard)
    try:
        warm_up(None, ("pdf", "docx"))
    except Exception as err:  # only a head start: each document still shows its own fault
        print(f"warning: warm-up failed ({type(err).__name__}: {err})", file=sys.stderr)
    finally:
        logger.removeHandler(heard)
    for message in heard.messages:
        print(f"warning: {message}", file=sys.stderr)
    # What is loaded lives as long as the fork server and its children: kept off the
    # collector, so its pages stay shared with each child instead of copied.
    gc.collect()
    gc.freeze()


_warm_up()
