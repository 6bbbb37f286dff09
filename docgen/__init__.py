"""docgen: stormwater enforcement documents for New York municipalities.

Stages, one package each: ``cases`` (case files to typed models), ``law`` (jurisdiction
packs, penalties, deadlines: pure and cited), ``documents`` (one module per kind: checks
the required elements, builds the template context), ``render`` (HTML, PDF, DOCX).
``docgen.api`` is the library surface; ``docgen.cli`` is a thin shell over it.
"""

__version__ = "0.1.0"
