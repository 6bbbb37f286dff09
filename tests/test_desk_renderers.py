"""The desk's rendering processes: run at a lower priority than the pages; one that dies
(SIGKILL, as the out-of-memory killer sends), runs past its time or past its memory fails
only the request it served and is replaced, in the pool and in a real `docgen serve`."""

from __future__ import annotations

import io
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

import pytest
from desk_server import ROOT, start_desk, start_draft, stop_desk, typed_sample

from docgen.desk.server import renderers
from docgen.documents import DOCUMENTS, get_kind
from docgen.documents.registry import members
from docgen.render import processes
from tests.helpers.cli import python_process
from tests.helpers.procs import ended, renderer_pids, unread_bytes


def niceness() -> renderers.Result:
    return "nice", os.getpriority(os.PRIO_PROCESS, 0)


def pid() -> renderers.Result:
    return "pid", os.getpid()


def killed() -> renderers.Result:
    os.kill(os.getpid(), signal.SIGKILL)
    return "never", None


def sleeping(seconds: float) -> renderers.Result:
    time.sleep(seconds)
    return "slept", seconds


def warmth() -> renderers.Result:
    """What this process has warmed up, the templates it holds compiled (as rendering
    asks for them), whether it holds the fonts' character maps read, and whether it holds
    the register loaded (an issue's modules) before its first issue."""
    from docgen import warm
    from docgen.render import glyphs
    from docgen.render.environment import environment

    compiled = {name for (_, name), _ in environment(None).cache.items()}
    fonts_read = glyphs.coverage.cache_info().currsize > 0
    loaded = {"sqlalchemy.orm", "docgen.register.store", "docgen.signing.keys"} <= set(sys.modules)
    return "warm", (set(warm._warm), compiled, fonts_read, loaded)


def greedy() -> renderers.Result:
    hoard = bytearray(8 * 1024**3)  # 8 GB: past any render's memory limit
    return "held", len(hoard)


@pytest.fixture(scope="module", autouse=True)
def desks_fork_server():
    """The fork server the desk starts (warm, the register loaded: renderers.LOADED). A
    process has one, started with the preload of whatever forks first: a batch run earlier
    in this test process starts it with the engines alone, so it is stopped, and the
    renderers start the desk's."""
    from multiprocessing import forkserver

    renderers.stop()
    forkserver._forkserver._stop()
    forkserver.set_forkserver_preload(list(renderers.LOADED))


@pytest.fixture
def pool():
    renderers.stop()
    renderers.warm()
    yield
    renderers.stop()


def test_renders_run_at_a_lower_priority_than_the_pages(pool):
    seen = {renderers.run(niceness) for _ in range(2 * renderers.RENDERERS)}
    here = os.getpriority(os.PRIO_PROCESS, 0)
    assert seen == {("nice", max(here, renderers.RENDER_NICENESS))}


def test_a_killed_renderer_fails_its_request_alone_and_is_replaced(pool):
    before = {renderers.run(pid)[1] for _ in range(4 * renderers.RENDERERS)}
    with pytest.raises(processes.RendererLost, match="signal 9"):
        renderers.run(killed)
    after = {renderers.run(pid)[1] for _ in range(4 * renderers.RENDERERS)}
    assert len(after) == renderers.RENDERERS and len(after - before) == 1
    assert renderers.healthy()


def test_renderers_start_warm_from_their_fork_server_a_replacement_too(pool):
    every = {(kind, fmt) for kind in DOCUMENTS for fmt in ("pdf", "docx")}
    templates = {m.template for kind in DOCUMENTS for m in members(get_kind(kind))}
    partials = {"base/letterhead.html.j2", "base/macros.html.j2", "notices/_appeal.html.j2"}
    for _ in range(renderers.RENDERERS):
        warmed, compiled, fonts_read, register_loaded = renderers.run(warmth)[1]
        assert warmed == every and fonts_read and register_loaded
        assert templates | partials <= compiled, (templates | partials) - compiled
    with pytest.raises(processes.RendererLost):
        renderers.run(killed)
    assert renderers.run(warmth)[1][0] == every


def test_a_failed_warm_up_is_a_warning_and_the_fork_server_goes_on():
    code = (
        "import docgen.warm\n"
        "def boom(*args): raise RuntimeError('no fonts')\n"
        "docgen.warm.warm_up = boom\n"
        "import docgen.preload\n"
        "print(docgen.warm._warm == set())\n"
    )
    done = python_process(code)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "warning: warm-up failed (RuntimeError: no fonts)\n"
    assert done.stdout == "True\n"


