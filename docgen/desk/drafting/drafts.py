"""Drafts: a case filled in on a form, checked by the law as it is typed, previewed, issued.

Every post saves what was typed before anything else happens, so a bad submit, a reload
or an expired session loses nothing. The checks are docgen's own (``api.check``), the
figures the penalty engine's: the desk holds no rule of its own. A draft states no last
day to appeal: a served kind's draft does not ask for service (LAW.md § 2, print first,
serve second), and the one last day the desk shows is the register's, on the issued
document's page, from the recorded service events.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from docgen import api
from docgen.cases import labels
from docgen.desk.base import auth, forms
from docgen.desk.base.database import Draft, now
from docgen.desk.base.web import (
    CSRF_FIELD,
    ONCE_FIELD,
    PREVIEW_CSP,
    attachment,
    database,
    guarded,
    id_of,
    once,
    posted,
    render,
)
from docgen.desk.drafting import choosing, draft_files
from docgen.desk.server import renderers
from docgen.documents import KINDS, a_title, get_kind, kinds_with
from docgen.documents.kind import LANGUAGES, Options
from docgen.errors import CaseInvalid, DocgenError, Problem
from docgen.law.packs import load_pack, pack_names
from docgen.register.people.choices import Choice, choices, penalty_with, priors_of
from docgen.register.people.respondents import NEW


@dataclass
class Checked:
    """What the law says of a draft now: problems, warnings and the live figures."""

    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    penalty: dict[str, Any] | None = None
    history: bool = False  # the kind's penalty reads the respondent's history
    respondent: Any = None  # the register's record an issue would take without asking
    candidates: list[Any] = field(default_factory=list)  # records it may be
    # While which record it is is a question: each answer with the penalty it gives (and
    # ``penalty`` is None: no one figure is shown before the clerk chooses).
    choices: list[Choice] = field(default_factory=list)
    # The language the recipient prefers (LAW.md § 13): as typed, else as the register
    # keeps it for the respondent an issue would take; the Language choice starts there.
    language: str | None = None

    @property
    def ready(self) -> bool:
        return not self.problems

    @property
    def question(self) -> bool:
        """Records may be this respondent and none is taken without asking: which one it
        is, and so its history and penalty, is the clerk's choice on issue."""
        return self.respondent is None and bool(self.candidates)


def check(draft: Draft, register: Any) -> Checked:
    data = forms.case_data(draft.kind, draft.jurisdiction, draft.fields)
    result = Checked()
    try:
        result.warnings = api.check(draft.kind, data, _options(draft))
    except CaseInvalid as err:
        result.problems = err.problems
    except DocgenError as err:
        result.problems = [Problem("", str(err))]
    if get_kind(draft.kind).reads_history:  # the penalty reads the history (§ 228-79C(4))
        result.history = True
        result.warnings += register.history_incomplete()  # an import not finished
        figures(register, draft, data, result)
    if renditions(draft.kind):
        result.language = _preferred(register, draft.kind, data, result)
    model = get_kind(draft.kind).model  # each warning in the form's words
    result.warnings = [labels.for_person(w, model) for w in result.warnings]
    return result


def figures(register: Any, draft: Draft, data: dict[str, Any], result: Checked) -> None:
    """The penalty an issue would state (§ 228-79C(4)): with the prior offenses of the
    record it would take; while which record it is is a question, each answer's penalty
    (result.choices) and no one figure, so nothing shown can disagree with the issue."""
    _match(register, draft.kind, data, result)
    if result.question:
        result.choices = choices(register, draft.jurisdiction, data, result.candidates)
        return
    taken = result.respondent.id if result.respondent is not None else None
    priors = priors_of(register, draft.jurisdiction, data, taken)
    result.penalty = penalty_with(data, priors)


def _preferred(register: Any, kind: str, data: dict[str, Any], result: Checked) -> str | None:
    """The recipient's preferred language: the draft's, else the register's record's."""
    typed = (choosing.party_of(kind, data) or {}).get("language")
    if typed:
        return str(typed)
    if not result.history:  # the history's match is not made for this kind: made here
        _match(register, kind, data, result)
    return result.respondent.language if result.respondent is not None else None


