"""Rendering: one Jinja HTML template per document, then HTML, PDF and DOCX from it.

Rendering knows nothing of law; it receives a finished context and wording.
"""

# What a fork server loads once before it forks rendering processes. A batch's: the engines,
# and each worker warms up on the batch's kind (a batch of a few cases would otherwise wait
# for every kind's warm-up). The desk's renderers render any kind for as long as the desk
# runs: their fork server also warms up every kind (docgen.preload), so each renderer, a
# replacement too, starts warm instead of spending a second more on its first document.
ENGINES = ["docgen.api", "weasyprint", "docx", "docxtpl"]
PRELOAD = ["docgen.preload"]