def test_a_render_past_its_time_is_stopped_and_the_next_one_runs(pool, monkeypatch):
    monkeypatch.setenv(processes.SECONDS_ENV, "2")
    started = time.monotonic()
    with pytest.raises(processes.RendererLost, match="longer than 2 seconds"):
        renderers.run(sleeping, 30)
    assert time.monotonic() - started < 15
    # The next render gets the usual time: its replacement renderer starts (imports and
    # all) within it even on a busy machine, where two seconds may not be enough.
    monkeypatch.delenv(processes.SECONDS_ENV)
    assert renderers.run(sleeping, 0) == ("slept", 0)


def test_a_render_past_its_memory_is_refused_and_the_next_one_runs(pool):
    with pytest.raises(processes.RenderTooBig, match="more memory than a render may use"):
        renderers.run(greedy)
    assert renderers.run(niceness)[0] == "nice"


def test_a_dead_renderer_between_requests_is_replaced_before_the_next(pool):
    for _ in range(renderers.RENDERERS):
        dead(renderers.run(pid)[1])
    assert renderers.run(niceness)[0] == "nice"
    assert renderers.healthy()


def dead(process: int) -> None:
    """``process`` killed, and returned once it is dead (reaped by its parent or not)."""
    os.kill(process, signal.SIGKILL)
    assert ended(process, 30), f"process {process} did not die"


def test_a_request_for_a_renderer_killed_unseen_goes_to_its_replacement():
    """Its death reaches the server late (through the fork server, which reaps it): the
    request finds its pipe closed before the work was sent, and its replacement does the
    work; the clerk never sees a 503 for it."""
    from multiprocessing import forkserver

    renderers.stop()
    pool = processes.Pool(1, renderers.START)  # one renderer: the next request goes to the victim
    try:
        victim = pool.run(pid, (), 60)[1]
        server = forkserver._forkserver._forkserver_pid  # slowed: it reaps the victim late
        os.kill(server, signal.SIGSTOP)
        threading.Timer(1.0, os.kill, (server, signal.SIGCONT)).start()
        dead(victim)  # its pipe closed, and it is not reaped: the server has not seen it
        answered = pool.run(pid, (), 60)[1]
        assert answered != victim
    finally:
        pool.stop()


def test_a_renderer_killed_just_before_the_health_check_is_replaced_and_the_desk_healthy(pool):
    """A renderer's death reaches the server through the fork server, which reaps it: on
    a busy machine the health check can come first, find the process still alive and its
    pipe closed. The check then asks its replacement, as the desk can render."""
    from multiprocessing import forkserver

    victim = renderers.run(pid)[1]
    server = forkserver._forkserver._forkserver_pid  # slowed: it reaps the victim late
    os.kill(server, signal.SIGSTOP)
    threading.Timer(1.0, os.kill, (server, signal.SIGCONT)).start()
    os.kill(victim, signal.SIGKILL)
    assert renderers.healthy()
    assert victim not in {renderers.run(pid)[1] for _ in range(4 * renderers.RENDERERS)}


# -- a real desk ---------------------------------------------------------------------------


def wait_for_renderers(server: int) -> list[int]:
    deadline = time.monotonic() + 60
    while len(found := renderer_pids(server)) < renderers.RENDERERS:
        assert time.monotonic() < deadline, found
        time.sleep(0.2)
    return found


