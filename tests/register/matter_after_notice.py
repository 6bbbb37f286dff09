"""The steps after the notice in the model of the matter (tests/register/test_matter_model.py;
§ 228-79C(5), (6); LAW.md § 14): rules that withhold occupancy on a stop-work order and
release it, require restoration, inspect the site, state the cost, record the lien, pay it
and release it, each refused exactly when the law says; and their invariants:

17. A lien is never issued before the restoration date, nor without an inspection of the
    site on or after that date that found the restoration not done (the inspection named
    on the statement it rests on exists, in the register, as stated).
18. A release of an order preventing occupancy is never dated before the order's service was
    complete; a release of lien never before the lien was paid in full, nor before the last
    payment.
19. A statement of cost's amounts sum to its total, and the lien's amount is that total.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import invariant, precondition, rule
from sqlalchemy import select

from docgen.documents import get_kind
from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack
from docgen.register.after_notice.liens import balance, payments
from docgen.register.storage import db
from docgen.register.storage.models import Document
from docgen.register.storage.standing import served_on
from tests.helpers.served import service_of
from tests.register.test_register_issue import STEPS as MADE_BY_STEPS
from tests.register.test_register_restoration import ITEMS, RESTORE, inspection

PACK = load_pack("homer")
HTML = ("html",)
ORDER = "stop-work-order"  # what these steps rest on here (its site: 120 Cayuga Street)
NEAR = st.integers(-1, 3)  # a step's day around the one it follows: on it, before, after
TOTAL = sum((a for _, a in ITEMS), Decimal("0.00"))


# The kinds only the register's steps make (Kind.made_by_register), from what they rest on.
STEPS = frozenset(MADE_BY_STEPS)


@dataclass
class Step:
    number: str
    issued: date
    rests: str  # what it rests on (a number)
    ended: bool = False  # released, costed, liened...
    restore_by: date | None = None
    paid: Decimal = Decimal("0.00")
    last_paid: date | None = None


@dataclass
class After:
    holds: list[Step] = field(default_factory=list)
    restorations: list[Step] = field(default_factory=list)
    inspections: list[tuple[str, date, bool]] = field(default_factory=list)
    costs: list[Step] = field(default_factory=list)
    liens: list[Step] = field(default_factory=list)


class AfterNotice:
    """Mixed into the model of the matter (``self.reg``, ``self.m``, ``self.refused``)."""

    reg: Any
    m: Any
    refused: Any

    def exactly(self, call, must: bool, why: str) -> Any:
        """``call()``, refused exactly when ``must`` (and then nothing recorded): a step
        after the notice is refused only for what the law says, and says it."""
        from docgen.errors import DocgenError

        before = (self.reg.count(), self.reg.audit(limit=1))
        try:
            done = call()
        except DocgenError as err:
            assert (self.reg.count(), self.reg.audit(limit=1)) == before, why
            assert must, f"refused, but the law allows it: {why}: {err}"
            return None
        assert not must, f"accepted, but must be refused: {why}"
        return done

    @property
    def after(self) -> After:
        if not hasattr(self, "_after"):
            self._after = After()
        return self._after

    def _orders(self) -> list[Any]:
        return [d for d in self.m.docs if d.kind == ORDER and not d.superseded]

    def _served(self, number: str) -> date | None:
        return self.reg.document(number).served_on

    def _unserved(self) -> list[Any]:
        """Orders, holds and restoration notices not superseded or lifted, none served."""
        kinds = (ORDER, *(get_kind(k).name for k in ("occupancy-order", "restoration-notice")))
        return [
            d
            for d in self.m.docs
            if d.kind in kinds
            and not d.superseded
            and not d.lifted
            and d.issued <= municipal_today(PACK)
            and not self.reg.document(d.number).services
        ]

    @precondition(lambda self: self._unserved())
    @rule(data=st.data())
    def deliver(self, data) -> None:
        """Personal delivery on the landowner on the day of issue: the chain's next step."""

        doc = data.draw(st.sampled_from(self._unserved()))
        self.reg.record_service(
            doc.number, service_of("personal-delivery", doc.issued), formats=HTML
        )

    @precondition(lambda self: self._orders())
    @rule(data=st.data(), near=NEAR)
    def withhold_occupancy(self, data, near: int) -> None:
        doc = data.draw(st.sampled_from(self._orders()))
        served = self._served(doc.number)
        day = (served or doc.issued) + timedelta(days=near)
        must = day > municipal_today(PACK) or served is None or day < served
        done = self.exactly(
            lambda: self.reg.withhold_occupancy(doc.number, "the building", day, formats=HTML),
            must,
            f"occupancy withheld on {doc.number} on {day} (served {served})",
        )
        if done is not None:
            self.after.holds.append(Step(done.number, day, doc.number))
            # served and proved like a stop-work order: the serve rule may serve it
            from tests.register.test_matter_model import Doc

            self.m.docs.append(Doc(done.number, done.kind, day, list(doc.persons), -1))

    @precondition(lambda self: self.after.holds)
    @rule(data=st.data(), near=NEAR)
    def release_occupancy(self, data, near: int) -> None:
        hold = data.draw(st.sampled_from(self.after.holds))
        served = self._served(hold.number)
        day = (served or hold.issued) + timedelta(days=near)
        must = hold.ended or day > municipal_today(PACK) or served is None or day < served
        done = self.exactly(
            lambda: self.reg.release_occupancy(hold.number, day, formats=HTML),
            must,
            f"release of {hold.number} on {day} (served {served}, released {hold.ended})",
        )
        if done is not None:
            hold.ended = True

    @precondition(lambda self: self._orders())
    @rule(data=st.data(), near=NEAR, ahead=st.integers(-1, 4))
    def require_restoration(self, data, near: int, ahead: int) -> None:
        doc = data.draw(st.sampled_from(self._orders()))
        served = self._served(doc.number)
        day = (served or doc.issued) + timedelta(days=near)
        restore_by = day + timedelta(days=ahead)
        must = day > municipal_today(PACK) or served is None or day < served or restore_by <= day
        done = self.exactly(
            lambda: self.reg.require_restoration(
                doc.number, RESTORE, restore_by, day, formats=HTML
            ),
            must,
            f"restoration on {doc.number} on {day} by {restore_by} (served {served})",
        )
        if done is not None:
            self.after.restorations.append(
                Step(done.number, day, doc.number, restore_by=restore_by)
            )
            from tests.register.test_matter_model import Doc

            self.m.docs.append(Doc(done.number, done.kind, day, list(doc.persons), -1))

    @rule(data=st.data(), near=NEAR, deficient=st.booleans())
    def inspect_restoration(self, data, near: int, deficient: bool) -> None:
        restore_by = [r.restore_by for r in self.after.restorations if r.restore_by]
        day = data.draw(st.sampled_from(restore_by or [municipal_today(PACK)]))
        day += timedelta(days=near)
        done = self.exactly(
            lambda: self.reg.issue("inspection-report", inspection(day, deficient), formats=HTML),
            day > municipal_today(PACK),
            f"an inspection on {day}, after today",
        )
        if done is not None:
            self.after.inspections.append((done.number, day, deficient))

    @precondition(lambda self: self.after.restorations and self.after.inspections)
    @rule(data=st.data(), near=NEAR)
    def state_cost(self, data, near: int) -> None:
        notice = data.draw(st.sampled_from(self.after.restorations))
        number, inspected, deficient = data.draw(st.sampled_from(self.after.inspections))
        day = inspected + timedelta(days=near)
        assert notice.restore_by is not None
        served = self._served(notice.number)
        must = (
            notice.ended
            or served is None
            or day > municipal_today(PACK)
            or day < notice.restore_by
            or inspected < notice.restore_by
            or not deficient
            or day < inspected
        )
        done = self.exactly(
            lambda: self.reg.state_restoration_cost(
                notice.number, number, ITEMS, day, formats=HTML
            ),
            must,
            f"cost on {notice.number} (by {notice.restore_by}, served {served}) on {day}, "
            f"inspection {number} of {inspected} (deficient {deficient})",
        )
        if done is not None:
            notice.ended = True
            self.after.costs.append(Step(done.number, day, notice.number))

    @precondition(lambda self: self.after.costs)
    @rule(data=st.data(), near=NEAR)
    def record_lien(self, data, near: int) -> None:
        cost = data.draw(st.sampled_from(self.after.costs))
        day = cost.issued + timedelta(days=near)
        must = cost.ended or day > municipal_today(PACK) or day < cost.issued
        done = self.exactly(
            lambda: self.reg.record_lien(cost.number, day, formats=HTML),
            must,
            f"lien on {cost.number} (of {cost.issued}) on {day}",
        )
        if done is not None:
            cost.ended = True
            self.after.liens.append(Step(done.number, day, cost.number))

    @precondition(lambda self: self.after.liens)
    @rule(data=st.data(), near=NEAR, share=st.sampled_from([0, 1, 2, 3]))
    def pay_lien(self, data, near: int, share: int) -> None:
        lien = data.draw(st.sampled_from(self.after.liens))
        day = (lien.last_paid or lien.issued) + timedelta(days=near)
        owed = TOTAL - lien.paid
        amount = [owed, (owed / 2).quantize(Decimal("0.01")), owed + 1, Decimal("0")][share]
        must = (
            lien.ended
            or day > municipal_today(PACK)
            or day < lien.issued
            or amount <= 0
            or amount > owed
        )
        done = self.exactly(
            lambda: self.reg.record_lien_payment(lien.number, amount, day, "Cayuga Street LLC"),
            must,
            f"payment of {amount} on {lien.number} (owed {owed}) on {day}",
        )
        if done is not None:
            lien.paid += amount
            lien.last_paid = max(filter(None, (lien.last_paid, day)))
            assert done == TOTAL - lien.paid, (done, lien.paid)

    @precondition(lambda self: self.after.liens)
    @rule(data=st.data(), near=NEAR)
    def release_lien(self, data, near: int) -> None:
        lien = data.draw(st.sampled_from(self.after.liens))
        last = lien.last_paid or lien.issued
        day = last + timedelta(days=near)
        must = lien.ended or lien.paid < TOTAL or day > municipal_today(PACK) or day < last
        done = self.exactly(
            lambda: self.reg.release_lien(lien.number, day, formats=HTML),
            must,
            f"release of {lien.number} on {day} (paid {lien.paid} of {TOTAL}, last {last})",
        )
        if done is not None:
            lien.ended = True

    def _served_before_today(self) -> list[Any]:
        """Served orders the whole chain may start from: none whose restoration was required
        already (the same request issued again is the first notice, already served: its
        service would be recorded twice, and refused; found by `make soak`)."""
        required = {r.rests for r in self.after.restorations}
        return [
            d
            for d in self._orders()
            if not d.lifted
            and d.number not in required
            and (served := self._served(d.number)) is not None
            and served < municipal_today(PACK)
        ]

    @precondition(lambda self: self._served_before_today())
    @rule(data=st.data())
    def whole_restoration(self, data) -> None:
        """The whole chain from a served order, each step on the first day the law allows
        (so that a short run reaches the lien and its release): the notice, its service,
        the inspection on its date, the cost, the lien, one payment in full, the release."""

        doc = data.draw(st.sampled_from(self._served_before_today()))
        served = self._served(doc.number)
        assert served is not None
        by = served + timedelta(days=1)
        notice = self.exactly(
            lambda: self.reg.require_restoration(doc.number, RESTORE, by, served, formats=HTML),
            False,
            f"restoration on {doc.number} on {served}",
        )
        if any(r.number == notice.number for r in self.after.restorations):
            return  # the same notice again (a case is issued once): this chain was walked
        self.reg.record_service(
            notice.number, service_of("personal-delivery", served), formats=HTML
        )
        report = self.reg.issue("inspection-report", inspection(by), formats=HTML)
        cost = self.exactly(
            lambda: self.reg.state_restoration_cost(
                notice.number, report.number, ITEMS, by, formats=HTML
            ),
            False,
            f"cost on {notice.number}",
        )
        lien = self.exactly(
            lambda: self.reg.record_lien(cost.number, by, formats=HTML), False, "lien"
        )
        self.reg.record_lien_payment(lien.number, TOTAL, by, "Cayuga Street LLC")
        self.exactly(lambda: self.reg.release_lien(lien.number, by, formats=HTML), False, "release")
        self.after.inspections.append((report.number, by, True))
        self.after.restorations.append(Step(notice.number, served, doc.number, True, by))
        self.after.costs.append(Step(cost.number, by, notice.number, True))
        self.after.liens.append(Step(lien.number, by, cost.number, True, paid=TOTAL, last_paid=by))

    @rule(data=st.data())
    def type_a_step(self, data) -> None:
        """A step after the notice typed as a case file (its sample, dated today), as `docgen
        issue`, a batch or a draft would send it: always refused, nothing recorded; only
        the register's step makes it, from the document it rests on (LAW.md §§ 11, 14)."""
        from docgen import api
        from docgen.demo import sample_cases

        kind, path = data.draw(st.sampled_from([(k, p) for k, p in sample_cases() if k in STEPS]))
        case, _ = api.load(path)
        case.pop("number", None)
        self.exactly(
            lambda: self.reg.issue(kind, case, formats=HTML), True, f"{kind} typed from {path.name}"
        )

    @invariant()
    def after_notice_keeps_the_law(self) -> None:
        with db.read_session(self.reg.engine) as session:
            rows = session.scalars(select(Document)).all()
            by_id = {d.id: d for d in rows}
            by_number = {d.number: d for d in rows}
            for d in rows:
                step = get_kind(d.kind).step
                about = by_id.get(d.about_id) if d.about_id else None
                if d.kind in STEPS:
                    # 23. a step after the notice rests on a document of the register
                    assert about is not None, f"{d.number} rests on nothing the register holds"
                if step == "states-cost":
                    # 19. the amounts sum to the total
                    total = sum(Decimal(i["amount"]) for i in d.case["items"])
                    assert total == Decimal(d.case["total"]), d.number
                if step == "liens":
                    # 17. never before the restoration date and an inspection on or after it
                    assert about is not None and get_kind(about.kind).step == "states-cost"
                    notice = by_id[about.about_id]
                    restore_by = date.fromisoformat(notice.case["restore_by"])
                    report = by_number[about.case["inspection"]["number"]]
                    inspected = date.fromisoformat(report.case["inspected"])
                    assert restore_by <= inspected <= about.issued <= d.issued, d.number
                    assert any(f["result"] == "deficient" for f in report.case["findings"])
                    assert Decimal(d.case["amount"]) == Decimal(about.case["total"]), d.number
                if step == "releases-hold":
                    # 18. never before the order's service was complete
                    assert about is not None
                    served = served_on(about, PACK)
                    assert served is not None and d.issued >= served, d.number
                if step == "releases-lien":
                    # 18. never before payment in full, nor before the last payment
                    assert about is not None and balance(session, about) == 0, d.number
                    paid = payments(session, about)
                    assert all(p.paid_on <= d.issued for p in paid), d.number
