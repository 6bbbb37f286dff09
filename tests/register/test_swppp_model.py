"""A model of a SWPPP's review (LAW.md § 15): Hypothesis drives the register through
random sequences of reviews, amendments, approvals and returns of one site's plan, in
Homer or Macedon, and checks the rules after every step.

Rules, each refused by the register when broken, and checked against the model:

1. Never an approval with an item open (§ 228-77D(4): the SWPPP is approved "if it
   complies"): an approval of a review with an item missing or not adequate is refused,
   nothing recorded; an approval issued holds no open item.
2. An amendment's review never reopens an item it does not change (§ 228-78B(1)(b); LAW.md
   § 15): a finding typed for such an item is refused; every unchanged item's finding is
   the one of the last review of the revision amended, carried.
3. A return letter only with an item open; one decision per review; no review of an
   approved or an amended revision; nothing dated after today.
4. A fee only for a recorded service (§ 228-79D: fees "for review of SWPPPs, inspections";
   LAW.md § 15): every line of every statement of fees is a review or an inspection of the
   site the register held when it was made (same date, same kind), never a superseded
   report nor another site's, each at the schedule's rate; the total is the sum of the
   lines; a statement with no service (or in Macedon, whose law has no fees provision) is
   refused; a payment above the balance is refused, and what is paid never exceeds the
   total.
"""

from __future__ import annotations

import copy
from datetime import date, timedelta
from decimal import Decimal
from itertools import count
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from docgen.errors import DocgenError
from docgen.law.packs import load_pack
from docgen.register import Issue, Register
from docgen.register.matter.inspections import record_inspection_case
from docgen.register.plans import fees as fee_register
from docgen.register.plans.swppp import OPEN, add_plan, last_review, record_review
from docgen.register.rules.rows import document_row
from docgen.register.sites.invitations import add_site, today_in
from docgen.register.storage import db
from tests.helpers.inspection_cases import INSPECTION
from tests.register.conftest import fresh_postgres, fresh_sqlite

FINDING = st.sampled_from(["present", "present", "present", "missing", "inadequate"])
SETTINGS: dict[str, Any] = {
    "deadline": None,
    "phases": [Phase.explicit, Phase.reuse, Phase.generate],
    "derandomize": True,
    "suppress_health_check": list(HealthCheck),
}
WHERE = "Lot 7, a site in the model"
OFFICER = {"name": "Dana R. Whitcomb", "title": "Code Enforcement Officer"}
SCHEDULE = (
    "fee_schedule:\n"
    "  adopted: adopted by the Board of Trustees, resolution 2026-14, January 12, 2026\n"
    "  swppp_review: 150.00\n"
    "  inspection: 75.00\n"
)
RATE = {"review": Decimal("150.00"), "inspection": Decimal("75.00")}