def _match(register: Any, kind: str, data: dict[str, Any], result: Checked) -> None:
    """The register's records for the draft's party (result.respondent, candidates)."""
    result.respondent, result.candidates = choosing.match(register, kind, data)


def as_submitted(pairs: list[list[str]]) -> list[list[str]]:
    """The pairs of a draft that was submitted: from then on every problem is shown."""
    return [*(p for p in pairs if p[0] != "_submitted"), ["_submitted", "1"]]


def _options(draft: Draft) -> Options:
    review = forms.values(draft.fields).get("_review") == "1"
    return Options(
        review=review and get_kind(draft.kind).review, case_dir=draft_files.case_dir(draft)
    )


def _pairs(request: Request) -> list[list[str]]:
    """The typed (name, value) pairs of a post, without the CSRF token or buttons."""
    return [
        [name, value]
        for name, value in posted(request).multi_items()
        if isinstance(value, str) and name not in (CSRF_FIELD, ONCE_FIELD, "_action")
    ]


def own_draft(request: Request) -> Draft | None:
    """The visitor's own draft named in the path, of a kind their role drafts."""
    draft_id = id_of(request.path_params["draft"])
    if draft_id is None:
        return None
    visitor = request.scope["visitor"]
    with database(request)() as s:
        draft = s.get(Draft, draft_id)
    if draft is None or draft.user_id != visitor.user_id or not _may_draft(request, draft.kind):
        return None
    return draft


DraftPage = Callable[[Request, Draft], Response]


def on_draft(
    permission: str | None = None, saves_when_expired: bool = False
) -> Callable[[DraftPage], Callable[[Request], Awaitable[Response]]]:
    """A guarded route about one of the visitor's drafts (anyone else's is not found)."""

    def wrap(page: DraftPage) -> Callable[[Request], Awaitable[Response]]:
        @guarded(permission, saves_when_expired)
        @wraps(page)
        def route(request: Request) -> Response:
            draft = own_draft(request)
            if draft is None:
                return render(request, "missing.html.j2", status=404, what="draft")
            return page(request, draft)

        return route

    return wrap


def save(request: Request, draft: Draft, pairs: list[list[str]]) -> Draft:
    with request.app.state.db.begin() as s:
        row = s.get(Draft, draft.id)
        row.fields = pairs
        row.updated = now()
    draft.fields, draft.updated = pairs, row.updated
    return draft


def _may_draft(request: Request, kind: str) -> bool:
    return kind in auth.kinds_for(request.scope["visitor"].role)


@guarded(None)
def list_drafts(request: Request) -> Response:
    visitor = request.scope["visitor"]
    with request.app.state.db() as s:
        rows = list(
            s.scalars(
                select(Draft)
                .where(Draft.user_id == visitor.user_id, Draft.issued_as.is_(None))
                .order_by(Draft.updated.desc())
            )
        )
    choices = [(k, get_kind(k).title, providing(k)) for k in auth.kinds_for(visitor.role)]
    packs = [load_pack(j) for j in pack_names()]
    return render(
        request,
        "drafts.html.j2",
        drafts=rows,
        choices=choices,
        municipalities=[(p.id, p.name.value) for p in packs],
        chosen=_latest_jurisdiction(request),
        no_notices=[p.name.value for p in packs if not p.provides(opening_kind())],
    )


def opening_kind() -> str:
    """The kind a matter opens with (the kind description's ``opens_matter``): what the
    desk's "Start a notice" drafts, for a respondent or at a site."""
    (kind,) = kinds_with(opens_matter=True)
    return kind


def providing(kind: str) -> list[str]:
    """The installed municipalities whose law provides ``kind``."""
    return [j for j in pack_names() if load_pack(j).provides(kind)]


def _latest_jurisdiction(request: Request) -> str | None:
    """The municipality of the visitor's latest draft: their default for the next one."""
    with database(request)() as s:
        return s.scalars(
            select(Draft.jurisdiction)
            .where(Draft.user_id == request.scope["visitor"].user_id)
            .order_by(Draft.updated.desc())
            .limit(1)
        ).first()


