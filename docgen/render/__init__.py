"""Rendering: one Jinja HTML template per document, then HTML, PDF and DOCX from it.

Rendering knows nothing of law; it receives a finished context and wording.
"""
