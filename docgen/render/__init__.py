"""Rendering: one Jinja HTML template per document, then HTML, PDF and DOCX from it.

Rendering knows nothing of law; it receives a finished context and wording.
"""

# What a rendering process loads before its first document (a second or more): a process
# that forks renderers (the desk's, a batch's workers) preloads them once in its fork server.
ENGINES = ["docgen.api", "weasyprint", "docx", "docxtpl"]