def default_jurisdiction(request: Request, kind: str) -> str | None:
    """The municipality of a new ``kind`` when the case says none: the visitor's latest
    draft's, else the only installed one whose law provides the kind (None: a choice)."""
    latest, candidates = _latest_jurisdiction(request), providing(kind)
    if latest in candidates:
        return latest
    return candidates[0] if len(candidates) == 1 else None


@guarded(None)
def start(request: Request) -> Response:
    return once(request, _start)


def _start(request: Request) -> Response:
    form = posted(request)
    kind, jurisdiction = str(form.get("kind") or ""), str(form.get("jurisdiction") or "")
    if kind in KINDS and KINDS[kind].made_by_register:  # its step's form makes it
        why = (
            f"{labels.capital(a_title(kind))} is not drafted: it is made from the document it "
            "rests on, "
            "by the form on that document's page"
        )
        return render(request, "denied.html.j2", status=400, why=why)
    if not _may_draft(request, kind):
        return render(request, "denied.html.j2", status=403, why="your role may not draft this")
    if jurisdiction not in providing(kind):
        named = a_title(kind) if kind in KINDS else "that kind of document"
        return render(
            request, "denied.html.j2", status=400, why=f"{jurisdiction} does not provide {named}"
        )
    return new_draft(request, kind, jurisdiction, [])


def new_draft(request: Request, kind: str, jurisdiction: str, pairs: list[list[str]]) -> Response:
    """A draft of the visitor's, filled with ``pairs`` (and the visitor as the issuing
    officer, when the kind names one and their full name is known); the browser is sent
    to it."""
    visitor = request.scope["visitor"]
    named = {name for name, _ in pairs}
    if "officer" in get_kind(kind).model.model_fields and visitor.full_name:
        if "officer.name" not in named:
            pairs = [*pairs, ["officer.name", visitor.full_name]]
        if "officer.title" not in named and visitor.title:
            pairs = [*pairs, ["officer.title", visitor.title]]
    with request.app.state.db.begin() as s:
        draft = Draft(user_id=visitor.user_id, kind=kind, jurisdiction=jurisdiction, fields=pairs)
        s.add(draft)
        s.flush()
        draft_id = draft.id
    return RedirectResponse(f"/drafts/{draft_id}", status_code=303)


def _page(
    request: Request, draft: Draft, checked: Checked, submitted: bool, stale: str = ""
) -> Response:
    node = forms.form_for(draft.kind, draft.jurisdiction)
    paths = forms.paths_of(node, draft.fields)
    shown = checked.problems if submitted else []
    return render(
        request,
        "draft.html.j2",
        draft=draft,
        title=get_kind(draft.kind).title,
        form=node,
        uploads=forms.uploads(
            node
        ),  # file fields: sent to the draft (docgen.desk.drafting.uploads)
        values=forms.values(draft.fields),
        rows=lambda path: forms.rows(draft.fields, path),
        errors=forms.errors_of(shown, set(paths), draft.kind),
        input_id=forms.input_id,
        checked=checked,
        submitted=submitted,
        stale=stale,
        **_abilities(request, draft),
    )


STALE = (
    "This page was out of date (you signed in again, or out, in another tab), so what you "
    "typed has not been saved yet. Nothing is lost: it is all in the form below. Press "
    "Save and check to keep it."
)


def _unsaved(request: Request, draft: Draft, pairs: list[list[str]]) -> Response:
    """The draft's page filled with what was posted, unsaved, under a current token."""
    shown = Draft(
        id=draft.id,
        user_id=draft.user_id,
        kind=draft.kind,
        jurisdiction=draft.jurisdiction,
        fields=pairs,
        updated=draft.updated,
    )
    response = _page(request, shown, Checked(), submitted=False, stale=STALE)
    response.status_code = 409
    return response


def _abilities(request: Request, draft: Draft) -> dict[str, Any]:
    # register.matter.finals loads lxml (+15 ms): loaded on first use
    from docgen.register.matter.finals import instruments

    return {
        "review_mode": get_kind(draft.kind).review,
        "may_issue": _may_draft(request, draft.kind),
        "takes_final": draft.kind in instruments(),  # counsel's final text may be uploaded
        "takes_copies": get_kind(draft.kind).copies,  # a copy for each person in copies_to
        "takes_photos": draft_files.takes_photos(draft.kind),  # sent from the phone
        "renditions": renditions(draft.kind),  # courtesy renditions it may be issued with
    }


