"""Custom templates (``--templates DIR``) render in a Jinja sandbox: a municipality's own
letterhead works, and reaching for Python internals fails with a clear DocgenError."""

from __future__ import annotations

import os
import re
from pathlib import Path

import jinja2
import pytest
from conftest import SAMPLE_IDS, SAMPLES

from docgen import api
from docgen.documents import KINDS
from docgen.documents.kind import Options
from docgen.errors import DocgenError, RenderError
from tests.helpers.cli import docgen
from tests.helpers.readback import docx_text, html_text, pdf_text

LETTERHEAD = """<header class="masthead">
<p class="letterhead-name">{{ pack.name.value }}: Department of Public Works</p>
<p class="letterhead">14 Main Street, Homer, New York 13077 · (607) 749-3322</p>
{% if officer_title %}<p class="letterhead">{{ officer_title | upper }}</p>{% endif %}
</header>
"""

ESCAPES = {
    "str mro": "{{ ''.__class__.__mro__ }}",
    "subclasses": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "cycler globals": "{{ cycler.__init__.__globals__ }}",
    "lipsum globals": "{{ lipsum.__globals__['os'] }}",
    "joiner builtins": "{{ joiner.__init__.__globals__.__builtins__ }}",
    "pack class": "{{ pack.__class__.__init__.__globals__ }}",
    "pack dict": "{{ pack.__dict__ }}",
    "argument class": "{{ officer_title.__class__.__base__.__subclasses__() }}",
    "format string": "{{ '{0.__class__.__mro__}'.format('') }}",
    "format_map": "{{ '{x.__class__}'.format_map({'x': 1}) }}",
    "attr filter": "{{ ''|attr('__class__') }}",
    "range globals": "{{ range.__globals__ }}",
    "getattr on namespace": "{% set ns = namespace() %}{{ ns.__class__.__init__.__globals__ }}",
}


def custom(tmp_path, letterhead: str) -> str:
    folder = tmp_path / "letterhead"
    (folder / "base").mkdir(parents=True)
    (folder / "base" / "letterhead.html.j2").write_text(letterhead, encoding="utf-8")
    return str(folder)


@pytest.mark.parametrize("name", sorted(ESCAPES))
def test_python_internals_are_out_of_reach(tmp_path, name):
    kind, path = SAMPLES[0]
    folder = custom(tmp_path, f"<header>{ESCAPES[name]}</header>")
    with pytest.raises(RenderError) as caught:
        api.build(kind, path, Options(templates=folder))
    message = str(caught.value)
    assert "refused by the template sandbox" in message or "has no attribute" in message, message
    assert "base/letterhead.html.j2" in message, message


def test_sandbox_refusal_through_the_cli(tmp_path):
    kind, path = SAMPLES[0]
    folder = custom(tmp_path, "<header>{{ cycler.__init__.__globals__ }}</header>")
    out = tmp_path / "out"
    run = docgen("render", kind, path, "--templates", folder, "-o", f"{out}/")
    assert run.returncode == 1
    assert run.stderr.startswith("error: ") and "sandbox" in run.stderr
    assert "Traceback" not in run.stderr
    assert not out.exists() or not list(out.iterdir())


# The recorded instruments (LAW.md § 8): the County Clerk's space, no letterhead.
FOR_RECORDING = {name for name, kind in KINDS.items() if "recording" in kind.needs}


@pytest.mark.parametrize("kind,path", SAMPLES, ids=SAMPLE_IDS)
def test_a_custom_letterhead_is_used_in_every_format(tmp_path, kind, path):
    builtin = api.build(kind, path)
    if kind in FOR_RECORDING:  # no letterhead at all: the County Clerk's margins and cover
        assert 'class="masthead"' not in builtin.html
        return
    assert 'class="masthead"' in builtin.html
    doc = api.build(kind, path, Options(templates=custom(tmp_path, LETTERHEAD)))
    html = " ".join(html_text(doc.standalone()).split())
    docx = " ".join(docx_text(api.to_bytes(doc, "docx")).split())
    assert "Department of Public Works" in html and "(607) 749-3322" in html
    assert "Department of Public Works" in docx and "(607) 749-3322" in docx
    if (kind, path) == SAMPLES[0]:
        assert "(607) 749-3322" in pdf_text(api.to_bytes(doc, "pdf"))
    assert "Department of Public Works" not in builtin.html


@pytest.mark.parametrize("kind,path", SAMPLES, ids=SAMPLE_IDS)
def test_the_sandbox_renders_the_built_in_templates_unchanged(tmp_path, kind, path):
    """An empty custom folder: every built-in template runs in the sandbox, same words."""
    (tmp_path / "empty").mkdir()
    sandboxed = api.build(kind, path, Options(templates=str(tmp_path / "empty")))
    assert sandboxed.html == api.build(kind, path).html


