"""`docgen worker --status` counts stalled workers by the rule it lists them by: a worker
silent over the stalled time is stalled, whether or not it holds a job."""

from __future__ import annotations

from docgen.queue.worker import Status, status_lines


def test_the_stalled_count_and_the_list_agree():
    found = Status(
        jobs={"docgen": {"doing": 1, "succeeded": 4}},
        stalled=1,  # the job held by worker 3
        workers=[(1, 0.4, ""), (2, 95.0, ""), (3, 120.0, "17 a.yaml")],
        store_bytes=0,
        store_limit=2**20,
    )
    lines = status_lines(found, stalled_after=60)
    assert "stalled (worker silent over 60 s): 2 worker(s), 1 job(s) to give to another worker" in (
        lines
    )
    listed = [line for line in lines if line.strip().startswith("worker ") and "stalled" in line]
    assert len(listed) == 2
    assert any(line.startswith("  worker 1: alive") for line in lines)