def renditions(kind: str) -> list[tuple[str, str]]:
    """(code, name) of each language ``kind`` has a courtesy rendition in (LAW.md § 13)."""
    offered = getattr(get_kind(kind), "renditions", ())
    return [(code, LANGUAGES[code][0]) for code in offered]


@on_draft()
def show(request: Request, draft: Draft) -> Response:
    submitted = forms.values(draft.fields).get("_submitted") == "1"
    return _page(request, draft, check(draft, request.app.state.register()), submitted)


@on_draft(saves_when_expired=True)
def submit(request: Request, draft: Draft) -> Response:
    """Save first; then add or remove a row, or check everything and show every problem."""
    pairs = _pairs(request)
    if request.scope["stale"]:
        return _unsaved(request, draft, pairs)
    action = str(posted(request).get("_action") or "check")
    if action.startswith("add:"):
        path = action.removeprefix("add:")
        pairs = forms.with_row(pairs, path)
        save(request, draft, pairs)
        # The fragment names the field itself: Chromium focuses a focusable target of a
        # fragment and takes focus away from the page when the target is not (a fieldset).
        anchor = forms.focus_after_add(forms.form_for(draft.kind, draft.jurisdiction), path, pairs)
        return RedirectResponse(f"/drafts/{draft.id}#{anchor}", status_code=303)
    if action.startswith("remove:"):
        path, _, index = action.removeprefix("remove:").rpartition(":")
        row = id_of(index)
        pairs = forms.without_row(pairs, path, -1 if row is None else row)
        save(request, draft, pairs)
        form = forms.form_for(draft.kind, draft.jurisdiction)
        anchor = forms.focus_after_remove(form, path, -1 if row is None else row)
        return RedirectResponse(f"/drafts/{draft.id}#{anchor}", status_code=303)
    # Checked on the page it redirects to (a reload never posts stale values again);
    # from now on every problem is shown, not only those of the fields left.
    save(request, draft, as_submitted(pairs))
    if request.scope["expired"]:
        return RedirectResponse("/login?saved=1", status_code=303)
    return RedirectResponse(f"/drafts/{draft.id}", status_code=303)


@on_draft(saves_when_expired=True)
def live(request: Request, draft: Draft) -> Response:
    """A field was left: save, check, and send back the errors, summary and figures."""
    pairs = _pairs(request)
    if request.scope["stale"]:
        return render(request, "stale.html.j2", status=200)
    if forms.values(draft.fields).get("_submitted") == "1":
        # A check left in flight by a submit may arrive after it: it keeps the draft
        # submitted (every problem shown), whatever its page said.
        pairs = as_submitted(pairs)
    save(request, draft, pairs)
    if request.scope["expired"]:
        return render(request, "expired.html.j2", status=200)
    checked = check(draft, request.app.state.register())
    node = forms.form_for(draft.kind, draft.jurisdiction)
    paths = forms.paths_of(node, draft.fields)
    typed = forms.values(pairs)
    submitted = typed.get("_submitted") == "1"
    visited = set(filter(None, typed.get("_visited", "").split(" ")))
    shown = [
        p
        for p in checked.problems
        if submitted or any(p.field == v or v.startswith(p.field + ".") for v in visited)
    ]
    errors = forms.errors_of(shown, set(paths), draft.kind)
    return render(
        request,
        "live.html.j2",
        draft=draft,
        errors=errors,
        paths=paths,
        input_id=forms.input_id,
        checked=checked,
        stamp=int(draft.updated.timestamp() * 1000) if draft.updated else 0,
        **_abilities(request, draft),
    )


