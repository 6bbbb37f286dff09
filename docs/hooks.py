"""MkDocs hook: the reference pages written from the code when the site is built, so they
cannot drift from the commands and case models (docgen/reference.py)."""

from __future__ import annotations

from mkdocs.structure.files import File, Files


def on_files(files: Files, config) -> Files:
    from docgen import api, reference
    from docgen.cli import main

    pages = {
        "reference/commands.md": reference.commands_page(main),
        "reference/case-files.md": reference.case_files_page(api.kinds(), api.schema),
    }
    for uri, text in pages.items():
        files.append(File.generated(config, uri, content=text))
    return files
