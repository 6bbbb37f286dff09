"""Rendering: one Jinja HTML template per document, then HTML, PDF and DOCX from it.

Rendering knows nothing of law; it receives a finished context and wording.
"""

# What a process that forks renderers (the desk's, a batch's workers) has its fork server
# load once: the engines, warmed up on every kind (docgen.preload), so each renderer forked
# from it starts warm instead of spending a second or more on its first document.
PRELOAD = ["docgen.preload"]
