"""The desk on the queue: Issue answers at once with the rendering page; the page asks
(htmx) until a worker has issued the draft, then opens its document. A second press is
the same job."""

from __future__ import annotations

from desk_server import start_desk, start_draft, stop_desk, typed_sample

from tests.jobqueue.conftest import sql, wait_for


def test_the_desk_issues_through_the_queue(queue_url, machines, tmp_path, monkeypatch):
    monkeypatch.setenv("DOCGEN_DESK_QUEUE", "docgen")
    (tmp_path / "desk").mkdir()
    desk = start_desk(tmp_path / "desk", queue_url)
    try:
        clerk = desk.signed_in("ann")
        where, token = start_draft(clerk, "notice-of-violation")
        _, typed = typed_sample("notice-of-violation", "homer-deadline-thanksgiving")
        clerk.post(where, data={**typed, "csrf_token": token})
        for _ in range(2):  # pressed twice: one job
            pressed = clerk.post(f"{where}/issue", data={"csrf_token": token})
            assert pressed.status_code == 303
            assert pressed.headers["location"] == f"{where}/issuing"
        waiting = clerk.get(f"{where}/issuing")
        assert waiting.status_code == 200
        assert "Rendering" in waiting.text and 'hx-trigger="every 1s"' in waiting.text
        assert clerk.get(f"{where}/issuing", headers={"HX-Request": "true"}).status_code == 204
        assert sql(queue_url, "SELECT count(*) FROM procrastinate_jobs") == [(1,)]
        machines(queue_url, "renderer")
        wait_for(
            lambda: (
                clerk.get(f"{where}/issuing", headers={"HX-Request": "true"}).headers.get(
                    "HX-Redirect"
                )
                == f"{where}/issuing"
            ),
            what="the document issued",
        )
        answer = clerk.get(f"{where}/issuing")
        assert answer.status_code == 303
        document = answer.headers["location"]
        assert document.startswith("/documents/NOV-")
        pdf = clerk.get(f"{document}/file.pdf")
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
        assert clerk.get(f"{where}/issuing").headers["location"] == document  # issued once
        numbers = sql(queue_url, "SELECT number FROM public.documents")
        assert numbers == [(document.rsplit("/", 1)[1],)]
    finally:
        stop_desk(desk)
