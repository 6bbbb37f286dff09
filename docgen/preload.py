"""What the desk's fork server loads before it forks a renderer: the engines, then every
kind warmed up in PDF and DOCX (docgen.warm), so that each renderer forked from it starts
warm. Only fork servers import this module (docgen.render.PRELOAD names it).

A warning logged on the way (libharfbuzz-subset0 missing) is printed once, here. A warm-up
that fails loses only the head start: the fork server still forks, and each process warms
up on its first document.
"""

from __future__ import annotations

import logging

import docx  # noqa: F401  (the engines: loaded here, once for every process forked)
import docxtpl  # noqa: F401

import docgen.api  # noqa: F401  (what the rendering processes' work calls)
from docgen import library_warnings
from docgen.render.pdf import import_weasyprint
from docgen.warm import head_start

import_weasyprint()

library_warnings.route(logging.WARNING)  # another package's warning: in the desk's log, once

head_start(None, ("pdf", "docx"))
