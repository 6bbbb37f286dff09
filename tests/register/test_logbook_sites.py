"""A log book is opened at the site the officer names (issue 52 item 2), on SQLite and
PostgreSQL: a number that is a site's number is that site (``docgen logbook 1 --open``
made a new site whose address was "1"); a number no site has, an address several sites
have, or part of a site's address is refused, the sites listed with their numbers; the
log book is then found by the site's number as by its address."""

from __future__ import annotations

from sqlalchemy import select

from docgen.register import Issue
from docgen.register.sites.logbook import logbook
from docgen.register.storage.models import Document, LogSite, Site
from tests.helpers.cli import docgen
from tests.helpers.register_cases import notice

STREET = {"street": "120 Cayuga Street", "city": "Homer", "state": "NY", "zip": "13077"}
ADDRESS = "120 Cayuga Street, Homer, NY 13077"
OPEN = ("--open", "--jurisdiction", "homer", "--started", "2026-10-01")


def site_of_notice(reg, site: dict) -> int:
    """The register's number of the site of a notice issued at ``site``."""
    data = notice()
    data["site"] = site
    number = reg.issue(
        "notice-of-violation", data, Issue(respondent="new"), formats=("html",)
    ).number
    with reg.engine.connect() as conn:
        return conn.execute(select(Document.site_id).where(Document.number == number)).scalar()


def sites(reg) -> list[tuple[int, str | None]]:
    with reg.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(select(Site.id, Site.address).order_by(Site.id))]


def opened(reg) -> list[int]:
    with reg.engine.connect() as conn:
        return list(conn.execute(select(LogSite.site_id)).scalars())


def test_a_site_named_by_its_number_is_that_site(reg):
    number = site_of_notice(reg, {"address": STREET})
    run = docgen("logbook", number, *OPEN)
    assert run.returncode == 0, run.stderr
    assert f"site {number}: {ADDRESS} (homer), work started 2026-10-01" in run.stdout
    assert sites(reg) == [(number, ADDRESS)] and opened(reg) == [number]
    assert logbook(reg, str(number)).site == logbook(reg, "120 Cayuga").site == ADDRESS
    assert f"site {number}: {ADDRESS}" in docgen("logbook", number).stdout


def test_a_number_that_is_no_sites_is_refused(reg):
    site_of_notice(reg, {"address": STREET})
    before = sites(reg)
    run = docgen("logbook", 7, *OPEN)
    assert run.returncode != 0
    assert "site 7: no such site in this register" in run.stderr
    assert sites(reg) == before and opened(reg) == []


def test_an_address_several_sites_have_is_refused_listing_each(reg):
    first = site_of_notice(reg, {"address": STREET})
    second = site_of_notice(reg, {"address": STREET, "description": "Lot 2 of the subdivision"})
    for named in (ADDRESS, "120 cayuga street"):
        run = docgen("logbook", named, *OPEN)
        assert run.returncode != 0, named
        assert f"site {first}: {ADDRESS};" in run.stderr
        assert f"site {second}: {ADDRESS}; Lot 2 of the subdivision" in run.stderr
        assert "by its number" in run.stderr and opened(reg) == []
    assert docgen("logbook", second, *OPEN).returncode == 0
    assert opened(reg) == [second] and len(sites(reg)) == 2
    assert logbook(reg, "Lot 2").number == second


def test_a_new_site_is_named_by_its_address(reg):
    site_of_notice(reg, {"address": STREET})
    run = docgen("logbook", "Lot 4, Clinton Street", *OPEN)
    assert run.returncode == 0, run.stderr
    [number] = [s[0] for s in sites(reg) if s[1] == "Lot 4, Clinton Street"]
    assert opened(reg) == [number] and f"site {number}: Lot 4, Clinton Street" in run.stdout
