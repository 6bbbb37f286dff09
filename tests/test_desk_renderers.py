"""The desk's rendering processes yield the processor to the server's pages: they run at a
lower priority (a nice value) than the process that answers the clerks."""

from __future__ import annotations

import os

from docgen.desk import renderers


def niceness() -> renderers.Result:
    return "nice", os.getpriority(os.PRIO_PROCESS, 0)


def test_renders_run_at_a_lower_priority_than_the_pages():
    try:
        renderers.warm()  # warm() runs the start-up again: the value is set, not added
        seen = {renderers.run(niceness) for _ in range(2 * renderers.RENDERERS)}
    finally:
        renderers.stop()
    here = os.getpriority(os.PRIO_PROCESS, 0)
    assert seen == {("nice", max(here, renderers.RENDER_NICENESS))}