class PlanModel(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.reg = Register.open(type(self).url_for())
        self.revision = 0

    @classmethod
    def url_for(cls) -> str:
        raise NotImplementedError

    def teardown(self) -> None:
        self.reg.close()

    @initialize(jurisdiction=st.sampled_from(["homer", "macedon"]))
    def received(self, jurisdiction: str) -> None:
        self.j = jurisdiction
        self.items = load_pack(jurisdiction).part("swppp").items
        self.today = today_in(jurisdiction)
        where = {"description": WHERE}
        self.site = add_site(self.reg.engine, jurisdiction, {"name": "Model"}, where, None, "m")
        self.plan = self._add(None, None)
        self.day = self.today - timedelta(days=30)
        self.findings: dict[str, str] | None = None  # the current plan's last review
        self.before: dict[str, str] | None = None  # the last review of the revision amended
        self.decided: str | None = None
        self.approved = False
        self.wanted: list[str] | None = None  # the items the current revision changes
        self.reviews: list[date] = []  # the day of each review of the site's plans
        self.inspections: dict[str, date] = {}  # each live report of the site: its day
        self.statements: dict[str, dict[str, Any]] = {}  # number: lines held, total, paid
        if jurisdiction == "homer":  # one inspection of the site to begin with
            day = self.today - timedelta(days=20)
            self.inspections[self._inspection(day, True)] = day

    def _add(self, amends: int | None, changes: list[str] | None) -> int:
        self.revision += 1
        return add_plan(
            self.reg.engine,
            self.site,
            title="Model SWPPP",
            revision=str(self.revision),
            preparer="R. Shah",
            qualification="P.E.",
            received=self.today - timedelta(days=40),
            amends=amends,
            changes=changes,
            by="m",
        ).id

    def refused(self, call: Any, must: bool, why: str) -> Any:
        before = self.reg.audit(limit=1)
        try:
            done = call()
        except DocgenError:
            assert self.reg.audit(limit=1) == before, f"refused but something recorded: {why}"
            assert must, f"refused, but allowed: {why}"
            return None
        assert not must, f"accepted, but must be refused: {why}"
        return done

    @rule(data=st.data(), step=st.integers(0, 3), reopen=st.booleans(), clean=st.booleans())
    def review(self, data: Any, step: int, reopen: bool, clean: bool) -> None:
        day = min(self.day + timedelta(days=step), self.today)
        wanted = self.wanted
        ids = [i.id for i in self.items] if wanted is None else wanted
        # ``clean``: every item present (else the approvals would be few)
        given = {
            k: ("present" if clean else data.draw(FINDING), "The reviewer's words.") for k in ids
        }
        unchanged = [i.id for i in self.items if wanted is not None and i.id not in wanted]
        typed_unchanged = bool(reopen and unchanged)
        if typed_unchanged:
            given[unchanged[0]] = ("present", None)
        must = self.approved or typed_unchanged or (wanted is not None and self.before is None)
        done = self.refused(
            lambda: record_review(
                self.reg.engine, self.plan, given, reviewer="D. Whitcomb", on=day, by="m"
            ),
            must,
            "a review of an approved plan, or one typing an item the amendment did not change",
        )
        if done is None:
            return
        self.day = day
        found = {f.item.id: f.finding for f in done.findings}
        if wanted is not None:  # rule 2: every unchanged item carried, never reopened
            assert self.before is not None
            for item_id in unchanged:
                assert found[item_id] == self.before[item_id], item_id
                carried = next(f for f in done.findings if f.item.id == item_id)
                assert carried.carried_from is not None
        self.findings = found
        self.decided = None
        self.reviews.append(day)

    @rule(outcome=st.sampled_from(["approved", "returned"]))
    def decide(self, outcome: str) -> None:
        open_ = [k for k, v in (self.findings or {}).items() if v in OPEN]
        must = (
            self.findings is None
            or self.decided is not None
            or (outcome == "approved" and bool(open_))  # rule 1
            or (outcome == "returned" and not open_)
        )
        done = self.refused(
            lambda: self.reg.swppp_decide(self.plan, outcome, self.day, formats=("html",)),
            must,
            f"{outcome} with open items {open_}",
        )
        if done is None:
            return
        self.decided = outcome
        self.approved = self.approved or outcome == "approved"

    @rule(data=st.data())
    def amend(self, data: Any) -> None:
        if self.findings is None:
            return
        ids = [i.id for i in self.items]
        changes = data.draw(st.lists(st.sampled_from(ids), min_size=1, max_size=3, unique=True))
        self.plan = self._add(self.plan, changes)
        self.wanted = changes
        self.before = self.findings
        self.findings = None
        self.decided = None
        self.approved = False

    def _inspection(self, day: date, here: bool, supersedes: str | None = None) -> str:
        case = copy.deepcopy(INSPECTION)
        case["issued"] = case["inspected"] = day.isoformat()
        case["site"] = {"description": WHERE if here else "Lot 9, another site"}
        for finding in case["findings"]:
            for key in ("due", "corrective_action", "requirement"):
                finding.pop(key, None)
            finding["result"] = "satisfactory"
        asked = Issue(supersedes=supersedes)
        made = record_inspection_case(self.reg, case, asked, formats=("html",))
        return made.number

    @rule(data=st.data(), back=st.integers(0, 40), here=st.booleans(), fix=st.booleans())
    def inspect(self, data: Any, back: int, here: bool, fix: bool) -> None:
        """An inspection of the site (or of another site), in Homer only (the case's law);
        ``fix``: a report of the site corrected instead, the correction counted and the
        superseded report not."""
        if self.j != "homer":
            return
        day = self.today - timedelta(days=back)
        old = None
        if fix and self.inspections:
            old = data.draw(st.sampled_from(sorted(self.inspections)))
            here = True
        number = self._inspection(day, here, supersedes=old)
        if old is not None:
            del self.inspections[old]
        if here:
            self.inspections[number] = day

    def _held(self, start: date, end: date) -> list[tuple[str, str]]:
        """The services the model holds for the site from ``start`` to ``end``."""
        lines = [(d.isoformat(), "review") for d in self.reviews if start <= d <= end]
        lines += [
            (d.isoformat(), "inspection") for d in self.inspections.values() if start <= d <= end
        ]
        return sorted(lines)

    @rule(later=st.integers(0, 20), short=st.integers(0, 10))
    def state_fees(self, later: int, short: int) -> None:
        start = self.today - timedelta(days=45 - later)
        end = self.today - timedelta(days=short)
        held = self._held(start, end) if start <= end else []
        done = self.refused(
            lambda: fee_register.statement(
                self.reg,
                self.site,
                start,
                end,
                self.today,
                payer="Model LLC",
                officer=OFFICER,
                formats=("html",),
            ),
            self.j != "homer" or not held,  # rule 4: no fee without a recorded service
            # (a period that ends before it starts holds none)
            f"a statement of {start} to {end} in {self.j} with services {held}",
        )
        if done is None:
            return
        self.statements[done.number] = {
            "held": held,
            "live": set(self.inspections),
            "total": sum((RATE[kind] for _, kind in held), Decimal(0)),
            "paid": Decimal(0),
        }

    @rule(data=st.data(), cents=st.one_of(st.integers(1, 15000), st.integers(15001, 60000)))
    def pay(self, data: Any, cents: int) -> None:
        if not self.statements:
            return
        number = data.draw(st.sampled_from(sorted(self.statements)))
        made = self.statements[number]
        amount = Decimal(cents) / 100
        left = made["total"] - made["paid"]
        done = self.refused(
            lambda: fee_register.pay(self.reg, number, f"{amount:.2f}", self.today, "cash", "m"),
            amount > left,  # rule 4: never more than the balance
            f"a payment of {amount} against a balance of {left}",
        )
        if done is None:
            return
        made["paid"] += amount
        assert done == made["total"] - made["paid"]

    @invariant()
    def a_fee_only_for_a_recorded_service(self) -> None:
        if not hasattr(self, "statements"):
            return
        for number, made in self.statements.items():
            with db.read_session(self.reg.engine) as session:
                case = document_row(session, number).case
            lines = case["services"]
            kinds = []
            for line in lines:
                kind = "review" if line["service"].startswith("Review of the SWPPP") else None
                if line["service"] == "Inspection of the site":
                    kind = "inspection"
                    reported = line["reference"].removeprefix("Inspection Report No. ")
                    assert reported in made["live"], f"{number}: {reported} not live"
                assert kind is not None, line["service"]
                assert Decimal(line["rate"]) == Decimal(line["amount"]) == RATE[kind]
                kinds.append((line["day"], kind))
            assert sorted(kinds) == made["held"], number
            assert Decimal(case["total"]) == sum(
                (Decimal(line["amount"]) for line in lines), Decimal(0)
            )
            assert Decimal(case["total"]) == made["total"]
            total, paid = fee_register.balance(self.reg, number)
            assert paid == made["paid"] <= total

    @invariant()
    def an_approval_holds_no_open_item(self) -> None:
        if not hasattr(self, "plan"):
            return
        last = last_review(self.reg.engine, self.plan)
        if last is not None and last.decision == "approved":
            assert last.open_items == []
        if last is not None:
            assert last.day <= self.today


def run(url_for: Any, examples: int, steps: int) -> None:
    machine = type("Run", (PlanModel,), {"url_for": classmethod(lambda cls: url_for())})
    run_state_machine_as_test(
        machine, settings=settings(max_examples=examples, stateful_step_count=steps, **SETTINGS)
    )


@pytest.fixture
def schedule(tmp_path, monkeypatch):
    """Homer's fee schedule in the settings (Macedon has no fees provision)."""
    folder = tmp_path / "settings"
    folder.mkdir()
    (folder / "homer.yaml").write_text(SCHEDULE, encoding="utf-8")
    monkeypatch.setenv("DOCGEN_SETTINGS", str(folder))


def test_the_plan_keeps_the_law_on_sqlite(tmp_path, sqlite_template, schedule):
    made = count(1)
    run(lambda: fresh_sqlite(sqlite_template, tmp_path / f"plan-{next(made)}.sqlite"), 60, 25)


def test_the_plan_keeps_the_law_on_postgresql(postgres_template, schedule):
    run(lambda: fresh_postgres(postgres_template), 8, 20)
