"""Journeys benchmark (not a test; issue 52's closing figures): each person's path through
the desk in Chromium, as their guide in docs/ describes it, counted.

    .venv/bin/python -m benchmarks.journeys [--people clerk,officer,attorney,contractor]
    .venv/bin/python -m benchmarks.journeys --before 769cbf57      # git archive of a commit
    .venv/bin/python -m benchmarks.journeys --before-tree DIR      # or a checkout of it

Each person walks a fresh desk (`docgen serve` over a new SQLite register, started by the
tests' own helpers, tests/desk_server.py, with Debian's Chromium through Playwright,
tests/desk_browser.py) and signs in (not counted: the same on every path). Counted:

- steps: each click on a link or a button, each form submitted, an address opened (a link
  in an e-mail, a document on the Due list), a folded section unfolded, a download;
- pages: each document the browser loads (a live check or autosave is not a page);
- values: each field the person fills or chooses. The person fills only what the desk left
  empty, then presses Save and check and answers each field the desk marks as asked; a
  field the desk filled in (from the register, another document, their account) is
  never typed again;
- refusals: each page answering 4xx. A path that cannot go on (no draft, no button, a
  refusal with nothing to add) is STOPPED: where and what the page said are printed.

The paths (the clerk and the attorney at 1280 px, the officer and the contractor at 390):

- clerk (docs/clerk.md): the sample first-offense notice of violation typed into a new
  draft (its dates moved so it is issued today), issued, its certified mailing recorded;
  then the penalty statement from the notice's page.
- officer (docs/officer.md): an inspection at a site the register knows, typed on the
  phone, its notice of deficiency from the report, served by hand; the reinspection of a
  notice of ten days ago that finds the silt fence still down; the stop-work order from
  that notice (the issue's case: the inspection named no landowner); the same from a
  notice whose reinspection was recorded from the command line; a second reinspection
  finding it corrected and the approval of corrected work from it. The desk dates what it
  makes today, so what happened ten days ago (the same inspection and notice, served that
  day) is in the register before the walk (officer_setup).
- attorney (docs/attorney.md): the sample easement typed, checked, its Word copy
  downloaded, counsel's final (that copy with one phrase edited) chosen, issued.
- contractor (docs/contractor.md): the firm's invitation made by the clerk from the
  command line; the firm opens the link, fills in its details and signs electronically.

With --before, the same script walks another docgen in a process of its own whose
PYTHONPATH and folder are that tree (the desk's process imports docgen from its folder),
with that tree's own test helpers (the desk's modules moved between the two). The paths
are one: what differs between the desks is read from the page, not written per version (a
field the service form does not ask, such as the place of a delivery before it was asked,
is skipped; the folded mail section is unfolded, a step, when choosing certified mail
leaves it folded). A page the walk stopped on is written to $TMPDIR/docgen-journeys/.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import docgen

# The checkout whose docgen runs (this one, or the one PYTHONPATH names for "before"): its
# own test helpers start the desk, add the users and drive Debian's Chromium, since the
# desk's modules moved between the two.
CHECKOUT = Path(docgen.__file__).resolve().parent.parent
ROOT = Path(__file__).resolve().parent.parent  # this script's checkout
sys.path[:0] = [str(CHECKOUT / "tests"), str(CHECKOUT)]

# The helpers of that checkout, found once its folders lead sys.path.
import docx  # noqa: E402
from desk_browser import chromium, sign_in  # noqa: E402
from desk_server import docgen as cli  # noqa: E402
from desk_server import start_desk, stop_desk, typed_sample  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402

from docgen.law.pack import municipal_today  # noqa: E402
from docgen.law.packs import load_pack  # noqa: E402
from tests.helpers.inspection_cases import DEVELOPER, LANDOWNER  # noqa: E402

DESK = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
DUMPS = Path(tempfile.gettempdir()) / "docgen-journeys"


class Stuck(Exception):
    """The path cannot go on: where and why."""


@dataclass
class Count:
    steps: int = 0
    pages: int = 0
    values: int = 0
    refusals: int = 0

    def __sub__(self, other: Count) -> Count:
        return Count(*(a - b for a, b in zip(self.row(), other.row(), strict=True)))

    def row(self) -> tuple[int, int, int, int]:
        return (self.steps, self.pages, self.values, self.refusals)


@dataclass
class Segment:
    name: str
    count: Count = field(default_factory=Count)
    stuck: str = ""
    refused: list[str] = field(default_factory=list)
    typed: list[str] = field(default_factory=list)


def field_id(path: str) -> str:
    """The desk's id of a form field: 'f-' and its case path ('remedies[1].due' ->
    'f-remedies-1-due')."""
    return "f-" + re.sub(r"[\[\]._]+", "-", path).strip("-")


class Walk:
    """A person at the desk in one browser page, counting what they do: each click or
    submit a step, each page the browser loads a page, each field they fill (one left as
    the desk filled it is not typed) a value, each page answering 4xx a refusal."""

    def __init__(self, page: Any, url: str, folder: Path) -> None:
        self.page, self.url, self.folder = page, url, folder
        self.count = Count()
        self.refused: list[str] = []
        self.typed: list[str] = []
        self.segments: list[Segment] = []
        page.on("load", self._loaded)
        page.on("response", self._answered)

    def _loaded(self, page: Any) -> None:
        self.count.pages += 1

    def _answered(self, response: Any) -> None:
        request = response.request
        main = request.is_navigation_request() and request.frame == self.page.main_frame
        if main and 400 <= response.status < 500:
            self.count.refusals += 1
            self.refused.append(f"{response.status} {request.method} {self.path(response.url)}")

    def path(self, url: str | None = None) -> str:
        return (url or self.page.url).removeprefix(self.url)

    # --- the segments of a path -------------------------------------------------------
    def segment(self, name: str) -> None:
        self.segments.append(Segment(name))
        self._mark = (Count(*self.count.row()), len(self.refused), len(self.typed))

    def close_segment(self, stuck: str = "") -> None:
        seg = self.segments[-1]
        seg.count = self.count - self._mark[0]
        seg.refused = self.refused[self._mark[1] :]
        seg.typed = self.typed[self._mark[2] :]
        seg.stuck = stuck

    # --- what the person does ---------------------------------------------------------
    def open(self, address: str) -> None:
        """Open an address (a link in an e-mail, the desk's address): one step."""
        self.count.steps += 1
        self.page.goto(address)

    def click(self, locator: Any, to: str | None = None) -> None:
        """Click a link or a button that loads a page (ending at ``to``, a pattern)."""
        self.count.steps += 1
        with self.page.expect_navigation():
            locator.click()
        if to is not None and not re.search(to + "$", self.page.url):
            self.stuck(f"expected {to}")

    def press(self, name: str | re.Pattern, to: str | None = None) -> None:
        self.click(self.page.get_by_role("button", name=name).last, to)

    def follow(self, name: str | re.Pattern, to: str | None = None) -> None:
        self.click(self.page.get_by_role("link", name=name).first, to)

    def put(self, locator: Any, value: str) -> None:
        """Fill a field with ``value``: a value typed unless it already holds it."""
        kind = locator.first.evaluate("e => e.type")
        if kind in ("radio", "checkbox"):  # ticked: the box of that value
            box = locator.locator(f"xpath=self::*[@value='{value}']")
            if not box.is_checked():
                self.count.values += 1
                self.typed.append(box.get_attribute("name") or "?")
                box.check()
            return
        if locator.input_value() == value:
            return
        self.count.values += 1
        self.typed.append(locator.get_attribute("name") or locator.get_attribute("id") or "?")
        if kind.startswith("select"):
            locator.select_option(value)
        else:
            locator.fill(value)

    def start(self, kind: str) -> None:
        """Drafts, the kind of document chosen (in the Village of Homer), Start."""
        self.follow("Drafts", "/drafts")
        self.put(self.page.get_by_label("Kind of document"), kind)
        self.put(self.page.get_by_label("Municipality"), "homer")
        self.press("Start", r"/drafts/\d+")

    def put_all(self, values: dict[str, str]) -> None:
        """Each field of a draft's form (by case path) filled, its group's row added first
        when the form has no such row yet (Add another: a step and a page)."""
        for path, value in values.items():
            box = self.page.locator(f"#{field_id(path)}")
            if not box.count():
                group = re.match(r"(.*)\[\d+\]", path)
                if group is None:
                    self.stuck(f"no field {path}")
                add = self.page.locator(f'button[name=_action][value="add:{group.group(1)}"]')
                self.click(add)
            self.put(self.page.locator(f"#{field_id(path)}"), value)

    def download(self, locator: Any) -> Path:
        """Click a download link (a step, no page): the file saved."""
        self.count.steps += 1
        with self.page.expect_download() as download:
            locator.click()
        saved = self.folder / download.value.suggested_filename
        download.value.save_as(saved)
        return saved

    def attach(self, locator: Any, file: Path) -> None:
        """Choose a file (a value typed)."""
        self.count.values += 1
        self.typed.append(locator.get_attribute("name") or "file")
        locator.set_input_files(str(file))

    def fields(self, where: str = "") -> list[Any]:
        """The draft form's fields (named by their case path) matching ``where``."""
        return self.page.locator(f"form [id^=f-]:is(input, select, textarea){where}").all()

    def fill_empty(self, answers: dict[str, str]) -> None:
        """Each empty field the person has an answer for, filled (what the desk filled in is
        left as it is)."""
        for box in self.fields():
            name = box.get_attribute("name")
            if name in answers and not box.input_value() and box.is_visible():
                self.put(box, answers[name])

    def check(self, answers: dict[str, str]) -> None:
        """Save and check the draft; each field the desk asks for (marked invalid) answered
        from ``answers``, and checked again."""
        for _ in range(4):
            self.press("Save and check")
            asked = self.fields("[aria-invalid=true]")
            if not asked:
                return
            for box in asked:
                name = box.get_attribute("name")
                if name not in answers or box.input_value() == answers[name]:
                    self.stuck(f"asks for {name}: {self.said()}")
                self.put(box, answers[name])
        self.stuck(f"still asking: {self.said()}")

    def issue(self, answers: dict[str, str] | None, to: str) -> None:
        """Issue the draft (checked first with ``answers``, unless None: checked already)."""
        if answers is not None:
            self.check(answers)
        issue = self.page.get_by_role("button", name=re.compile("^Issue"))
        if not issue.count():
            self.stuck(f"no Issue button: {self.said()}")
        self.click(issue.first)
        if not re.search(to + "$", self.page.url):
            self.stuck(f"not issued: {self.said()}")

    def serve(self, service: dict[str, str]) -> None:
        """Record service on the document's page (the fields by their names; a folded
        section holding one is unfolded first: a step)."""
        form = self.page.locator("form:has(#s-method)")
        for name, value in service.items():
            box = form.locator(f"[name={name}]")
            if not box.count():  # a fact this desk's form does not ask
                continue
            if box.evaluate("e => e.closest('details:not([open])') !== null"):
                self.count.steps += 1
                box.locator("xpath=ancestor::details/summary").click()
            self.put(box, value)
        self.click(form.get_by_role("button", name="Record service"))
        if "Service recorded" not in self.page.inner_text("body"):
            self.stuck(f"service not recorded: {self.said()}")

    def stuck(self, why: str) -> None:
        raise Stuck(f"at {self.path()}: {why}")

    def said(self) -> str:
        """The page's refusals and problems (role=alert), in a line."""
        alerts = self.page.get_by_role("alert").all_inner_texts()
        return " / ".join(" ".join(a.split()) for a in alerts if a.strip())


def shifted(values: dict[str, str], by: timedelta) -> dict[str, str]:
    """A sample's values with every date moved by ``by`` (the sample's notice issued today)."""
    out = {}
    for path, value in values.items():
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            value = str(date.fromisoformat(value) + by)
        out[path] = value
    return out


def clerk_notice(walk: Walk, today: date, held: dict[str, Any]) -> None:
    """A notice of violation typed from the sample case (its dates moved so it is issued
    today), issued, and its certified mailing recorded."""
    case, typed = typed_sample("notice-of-violation", "homer-first-offense")
    typed = shifted(typed, today - date.fromisoformat(str(case["issued"])))
    held["typed"] = typed
    walk.start("notice-of-violation")
    walk.put_all(typed)
    walk.issue(typed, r"/documents/NOV-\d{4}-\d{4}")
    walk.serve(
        {
            "method": "certified-mail",
            "date": str(today),
            "served_by": "Marion T. Ashby",
            "article": "9589 0710 5270 0123 4567 81",
        }
    )


def clerk_penalty(walk: Walk, today: date, held: dict[str, Any]) -> None:
    """The penalty statement from the notice's page: what the desk leaves empty typed from
    the notice (the clerk reads the offense off it) and the sample statement."""
    typed = held["typed"]
    _, penalty = typed_sample("penalty-statement", "homer-first-offense")
    answers = {
        **penalty,
        "issued": str(today),
        "offense.nature": typed["violations[0].nature"],
        "offense.provision": typed["violations[0].provision"],
        "offense.committed": typed["violations[0].observed"],
    }
    walk.press(re.compile("^Penalty statement from this"), r"/drafts/\d+")
    walk.fill_empty(answers)
    walk.issue(answers, r"/documents/PS-\d{4}-\d{4}")


def dump(page: Any, name: str) -> None:
    DUMPS.mkdir(exist_ok=True)
    rows = page.evaluate(
        """() => [...document.querySelectorAll('input,select,textarea,button,a')]
        .filter(e => e.offsetParent !== null).map(e => {
          const l = e.labels && e.labels[0] ? e.labels[0].innerText.split('\\n')[0] : '';
          const t = ['A', 'BUTTON'].includes(e.tagName) ? e.innerText.slice(0, 80) : '';
          return `${e.tagName.toLowerCase()} #${e.id} ${e.name || ''}=${(e.value || '')
            .slice(0, 40)} [${l.slice(0, 60)}] ${t} ${e.getAttribute('href') || ''}`})"""
    )
    text = page.inner_text("body")
    (DUMPS / f"{name}.txt").write_text(page.url + "\n" + "\n".join(rows) + "\n\n" + text)


# The officer's inspection as typed on the phone: the site and the developer (the issue's
# "10 values"), one practice found deficient; the data of the officer's phone test
# (tests/helpers/inspection_cases.py, the same in both trees), which names no landowner,
# as the issue's trial did.
SITE = {"street": "120 Cayuga Street", "city": "Homer", "state": "NY", "zip": "13077"}
OFFICER = {"name": "Dana R. Whitcomb", "title": "Code Enforcement Officer"}
HAND = {  # what the affidavit of a delivery by hand states (the officer serving)
    "place": "the front counter of the office at 41 Route 281, Homer, NY 13077",
    "time": "10:15",
    "person": "Morgan T. Hale",
    "capacity": "managing member",
    "description": "male, about 45 years old, 5 ft 10 in, about 180 lb, brown hair",
}


def inspection(inspected: date, due: date) -> dict[str, Any]:

    return {
        "jurisdiction": "homer",
        "issued": str(inspected),
        "inspected": str(inspected),
        "time": "09:30",
        "officer": OFFICER,
        "site": {"address": SITE},
        "persons": [DEVELOPER],
        "weather": "Overcast, 38 °F",
        "findings": [
            {
                "practice": "Silt fence",
                "location": "north property line",
                "found": "Fence down over 40 feet; sediment in the drain inlet",
                "result": "deficient",
                "requirement": "§ 228-78D(1)",
                "corrective_action": "Reinstall the silt fence and clean the inlet",
                "due": str(due),
            }
        ],
    }


def pairs(case: Any, prefix: str = "") -> dict[str, str]:
    """A case as the form's fields: {case path: value}."""
    if isinstance(case, dict):
        out: dict[str, str] = {}
        for key, value in case.items():
            out |= pairs(value, f"{prefix}.{key}" if prefix else key)
        return out
    if isinstance(case, list):
        out = {}
        for n, value in enumerate(case):
            out |= pairs(value, f"{prefix}[{n}]")
        return out
    return {prefix: str(case)}


def officer_setup(desk: Any, today: date) -> dict[str, str]:
    """What the register holds before the officer's day: the officer's name and title on
    their account, and twice the same inspection at the site ten days ago, each with its
    notice of deficiency (the silt fence due three days ago) served by hand that day: what
    the officer's first segment makes, dated then (the desk dates what it makes today).
    The second notice's reinspection of yesterday, which found the fence still down, was
    recorded from the command line."""
    home = desk.home

    def run(*args: str) -> str:
        done = cli(home, *args, "-f", "html", "-o", f"{home}/")
        if done.returncode:
            raise RuntimeError(f"docgen {' '.join(args)}: {done.stderr}")
        return re.findall(r"[A-Z]+-\d{4}-\d{4}", done.stdout + done.stderr)[0]

    def recorded(case: dict[str, Any]) -> str:
        file = home / "inspection.json"
        file.write_text(json.dumps(case))
        return run("record-inspection", str(file))

    named = cli(
        home, "users", "set", "otto", "--full-name", OFFICER["name"], "--title", OFFICER["title"]
    )
    if named.returncode:
        raise RuntimeError(named.stderr)
    then = today - timedelta(days=10)
    held: dict[str, str] = {}
    for name, at in (("notice", "09:30"), ("reinspected", "11:00")):
        report = recorded(inspection(then, today - timedelta(days=3)) | {"time": at})
        held[name] = run("notify-deficiency", report, "--date", str(then))
        hand = [f"--{k}={v}" for k, v in HAND.items()]
        run("record-service", held[name], "--method", "personal-delivery", "--date", str(then),
            *hand, "--served-by", OFFICER["name"])  # fmt: skip
    again = inspection(today - timedelta(days=1), today + timedelta(days=2))
    again["reinspects"] = {"notice": held["reinspected"]}
    again["findings"][0] |= {"found": "Silt fence still down", "corrects": 1}
    recorded(again)
    return held


def officer_inspects(walk: Walk, today: date, held: dict[str, str]) -> None:
    """An inspection at the known site typed on the phone, its notice of deficiency,
    served by hand."""
    walk.start("inspection-report")
    typed = pairs(inspection(today, today + timedelta(days=4)))
    typed.pop("jurisdiction")
    walk.put_all(typed)
    walk.issue(typed, r"/documents/INS-\d{4}-\d{4}")
    walk.press(re.compile("^Issue the notice of deficiency"), r"/documents/NOD-\d{4}-\d{4}")
    walk.serve(
        {"method": "personal-delivery", "date": str(today), **HAND, "served_by": OFFICER["name"]}
    )


REINSPECTED = {  # what the officer types on a reinspection that finds the fence still down
    "time": "09:45",
    "weather": "Clear, 41 °F",
    "findings[0].found": "Silt fence still down; sediment in the inlet",
    "findings[0].result": "deficient",
}
# what the desk may ask of a deficiency found again (the officer answers as the first time)
FOUND_AGAIN = {
    "findings[0].requirement": "§ 228-78D(1)",
    "findings[0].corrective_action": "Reinstall the silt fence and clean the inlet",
}
CORRECTED = {
    "time": "16:30",
    "weather": "Clear, 44 °F",
    "findings[0].found": "Silt fence reinstalled and staked; inlet cleaned",
    "findings[0].result": "satisfactory",
}


def reinspection(walk: Walk, today: date, notice: str, typed: dict[str, str]) -> None:
    """A reinspection of ``notice`` started from its page, ``typed`` into its draft (with
    today's date wherever the desk left it empty), issued."""
    walk.open(f"/documents/{notice}")
    walk.press(re.compile("^Inspection report from this"), r"/drafts/\d+")
    if walk.page.locator(f"#{field_id('findings[0].practice')}").input_value() != "Silt fence":
        walk.stuck("the reinspection's draft does not re-check the silt fence")
    first = {"issued": str(today), "inspected": str(today), **typed}
    walk.fill_empty(first)
    asked = first | FOUND_AGAIN | {"findings[0].due": str(today + timedelta(days=2))}
    walk.issue(asked, r"/documents/INS-\d{4}-\d{4}")


def officer_reinspects(walk: Walk, today: date, held: dict[str, str]) -> None:
    reinspection(walk, today, held["notice"], REINSPECTED)


def escalation(walk: Walk, today: date, notice: str) -> None:
    """The stop-work order from ``notice``'s page: the draft the desk opens, what it asks
    answered (the landowner, whom the inspection did not name; the remedies' dates)."""
    walk.open(f"/documents/{notice}")
    walk.press(re.compile("^Stop-work order from this"))
    if "/drafts/" not in walk.page.url:
        walk.stuck(f"no draft: {walk.said()}")

    answers = pairs({"recipient": LANDOWNER}) | {
        f"remedies[{n}].due": str(today + timedelta(days=3)) for n in range(4)
    }
    walk.fill_empty(answers)
    walk.issue(answers, r"/documents/SWO-\d{4}-\d{4}")


def officer_escalates(walk: Walk, today: date, held: dict[str, str]) -> None:
    escalation(walk, today, held["notice"])


def officer_escalates_reinspected(walk: Walk, today: date, held: dict[str, str]) -> None:
    escalation(walk, today, held["reinspected"])


def officer_approves(walk: Walk, today: date, held: dict[str, str]) -> None:
    """A second reinspection the same day finds the fence reinstalled; the approval of
    corrected work from it."""
    reinspection(walk, today, held["notice"], CORRECTED)
    walk.press(
        re.compile("^Issue the approval of corrected work"), r"/documents/[A-Z]+-\d{4}-\d{4}"
    )


def attorney_easement(walk: Walk, today: date, held: dict[str, Any]) -> None:
    """The easement typed from the sample case, checked, its Word copy downloaded, counsel's
    final (the Word copy with one sentence edited, as in Word) chosen, issued."""
    _, typed = typed_sample("maintenance-easement", "homer-individual")
    page = walk.page
    walk.start("maintenance-easement")
    walk.put_all(typed)
    walk.check(typed)
    word = walk.download(page.get_by_role("link", name=re.compile("Word copy")))
    final = word.with_name("final.docx")
    edited(word, final)
    walk.attach(page.get_by_label(re.compile("^Counsel's final")), final)
    walk.issue(None, r"/documents/[A-Z]+-\d{4}-\d{4}")
    if "County Clerk" not in page.inner_text("main"):
        walk.stuck("issued without counsel's final")


def edited(word: Path, final: Path) -> None:
    """Counsel's edit in Word: the first paragraph that names the grantor's heirs, made
    to name its successors too (no tracked change left: the final is final)."""
    document = docx.Document(str(word))
    for paragraph in document.paragraphs:
        for run in paragraph.runs:
            if " heirs" in run.text:
                run.text = run.text.replace(" heirs", " heirs, successors", 1)
                document.save(str(final))
                return
    raise Stuck("no sentence to edit in the Word copy")


FIRM = "Cortland Site Works, Inc."
SIGNS = {  # the first firm of the sample certification, as it fills in its own details
    "role": "contractor",
    "address.street": "220 Port Watson Street",
    "address.city": "Cortland",
    "address.state": "NY",
    "address.zip": "13045",
    "phone": "607.555.0142",
    "signer.name": "Theresa M. Kowalczyk",
    "signer.title": "President",
    "trained_contractor.name": "Luis Ortega",
    "trained_contractor.trained": "2025-04-02",
    "responsibilities": (
        "Silt fence\nStabilized construction entrance\nInlet protection\nWet pond"
    ),
    "signature": "Theresa M. Kowalczyk",
    "intent": "yes",
}


def contractor_setup(desk: Any, today: date) -> dict[str, str]:
    """The site and the firm's invitation, made by the clerk from the command line: the
    link the firm is handed."""

    def run(*args: str) -> str:
        done = cli(desk.home, *args)
        if done.returncode:
            raise RuntimeError(f"docgen {' '.join(args)}: {done.stderr}")
        return done.stdout + done.stderr

    made = run(
        "certify", "site", "--jurisdiction", "homer",
        "--project", "Tioughnioga Ridge Subdivision, Phase 2",
        "--street", "41 Route 281", "--city", "Homer", "--zip", "13077",
        "--swppp", "SWPPP for Tioughnioga Ridge Phase 2, revision of August 14, 2026",
    )  # fmt: skip
    site = re.search(r"\d+", made).group(0)
    invited = run("certify", "invite", site, "--firm", FIRM)
    return {"link": re.search(r"/certify/[A-Za-z0-9_-]+", invited).group(0), "said": invited}


def contractor_signs(walk: Walk, today: date, held: dict[str, Any]) -> None:
    """The firm opens its link on a phone, fills in its details under the law's statement
    and signs electronically (its name typed, the intent affirmed)."""
    walk.open(held["link"])
    form = walk.page.locator("form:has([name=signature])")
    for name, value in SIGNS.items():
        walk.put(form.locator(f"[name='{name}']"), value)
    walk.click(form.get_by_role("button", name="Sign electronically"))
    if walk.page.get_by_role("alert").count():
        walk.stuck(f"not signed: {walk.said()}")


@dataclass(frozen=True)
class Person:
    user: str  # who signs in ("" for the contractor, who opens a link)
    viewport: dict[str, int]
    setup: Any  # (desk, today) -> what the register holds before the path starts
    segments: tuple[tuple[str, Any, bool], ...]  # (name, walk, whether it needs the one before)


def nothing(desk: Any, today: date) -> dict[str, Any]:
    return {}


PEOPLE = {
    "clerk": Person(
        "ann",
        DESK,
        nothing,
        (
            ("notice of violation: drafted, issued, mailing recorded", clerk_notice, False),
            ("penalty statement from the notice", clerk_penalty, True),
        ),
    ),
    "officer": Person(
        "otto",
        PHONE,
        officer_setup,
        (
            (
                "inspection at a known site, its notice of deficiency, served",
                officer_inspects,
                False,
            ),
            ("reinspection of an earlier notice: still open", officer_reinspects, False),
            ("stop-work order from that notice", officer_escalates, True),
            (
                "stop-work order, reinspection recorded from the command line",
                officer_escalates_reinspected,
                False,
            ),
            ("second reinspection and the approval of corrected work", officer_approves, False),
        ),
    ),
    "attorney": Person(
        "ada",
        DESK,
        nothing,
        (
            (
                "maintenance easement: drafted, Word copy, counsel's final, issued",
                attorney_easement,
                False,
            ),
        ),
    ),
    "contractor": Person(
        "",
        PHONE,
        contractor_setup,
        (("certification from the invitation link, signed", contractor_signs, False),),
    ),
}


def walk(browser: Any, person: str, today: date) -> list[Segment]:
    """``person``'s path on a fresh desk of this checkout: each segment's figures."""
    who = PEOPLE[person]
    home = Path(tempfile.mkdtemp(prefix=f"docgen-journey-{person}-"))
    desk = start_desk(home)
    context = None
    try:
        held = who.setup(desk, today)
        context = browser.new_context(
            base_url=desk.url, viewport=who.viewport, accept_downloads=True
        )
        page = context.new_page()
        page.set_default_timeout(60_000)  # an issue renders on a busy machine
        if who.user:
            sign_in(page, who.user)  # not counted: the same for every path
        w = Walk(page, desk.url, home)
        stuck = False
        for name, run, needs in who.segments:
            w.segment(name)
            if stuck and needs:
                w.close_segment("not reached: it needs the segment before")
                continue
            try:
                run(w, today, held)
                w.close_segment()
                stuck = False
            except (Stuck, PlaywrightError) as why:
                dump(page, f"{person}-stuck")
                w.close_segment(" ".join(str(why).split())[:600])
                stuck = True
        return w.segments
    finally:
        if context is not None:
            context.close()
        stop_desk(desk)
        shutil.rmtree(home, ignore_errors=True)


def walked(people: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Every person's path on this checkout, one Chromium for all: their segments."""
    today = municipal_today(load_pack("homer"))
    os.chdir(CHECKOUT)  # the desk's own process (python -m) imports this checkout's docgen
    browsers = chromium()
    browser = next(browsers)
    try:
        return {p: [asdict(seg) for seg in walk(browser, p, today)] for p in people}
    finally:
        next(browsers, None)


def before_tree(ref: str) -> Path:
    """The tree of commit ``ref`` of this repository, exported to a temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="docgen-before-"))
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def walking_in(tree: Path, people: list[str]) -> subprocess.Popen[str]:
    """The same paths walked by this script against the docgen of ``tree`` (its own test
    helpers too), in a process whose PYTHONPATH and folder are that tree: started, to be
    read by :func:`walked_in` (the two desks walk at once: the counts wait on events, never
    on time)."""
    return subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--json", "--people", ",".join(people)],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def walked_in(walking: subprocess.Popen[str], tree: Path) -> dict[str, list[dict[str, Any]]]:
    out, err = walking.communicate()
    if walking.returncode:
        raise RuntimeError(f"the walk on {tree} failed:\n{err[-3000:]}")
    return json.loads(out)


FIGURES = ("steps", "pages", "values", "refusals")
SIZES = {DESK["width"]: "1280 px", PHONE["width"]: "390 px, a phone"}


def table(after: dict[str, list[dict]], before: dict[str, list[dict]] | None) -> str:
    """Per person, each segment's figures (before -> after) and the path's, with where a
    path stopped, what each refusal said and which values were typed on one side only."""

    def cell(b: dict | None, a: dict, figure: str) -> str:
        now = str(a["count"][figure])
        return now if b is None else f"{b['count'][figure]} -> {now}"

    def total(segments: list[dict]) -> dict:
        return {"count": {f: sum(s["count"][f] for s in segments) for f in FIGURES}}

    lines = []
    for person, segments in after.items():
        was = (before or {}).get(person)
        who = PEOPLE[person]
        lines += ["", f"{person} ({SIZES[who.viewport['width']]})"]
        width = max(len(s["name"]) for s in segments) + 2
        lines.append(" " * (width + 2) + "".join(f"{f:>14}" for f in FIGURES))
        rows = [(s, was[n] if was else None) for n, s in enumerate(segments)]
        rows.append(({"name": "the whole path", **total(segments)}, total(was) if was else None))
        for a, b in rows:
            figures = "".join(f"{cell(b, a, f):>14}" for f in FIGURES)
            lines.append(f"  {a['name']:<{width}}{figures}")
        stopped = [
            f"{side} {sum(1 for s in segs if s['stuck'])} of {len(segs)}"
            for side, segs in (("before", was), ("after", segments))
            if segs and any(s["stuck"] for s in segs)
        ]
        if stopped:
            lines.append(
                f"    segments stopped: {'; '.join(stopped)} (their figures: up to the stop)"
            )
        for n, a in enumerate(segments):
            b = was[n] if was else None
            for side, seg in (("before", b), ("after", a)):
                if seg is None:
                    continue
                if seg["stuck"]:
                    lines.append(f"    {side}, {a['name']}: STOPPED {seg['stuck']}")
                for refusal in seg["refused"]:
                    lines.append(f"    {side}, {a['name']}: refused {refusal}")
            if b is not None:
                only_before = sorted(set(b["typed"]) - set(a["typed"]))
                only_after = sorted(set(a["typed"]) - set(b["typed"]))
                if only_before:
                    lines.append(f"    {a['name']}: typed before only: {', '.join(only_before)}")
                if only_after:
                    lines.append(f"    {a['name']}: typed after only: {', '.join(only_after)}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", default=",".join(PEOPLE), help="whose paths, by comma")
    parser.add_argument("--before", metavar="COMMIT", help="also walk COMMIT's desk (git archive)")
    parser.add_argument("--before-tree", metavar="DIR", help="also walk the desk of a checkout")
    parser.add_argument("--json", action="store_true", help="print the segments as JSON")
    args = parser.parse_args()
    people = args.people.split(",")
    if args.json:
        print(json.dumps(walked(people)))
        return
    before, started = None, time.monotonic()
    tree = Path(args.before_tree) if args.before_tree else None
    if args.before and tree is None:
        tree = before_tree(args.before)
    walking = walking_in(tree, people) if tree is not None else None
    after = walked(people)
    if walking is not None and tree is not None:
        before = walked_in(walking, tree)
        if not args.before_tree:
            shutil.rmtree(tree, ignore_errors=True)
    where = args.before or args.before_tree
    print(
        f"Each person's path on the desk in Chromium ({CHECKOUT.name}"
        + (f"; before: {where}" if where else "")
        + ")"
    )
    print("steps: clicks and submits; pages: documents the browser loaded; values: fields the")
    print("person filled (what the desk filled in is not counted); refusals: pages answering 4xx.")
    print(table(after, before))
    print(f"\n{time.monotonic() - started:.0f} s; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
