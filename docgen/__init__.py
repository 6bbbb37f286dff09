"""docgen: stormwater enforcement documents for New York municipalities.

Stages, one package each: ``cases`` (case files to typed models), ``law`` (jurisdiction
packs, penalties, deadlines: pure and cited), ``documents`` (one module per kind: checks
the required elements, builds the template context), ``render`` (HTML, PDF, DOCX).
``docgen.api`` is the library surface; ``docgen.cli`` is a thin shell over it.
"""

from importlib.metadata import PackageNotFoundError, version

try:  # the installed distribution's version: from the repository's tags (hatch-vcs)
    __version__ = version("docgen")
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0.0.0+unknown"
