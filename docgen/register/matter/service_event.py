"""One service event as it happened (Service), and what it says wrong of itself before
anything is recorded: a fact that does not fit the method, a fact the affidavit must state
left out (LAW.md §§ 2, 10). What the register knows besides (the document, the person
served, the events before) is checked where the event is recorded:
docgen.register.matter.service.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from docgen.cases.labels import choice
from docgen.cases.mail import article_problem
from docgen.documents.affidavit_of_service import MAIL
from docgen.errors import Problem
from docgen.register.storage.models import SERVICE_METHODS


@dataclass(frozen=True)
class Service:
    """One service event as it happened: how (``method``), when (``on``, at ``time``), on
    whom (the landowner, or ``to``: a person the document was copied to), where
    (``place``), who took it (``person``, their ``capacity``, a ``description``), when a
    mailed copy was received and who signed for it (``received``, ``received_by``), the
    certified-mail ``article`` number, and who served (``served_by``, with
    ``served_by_title``, their office, printed in the affidavit; or ``by_officer``: the
    issuing officer named on the document served it). Nothing here is filled in when left
    out: an affidavit states only what was recorded (LAW.md § 10).
    ``on`` None: the date of service could not be read (its reader says why)."""

    method: str
    on: date | None
    to: str | None = None
    time: str | None = None
    place: str | None = None
    person: str | None = None
    capacity: str | None = None
    description: str | None = None
    received: date | None = None
    received_by: str | None = None
    served_by: str | None = None
    served_by_title: str | None = None
    article: str | None = None
    by_officer: bool = False

    def problems(self) -> list[Problem]:
        """What was given that does not fit the method (every problem at once), found
        before anything is recorded; each names its field (``received``, ``time``...)."""
        method, on, received, time = self.method, self.on, self.received, self.time
        if method not in SERVICE_METHODS:
            listed = ", ".join(SERVICE_METHODS)
            return [Problem("method", f"{method!r}: choose one of {listed}")]
        problems = []
        how = choice(method).lower()
        mail = "CPLR 2103(b)(2), by analogy; LAW.md § 2"
        if received is not None and method not in MAIL:
            message = f"is the day a mailed copy was received; not for {how}"
            problems.append(Problem("received", message, mail))
        elif received is not None and on is not None and received < on:
            message = f"{received} is before the mailing {on}: a receipt follows the mailing"
            problems.append(Problem("received", message, mail))
        if self.received_by and received is None:
            message = "names who signed the return receipt: give {received}"
            problems.append(Problem("received_by", message))
        article = self.article
        if article and method != "certified-mail":
            message = f"is a certified-mail article number; not for {how}"
            problems.append(Problem("article", message))
        elif article:
            wrong = article_problem(article.strip().replace(" ", ""))
            if wrong:
                problems.append(Problem("article", f"{article!r} {wrong}", "USPS Publication 199"))
        delivery = "CPLR 311(a)(1) by analogy; LAW.md § 2"
        described = self.person or self.capacity or self.description or time
        if described and method != "personal-delivery":
            message = (
                "{person}, {capacity}, {description} and {time} describe a personal "
                f"delivery; the method is {how}"
            )
            problems.append(Problem("", message, delivery))
        if self.capacity and not self.person:
            message = "is the capacity of {person}: name them"
            problems.append(Problem("capacity", message, delivery))
        if time is not None and not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", time):
            message = f"{time!r}: the time of delivery as HH:MM, e.g. 10:45"
            problems.append(Problem("time", message))
        return problems + self.unsaid()

    def unsaid(self) -> list[Problem]:
        """The facts the affidavit of this event must state that were not given: who
        served, and for a personal delivery where, when and to whom it was described as
        (the firm's person and capacity are checked against the person served, whom the
        register knows). Never filled in by a default (LAW.md § 10)."""
        problems = []
        server = (self.served_by or "").strip()
        if not server and not self.by_officer:
            message = (
                "missing: an affidavit states only what was recorded: say who served it "
                "(their name; {served_by_officer} when it was the issuing officer)"
            )
            problems.append(Problem("served_by", message))
        elif server and self.by_officer:
            message = (
                "names a server, and {served_by_officer} is given too: say one, as it happened"
            )
            problems.append(Problem("served_by", message))
        if self.method == "posting" and not (self.place or "").strip():
            message = (
                "missing: an affidavit states only what was recorded: say where the copy was "
                "posted (the conspicuous place at the site, e.g. the construction entrance gate)"
            )
            problems.append(Problem("place", message))
        if self.method != "personal-delivery":
            return problems
        wanted = (
            ("place", self.place, "where the copy was delivered"),
            ("time", self.time, "at what time it was delivered"),
            (
                "description",
                self.description,
                "how the person who took it looked (sex, approximate age, height, weight, "
                "hair), as a court weighs it when service is denied",
            ),
        )
        for field, value, what in wanted:
            if not (value or "").strip():
                message = f"missing: an affidavit states only what was recorded: say {what}"
                problems.append(Problem(field, message))
        return problems