def test_the_desk_survives_its_renderers_being_killed_and_leaves_nothing_when_stopped(
    tmp_path, monkeypatch, request
):
    # The desk's temporary folders, looked at after it stops: a short path, as the fork
    # server's socket in it must stay within 107 bytes (pytest's folder for this test
    # is longer than that on a test process of xdist's).
    temp = Path(tempfile.mkdtemp(prefix="desk-tmp-"))
    request.addfinalizer(lambda: shutil.rmtree(temp, ignore_errors=True))
    monkeypatch.setenv("TMPDIR", str(temp))
    desk = start_desk(tmp_path)
    try:
        # the fork server's socket is in one while the desk serves
        assert [p.name for p in temp.iterdir() if p.name.startswith("pymp-")]
        clerk = desk.signed_in("ann")
        _, typed = typed_sample("notice-of-violation", "homer-first-offense")
        where, token = start_draft(clerk, "notice-of-violation")
        assert clerk.post(where, data={**typed, "csrf_token": token}).status_code in (200, 303)
        assert clerk.get(f"{where}/preview").status_code == 200
        first = wait_for_renderers(desk.process.pid)

        # killed while a preview is in them: that preview alone is a 503, try again
        for each in first:
            os.kill(each, signal.SIGSTOP)
        answer = {}
        waiting = threading.Thread(
            target=lambda: answer.update(reply=clerk.get(f"{where}/preview"))
        )
        waiting.start()
        # the preview is in a renderer once its job waits unread in the stopped one's pipe
        deadline = time.monotonic() + 60
        while not any(unread_bytes(each) for each in first):
            assert waiting.is_alive(), "the preview was answered before it reached a renderer"
            assert time.monotonic() < deadline, "the preview never reached a renderer"
            time.sleep(0.02)
        for each in first:
            os.kill(each, signal.SIGKILL)
        waiting.join(timeout=60)
        lost = answer["reply"]
        assert lost.status_code == 503 and lost.headers["retry-after"] == "5"
        assert "Try again in a moment" in lost.text and "Traceback" not in lost.text

        # the pool is whole again: the health check, a preview, an issue
        health = desk.client().get("/healthz")
        assert health.status_code == 200 and health.text.splitlines()[0] == "ok"
        assert clerk.get(f"{where}/preview").status_code == 200
        issued = clerk.post(
            f"{where}/issue", data={"csrf_token": token, "respondent": "new"}, timeout=300
        )
        assert issued.status_code == 303, issued.text
        assert clerk.get(issued.headers["location"]).status_code == 200
        second = wait_for_renderers(desk.process.pid)
        assert not set(first) & set(second)

        # killed while idle: the next request never notices
        for each in second:
            os.kill(each, signal.SIGKILL)
        assert all(ended(each, 60) for each in second), "a killed renderer lives on"
        where, token = start_draft(clerk, "notice-of-violation")
        clerk.post(where, data={**typed, "csrf_token": token})
        assert clerk.get(f"{where}/preview").status_code == 200
        log = (tmp_path / "desk.log").read_text()
        assert "Traceback" not in log and " 500" not in log
    finally:
        stop_desk(desk)
    assert not [p.name for p in temp.iterdir()], "the stopped desk left these behind"


def test_the_health_check_fails_while_a_renderer_does_not_answer(pool, monkeypatch):
    monkeypatch.setattr(renderers, "HEALTH_SECONDS", 2)
    stopped = renderers.run(pid)[1]
    os.kill(stopped, signal.SIGSTOP)
    assert not renderers.healthy()  # the silent one is killed and replaced
    assert not Path(f"/proc/{stopped}").exists()
    assert renderers.healthy()


def test_systemd_hears_ready_then_the_watchdog_from_a_desk_that_renders(tmp_path, monkeypatch):
    """`docgen serve` under the unit's Type=notify and WatchdogSec: READY=1 once /healthz
    answers, then WATCHDOG=1 at half the watchdog's time (here 2 s)."""
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(address)
        listener.settimeout(90)
        monkeypatch.setenv("NOTIFY_SOCKET", address)
        monkeypatch.setenv("WATCHDOG_USEC", "2000000")
        desk = start_desk(tmp_path)
        try:
            heard = [listener.recv(256).decode() for _ in range(3)]
        finally:
            stop_desk(desk)
    assert heard[0].startswith("READY=1") and heard[1:] == ["WATCHDOG=1", "WATCHDOG=1"]


def zip_bomb(inflated: int) -> bytes:
    """A DOCX-looking zip whose word/document.xml inflates to ``inflated`` zero bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("word/document.xml", "w", force_zip64=True) as member:
            chunk = b"\0" * (1 << 24)
            for _ in range(inflated // len(chunk)):
                member.write(chunk)
    return out.getvalue()


def test_a_zip_bomb_final_is_refused_before_a_render_spends_memory_on_it(tmp_path, monkeypatch):
    """Counsel's 'final' that would inflate past a render's memory: refused before it is
    read (a render past its memory is stopped alone: the memory test above), nothing is
    numbered, and the next render runs."""
    from docgen.cases.loader import read_case_file
    from docgen.register import Issue, Register

    renderers.stop()
    monkeypatch.setenv(processes.MEMORY_ENV, "700")
    renderers.warm()
    try:
        url = f"sqlite:///{tmp_path / 'register.sqlite'}"
        case = read_case_file(ROOT / "fixtures" / "maintenance-easement" / "homer-individual.yaml")
        bomb = zip_bomb(1 << 30)
        assert len(bomb) < 8 * 1024 * 1024
        # Counsel's final gate reads the zip's directory first: the bomb is refused unread,
        # before any render's memory is spent on it (docgen/instruments/docx_checks.py).
        tag, said = renderers.run(
            renderers.issue, url, "maintenance-easement", case, Issue(final=bomb), "ada"
        )
        assert tag == "refused" and "refused unread (a zip bomb)" in said
        assert Register.open(url).documents() == []
        assert renderers.run(niceness)[0] == "nice"
    finally:
        renderers.stop()
