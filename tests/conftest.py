"""Shared test machinery: every sample case rendered once per session, in every format."""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile
from html import unescape
from pathlib import Path

import pytest

from docgen import api
from docgen.demo import sample_cases
from tests.helpers.counts import pytest_runtest_logreport, pytest_sessionfinish  # noqa: F401
from tests.helpers.shared import made_once, run_folder


def own_folder(variable: str) -> None:
    """``variable`` names an empty folder of this test process's own, removed when it ends,
    unless whoever runs the tests set it. A test process inherits the variables of the one
    that started it (pytest-xdist's workers, the controller's): the marker tells a folder
    inherited that way, which is replaced, from one set on purpose, which is kept."""
    marker = f"DOCGEN_TESTS_{variable}"
    if os.environ.get(variable) and os.environ.get(variable) != os.environ.get(marker):
        return
    folder = tempfile.mkdtemp(prefix=f"{variable.lower().replace('_', '-')}-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.environ[variable] = os.environ[marker] = folder


# A municipality's settings on this machine (docgen.settings) would change what the samples
# print: the tests read an empty settings folder unless a test gives its own.
own_folder("DOCGEN_SETTINGS")
# Nor does a test write to this machine's register: a command run without DOCGEN_HOME uses
# a folder of this test process (so parallel test processes never share one).
own_folder("DOCGEN_HOME")
# Nor to this machine's cache of compiled templates (docgen.render.compiled): the desks and
# commands a test process starts share its folder.
own_folder("DOCGEN_CACHE")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def postgres_server():
    """A PostgreSQL server of the module's own (tests/helpers/pgserver.py), stopped after it."""
    from tests.helpers import pgserver

    pgserver.require()
    with pgserver.postgres() as server:
        yield server


@pytest.fixture(scope="session")
def shared_desk(tmp_path_factory):
    """One desk per test process (tests/desk_server.py), for the modules whose tests each
    make their own drafts and documents and look only at those: starting a desk costs
    two seconds of the processor. A module that counts the register's contents, issues a
    sample another module issues (the second issue would return the first document),
    imports a history, changes the desk's users or settings, or floods it starts its own
    (``serving``)."""
    from desk_server import serving

    yield from serving(tmp_path_factory)


@pytest.fixture
def soffice() -> str:
    """LibreOffice, for a test that needs it: on a workstation without it the test is
    skipped, in CI it fails (tests/helpers/tools.py)."""
    from tests.helpers.office import soffice as program

    return program()


@pytest.fixture(scope="session")
def chromium_browser():
    """One headless Chromium per test process (tests/desk_browser.py): each module that
    launched its own cost a Playwright driver and about a second and a quarter of the
    processor. Modules ask for it as ``browser``."""
    from desk_browser import chromium

    yield from chromium()


@pytest.fixture(scope="module")
def browser(chromium_browser):
    """The test process's Chromium, for one module. Tests share nothing else through it:
    each opens its own context (cookies, storage) or page, and what the module leaves open
    is closed after it (a page of a desk that has stopped holds memory for nothing)."""
    yield chromium_browser
    for context in chromium_browser.contexts:
        context.close()


@pytest.fixture(scope="session")
def checkout_wheel(tmp_path_factory):
    """This checkout's release wheel (make dist), built once per test process for the
    upgrade and deployment-guide tests."""
    from tests.helpers.wheels import built

    return built(ROOT, tmp_path_factory.mktemp("wheel"))


LAW_TEXT = Path(__file__).parent / "law_text"
SAMPLES = sample_cases()
SAMPLE_IDS = [f"{kind}/{path.stem}" for kind, path in SAMPLES]


def running_head(html: str) -> str:
    found = re.search(r'<body[^>]*data-running-head="([^"]*)"', html)
    return unescape(found.group(1)) if found else ""


class Rendered(dict):
    """One sample's renders, each made when first asked for: 'doc', 'html', 'pdf', 'docx'.
    Given a ``shared`` folder, its PDF and DOCX are made once in the run, by whichever test
    process asks first (tests/helpers/shared.py), and read by the others."""

    def __init__(self, *, doc, shared: Path | None = None) -> None:
        super().__init__(doc=doc)
        self.shared = shared

    def __missing__(self, fmt: str):
        doc = self["doc"]
        if fmt == "html":
            self[fmt] = doc.standalone()
        elif self.shared is None:
            self[fmt] = api.to_bytes(doc, fmt)
        else:
            shared = self.shared.parent / f"{self.shared.name}.{fmt}"
            self[fmt] = made_once(shared, lambda: api.to_bytes(doc, fmt))
        return self[fmt]


class Renders:
    """Cache of rendered samples for the session: kind/path -> Rendered, their PDF and DOCX
    shared by the run's test processes through ``folder``."""

    def __init__(self, folder: Path) -> None:
        self._cache: dict[tuple[str, str], Rendered] = {}
        self.folder = folder

    def get(self, kind: str, path: Path) -> Rendered:
        key = (kind, str(path))
        if key not in self._cache:
            shared = self.folder / f"{kind}--{path.stem}"
            self._cache[key] = Rendered(doc=api.build(kind, path), shared=shared)
        return self._cache[key]


@pytest.fixture(scope="session")
def renders(tmp_path_factory) -> Renders:
    folder = run_folder(tmp_path_factory) / "samples-rendered"
    folder.mkdir(exist_ok=True)
    return Renders(folder)


def write_case(tmp_path: Path, text: str, name: str = "case.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# `make test` runs in three processes, each taking whole modules in the order collected. A
# module that takes a minute, collected last, would leave one process working alone at the
# end: the longest modules (measured on a fresh clone) go first. This orders, never selects.
LONGEST_FIRST = (
    "test_deploy_guide.py",
    "test_desk_slow_clients.py",
    "jobqueue/test_queue_desk.py",
    "test_conformance.py",
    "jobqueue/test_queue_faults.py",
    "test_properties.py",
    "test_desk_swppp.py",
    "test_desk_browser.py",
    "test_batch_faults.py",
    "test_desk_phone.py",
    "register/test_register_one_served_date.py",
    "register/test_register_upgrade_wheel.py",
    "test_desk_findings_browser.py",
    "jobqueue/test_queue_reports.py",
    "test_desk_concurrency.py",
    "jobqueue/test_queue_desk_browser.py",
    "test_desk_renderers.py",
    "test_lint.py",
    "test_desk_day.py",
    "register/test_register_leavers.py",
    "register/test_register_finals.py",
    "test_custom_templates.py",
    "test_determinism.py",
    "test_batch.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        module = item.path.relative_to(ROOT / "tests").as_posix()
        return LONGEST_FIRST.index(module) if module in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: every module's tests keep their order
