"""Numbers read from the environment (docgen.environ): the register's lock timeout and the
queue's settings read one way, and a bad value names the variable, its range and default."""

from __future__ import annotations

import pytest

from docgen.environ import number
from docgen.errors import DocgenError
from docgen.queue.app import QueueError, Settings


@pytest.mark.parametrize(
    ("raw", "read"), [("", 30.0), ("  ", 30.0), ("2.5", 2.5), (" 0.1 ", 0.1), ("3600", 3600.0)]
)
def test_a_number_in_its_range_or_unset_is_read(monkeypatch, raw, read):
    monkeypatch.setenv("DOCGEN_TEST_SECONDS", raw)
    assert number("DOCGEN_TEST_SECONDS", 30.0, 0.1, 3600, unit="seconds") == read


@pytest.mark.parametrize("raw", ["soon", "0", "-1", "3601", "nan", "inf", "-inf", "1e400"])
def test_anything_else_is_an_error_naming_the_variable_its_range_and_default(monkeypatch, raw):
    monkeypatch.setenv("DOCGEN_TEST_SECONDS", raw)
    with pytest.raises(DocgenError) as err:
        number("DOCGEN_TEST_SECONDS", 30.0, 0.1, 3600, unit="seconds")
    assert str(err.value) == (
        f"DOCGEN_TEST_SECONDS={raw!r} is not a number of seconds from 0.1 to 3600 (unset: 30)"
    )


def test_the_queues_settings_refuse_an_endless_store_instead_of_overflowing(monkeypatch):
    """``inf`` was read as a number at least 0, then overflowed turning megabytes into bytes."""
    monkeypatch.setenv("DOCGEN_QUEUE_STORE_MB", "inf")
    with pytest.raises(QueueError, match=r"DOCGEN_QUEUE_STORE_MB='inf' is not a number of MB"):
        Settings.from_env()
    monkeypatch.setenv("DOCGEN_QUEUE_STORE_MB", "0.5")
    assert Settings.from_env().store_bytes == 2**19