def test_a_second_folder_compiles_only_its_own_templates(tmp_path, monkeypatch):
    """The built-in templates one folder's sandbox compiled serve every other folder's in
    the process: a second folder compiles its own letterhead and nothing else."""
    kind, path = SAMPLES[0]
    api.build(kind, path, Options(templates=custom(tmp_path / "one", LETTERHEAD)))
    compiled: list[str] = []
    compile_source = jinja2.Environment.compile

    def counted(self, source, name=None, filename=None, *args, **kwargs):
        if name is not None:  # a file's template, not a string's
            compiled.append(name)
        return compile_source(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    highways = LETTERHEAD.replace("Public Works", "Highways")
    doc = api.build(kind, path, Options(templates=custom(tmp_path / "two", highways)))
    assert compiled == ["base/letterhead.html.j2"]
    assert "Department of Highways" in doc.html


def test_a_custom_template_changed_in_place_is_compiled_again(tmp_path):
    kind, path = SAMPLES[0]
    folder = custom(tmp_path, LETTERHEAD)
    assert "Public Works" in api.build(kind, path, Options(templates=folder)).html
    letterhead = Path(folder) / "base" / "letterhead.html.j2"
    letterhead.write_text(LETTERHEAD.replace("Public Works", "Highways"), encoding="utf-8")
    later = letterhead.stat().st_mtime_ns + 2_000_000_000  # past any clock's resolution
    os.utime(letterhead, ns=(later, later))
    html = api.build(kind, path, Options(templates=folder)).html
    assert "Department of Highways" in html and "Public Works" not in html


def test_custom_template_data_is_still_escaped(tmp_path):
    kind, path = SAMPLES[0]
    folder = custom(tmp_path, "<header><p>{{ '<b>&' }}{{ 7*7 }}</p></header>")
    doc = api.build(kind, path, Options(templates=folder))
    assert "&lt;b&gt;&amp;49" in doc.html


def test_a_broken_custom_template_names_file_and_line(tmp_path):
    kind, path = SAMPLES[0]
    folder = custom(tmp_path, "<header>\n{% if %}\n</header>")
    with pytest.raises(DocgenError, match=r"letterhead\.html\.j2:2:"):
        api.build(kind, path, Options(templates=folder))


def test_a_missing_templates_folder_is_a_clear_error(tmp_path):
    kind, path = SAMPLES[0]
    with pytest.raises((DocgenError, FileNotFoundError), match="not a directory"):
        api.build(kind, path, Options(templates=str(tmp_path / "nope")))


BOMBS = {
    "nested loops": (
        "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
        "ran longer than 2 seconds",
    ),
    "huge string": ('{{ "x" * 100000000 }}', "a value of 100,000,000 characters"),
    "huge list": ("{{ ([0] * 10000000) | length }}", "a value of 10,000,000 characters"),
    "huge power": ("{{ 10 ** 100000000 }}", "too large a number"),
    "recursion": ("{% macro r(n) %}{{ r(n + 1) }}{% endmacro %}{{ r(0) }}", "nested over 100"),
    "long output": (  # inside the layout's blocks: whichever limit it meets first
        '{% for i in range(100000) %}{{ "y" * 1000 }}{% endfor %}',
        ("ran longer than 2 seconds", "the output passed 10,000,000 characters"),
    ),
}


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_a_template_that_runs_away_is_stopped_at_its_line(tmp_path, monkeypatch, name):
    from docgen.render import environment

    body, messages = BOMBS[name]
    if "ran longer than 2 seconds" in messages:  # the others meet their own limit first,
        monkeypatch.setattr(environment, "RENDER_SECONDS", 2.0)  # however busy the machine
    kind, path = SAMPLES[0]
    folder = custom(tmp_path, f"<header>\n<p>letterhead</p>\n{body}\n</header>")
    with pytest.raises(RenderError) as caught:
        api.build(kind, path, Options(templates=folder))
    text = str(caught.value)
    assert any(m in text for m in ([messages] if isinstance(messages, str) else messages)), text
    assert re.match(r"\S+\.html\.j2:\d+: refused by the template sandbox", text), text


def test_the_limits_leave_an_ordinary_letterhead_alone(tmp_path, monkeypatch):
    from docgen.render import environment

    monkeypatch.setattr(environment, "MAX_OUTPUT", 1_000_000)
    kind, path = SAMPLES[0]
    folder = custom(tmp_path, LETTERHEAD + "{% for i in range(1000) %}<!-- {{ i }} -->{% endfor %}")
    doc = api.build(kind, path, Options(templates=folder))
    assert "Department of Public Works" in doc.html
