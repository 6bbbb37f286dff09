"""Templates compiled once (docgen.render.compiled): a second process takes what the first
compiled from the cache folder, a template edited in place is compiled again, and a folder
that is not private, or a file in it that is not a compiled template, changes nothing a
render prints."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import jinja2
from conftest import SAMPLES

from docgen.render.compiled import CompiledTemplates, cache_folder, private_folder

KIND, CASE = SAMPLES[0]

# What a fresh process compiles while it renders KIND from CASE (with the custom templates
# in argv[2], if given), and the words of the HTML it renders.
RENDER = """
import json, sys
import jinja2
compiled = []
compile_source = jinja2.Environment.compile

def counted(self, source, name=None, filename=None, *args, **kwargs):
    if name is not None:
        compiled.append(name)
    return compile_source(self, source, name, filename, *args, **kwargs)

jinja2.Environment.compile = counted
from docgen import api
from docgen.documents.kind import Options
options = Options(templates=sys.argv[3]) if len(sys.argv) > 3 else Options()
html = api.build(sys.argv[1], sys.argv[2], options).html
print(json.dumps({"compiled": compiled, "html": html}))
"""


# What a fresh process compiles while the documents warm up (every kind's templates, and
# those beside them: the municipal year's chart among them).
WARM = (
    RENDER.split("from docgen import api")[0]
    + """
from docgen.warm import warm_up
warm_up(None, ("html",))
print(json.dumps({"compiled": compiled}))
"""
)
# What a fresh process compiles while the desk makes its year page's template, which
# imports the same chart (swppp/_year_chart.html.j2) under the desk's options.
PAGE = (
    RENDER.split("from docgen import api")[0]
    + """
from docgen.desk.base.web import pages
for name in ("desk/year.html.j2", "swppp/_year_chart.html.j2"):  # as rendering the page does
    pages().get_template(name)
print(json.dumps({"compiled": compiled}))
"""
)


def render_in_a_process(cache: Path, *templates: Path, code: str = RENDER) -> dict:
    env = {**os.environ, "DOCGEN_CACHE": str(cache)}
    args = [sys.executable, "-c", code, KIND, str(CASE), *map(str, templates)]
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def cached_files(cache: Path) -> list[Path]:
    return sorted(cache.glob("templates/*/*.cache"))


def test_a_second_process_compiles_nothing_the_first_compiled(tmp_path):
    first = render_in_a_process(tmp_path / "cache")
    assert first["compiled"], "the first process compiled no template"
    assert len(cached_files(tmp_path / "cache")) == len(set(first["compiled"]))
    second = render_in_a_process(tmp_path / "cache")
    assert second["compiled"] == []
    assert second["html"] == first["html"]


def test_the_desks_pages_are_kept_apart_from_the_documents(tmp_path):
    """The desk's pages are compiled with options of their own: a template file a document
    compiled (the year's chart) is compiled again for the page that imports it, and both
    codes are kept."""
    documents = render_in_a_process(tmp_path / "cache", code=WARM)
    assert "swppp/_year_chart.html.j2" in documents["compiled"]
    kept = len(cached_files(tmp_path / "cache"))
    page = render_in_a_process(tmp_path / "cache", code=PAGE)
    assert {"desk/year.html.j2", "swppp/_year_chart.html.j2"} <= set(page["compiled"])
    assert len(cached_files(tmp_path / "cache")) == kept + len(set(page["compiled"]))
    assert render_in_a_process(tmp_path / "cache", code=PAGE)["compiled"] == []
    assert render_in_a_process(tmp_path / "cache", code=WARM)["compiled"] == []


def test_code_compiled_under_other_settings_is_never_taken(tmp_path, monkeypatch):
    """A changed option (here the whitespace control) compiles the template again, though
    its file and source are the same; the first settings' code is still found after."""
    monkeypatch.setenv("DOCGEN_CACHE", str(tmp_path / "cache"))
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "page.j2").write_text("{% if true %}\n    kept\n{% endif %}\n")
    printed = []
    for trimmed in (False, True, False):
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(tmp_path / "templates")),
            trim_blocks=trimmed,
            lstrip_blocks=trimmed,
            bytecode_cache=CompiledTemplates(),  # a new process's: nothing in memory
        )
        printed.append(env.get_template("page.j2").render())
    assert printed[0] == "\n    kept\n" and printed[1] == "    kept\n"
    assert printed[2] == printed[0]
    assert len(list((tmp_path / "cache").glob("templates/*/*.cache"))) == 2