@on_draft()
def preview(request: Request, draft: Draft) -> Response:
    """The document's HTML as it stands, for the page's preview frame (nothing runs in it)."""
    data = forms.case_data(draft.kind, draft.jurisdiction, draft.fields)
    options = _options(draft)
    if get_kind(draft.kind).reads_history:
        data_or_question = _with_history(request, draft, data)
        if isinstance(data_or_question, Response):
            return data_or_question
        data = data_or_question
    tag, result = renderers.run(
        renderers.preview, draft.kind, data, options.review, options.case_dir
    )
    if tag == "problems":
        errors = forms.errors_of(result, set(), draft.kind)
        response = render(request, "preview_blocked.html.j2", errors=errors)
        response.headers["content-security-policy"] = PREVIEW_CSP
        return response
    return HTMLResponse(result, headers={"content-security-policy": PREVIEW_CSP})


def _with_history(request: Request, draft: Draft, data: dict[str, Any]) -> Any:
    """The draft with the prior offenses the issue would read (§ 228-79C(4)); while which
    record the respondent is is a question, the frame's page that says so and lists each
    answer's penalty, unless the answer to show it for is asked (``?as=ID``, ``?as=new``):
    never one penalty as if it were settled."""
    register = request.app.state.register()
    matched = Checked(history=True)
    _match(register, draft.kind, data, matched)
    taken = matched.respondent.id if matched.respondent is not None else None
    if matched.question:
        asked = request.query_params.get("as")
        if asked not in {NEW, *(str(c.id) for c in matched.candidates)}:
            matched.choices = choices(register, draft.jurisdiction, data, matched.candidates)
            response = render(request, "preview_question.html.j2", draft=draft, checked=matched)
            response.headers["content-security-policy"] = PREVIEW_CSP
            return response
        taken = None if asked == NEW else int(str(asked))
    return {**data, "prior_offenses": priors_of(register, draft.jurisdiction, data, taken)}


@on_draft("instruments")
def word_copy(request: Request, draft: Draft) -> Response:
    """An attorney's working copy in Word (review mode as the draft says); not issued."""
    data = forms.case_data(draft.kind, draft.jurisdiction, draft.fields)
    options = _options(draft)
    tag, result = renderers.run(renderers.word, draft.kind, data, options.review, options.case_dir)
    if tag == "problems":
        return _page(request, draft, Checked(problems=result), submitted=True)
    return Response(
        result,
        media_type="application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        headers={"content-disposition": attachment(f"draft-{draft.id}-{draft.kind}.docx")},
    )


def issuable(draft: Draft) -> dict[str, Any]:
    """The draft's case for the register: it assigns the number and reads the priors."""
    data = forms.case_data(draft.kind, draft.jurisdiction, draft.fields)
    data.pop("number", None)
    return data


def refused(request: Request, draft: Draft, problems: list[Problem]) -> Response:
    """The draft's page with the register's or the law's refusal beside the fields."""
    return _page(request, draft, Checked(problems=problems), submitted=True)


def mark_issued(request: Request, draft: Draft, number: str) -> None:
    with request.app.state.db.begin() as s:
        s.get(Draft, draft.id).issued_as = number


@on_draft()
def discard_page(request: Request, draft: Draft) -> Response:
    """Asks before a draft is deleted."""
    return render(request, "discard.html.j2", draft=draft, title=get_kind(draft.kind).title)


@on_draft()
def discard(request: Request, draft: Draft) -> Response:
    def act(request: Request) -> Response:
        with request.app.state.db.begin() as s:
            row = s.get(Draft, draft.id)
            if row is not None:
                s.delete(row)
        draft_files.discard(draft.id)
        return RedirectResponse("/drafts", status_code=303)

    return once(request, act)


routes = [
    Route("/drafts", list_drafts, methods=["GET"]),
    Route("/drafts", start, methods=["POST"]),
    Route("/drafts/{draft}", show, methods=["GET"]),
    Route("/drafts/{draft}", submit, methods=["POST"]),
    Route("/drafts/{draft}/live", live, methods=["POST"]),
    Route("/drafts/{draft}/preview", preview, methods=["GET"]),
    Route("/drafts/{draft}/word", word_copy, methods=["GET"]),
    Route("/drafts/{draft}/discard", discard_page, methods=["GET"]),
    Route("/drafts/{draft}/discard", discard, methods=["POST"]),
]
