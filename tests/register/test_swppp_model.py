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
"""

from __future__ import annotations

from datetime import timedelta
from itertools import count
from typing import Any

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
from docgen.register import Register
from docgen.register.invitations import add_site, today_in
from docgen.register.swppp import OPEN, add_plan, last_review, record_review
from tests.register.conftest import fresh_postgres, fresh_sqlite

FINDING = st.sampled_from(["present", "present", "present", "missing", "inadequate"])
SETTINGS: dict[str, Any] = {
    "deadline": None,
    "phases": [Phase.explicit, Phase.reuse, Phase.generate],
    "derandomize": True,
    "suppress_health_check": list(HealthCheck),
}


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
        where = {"description": "Lot 7, a site in the model"}
        self.site = add_site(self.reg.engine, jurisdiction, {"name": "Model"}, where, None, "m")
        self.plan = self._add(None, None)
        self.day = self.today - timedelta(days=30)
        self.findings: dict[str, str] | None = None  # the current plan's last review
        self.before: dict[str, str] | None = None  # the last review of the revision amended
        self.decided: str | None = None
        self.approved = False
        self.wanted: list[str] | None = None  # the items the current revision changes

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


def test_the_plan_keeps_the_law_on_sqlite(tmp_path, sqlite_template):
    made = count(1)
    run(lambda: fresh_sqlite(sqlite_template, tmp_path / f"plan-{next(made)}.sqlite"), 25, 10)


def test_the_plan_keeps_the_law_on_postgresql(postgres_template):
    run(lambda: fresh_postgres(postgres_template), 6, 10)