def test_the_folder_is_the_users_alone(tmp_path):
    render_in_a_process(tmp_path / "cache")
    for folder in [tmp_path / "cache", *(tmp_path / "cache").rglob("*")]:
        if folder.is_dir():
            assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder


def test_a_folder_others_may_write_in_is_not_used(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    assert private_folder(shared) is None
    assert private_folder(shared, "templates") is None
    made = private_folder(tmp_path / "cache", "templates", "plain")
    assert made == tmp_path / "cache" / "templates" / "plain"
    (tmp_path / "cache" / "templates").chmod(0o775)
    assert private_folder(tmp_path / "cache", "templates", "plain") is None
    (tmp_path / "cache" / "templates").chmod(0o700)
    assert private_folder(tmp_path / "cache", "templates", "plain") == made
    (tmp_path / "link").symlink_to(made)
    assert private_folder(tmp_path, "link") is None
    (tmp_path / "a file").write_text("")
    assert private_folder(tmp_path / "a file", "below") is None


def test_a_folder_that_cannot_be_used_leaves_the_render_alone(tmp_path):
    (tmp_path / "a file").write_text("not a folder")
    alone = render_in_a_process(tmp_path / "cache")
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    for cache in (tmp_path / "a file", shared):
        done = render_in_a_process(cache)
        assert done["html"] == alone["html"]
        assert sorted(done["compiled"]) == sorted(alone["compiled"])
    assert list(shared.iterdir()) == []


def test_a_user_with_no_home_folder_renders_without_the_folder(monkeypatch):
    """A service user with neither a home folder nor a folder named (no HOME, no entry in
    the password database): templates are compiled in memory only."""

    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv("DOCGEN_CACHE")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(Path, "home", no_home)
    assert cache_folder() is None
    cache = CompiledTemplates()
    loader = jinja2.DictLoader({"a.j2": "{{ 6 * 7 }}"})
    env = jinja2.Environment(loader=loader, bytecode_cache=cache)
    assert env.get_template("a.j2").render() == "42"
    assert cache.folder is None


def test_a_file_that_is_not_a_compiled_template_is_compiled_over(tmp_path):
    first = render_in_a_process(tmp_path / "cache")
    files = cached_files(tmp_path / "cache")
    for number, path in enumerate(files):
        path.write_bytes(b"" if number % 2 else b"j2 not marshal data" * 3)
    again = render_in_a_process(tmp_path / "cache")
    assert again["html"] == first["html"]
    assert sorted(again["compiled"]) == sorted(first["compiled"])
    assert render_in_a_process(tmp_path / "cache")["compiled"] == []


def test_a_custom_template_edited_in_place_is_compiled_again_in_the_next_process(tmp_path):
    folder = tmp_path / "letterhead"
    (folder / "base").mkdir(parents=True)
    letterhead = folder / "base" / "letterhead.html.j2"
    letterhead.write_text('<header><p class="letterhead-name">Public Works</p></header>')
    assert "Public Works" in render_in_a_process(tmp_path / "cache", folder)["html"]
    letterhead.write_text('<header><p class="letterhead-name">Highways</p></header>')
    later = render_in_a_process(tmp_path / "cache", folder)
    assert later["compiled"] == ["base/letterhead.html.j2"]
    assert "Highways" in later["html"] and "Public Works" not in later["html"]
