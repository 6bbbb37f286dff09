"""What is due, on the desk's home page (LAW.md § 12): the calendar of docgen.register.reading.due
for the signed-in officer or clerk, overdue first, then today, this week and later, and
what is in effect; each item links to the document to act on. An officer sees their own
by default (what comes from the documents they recorded: docgen.register.reading.due), a clerk
everything; either may look at the other view (``?whose=mine`` or ``?whose=all``). A
user's own calendar feed (iCalendar: their own items) is served at a secret address
made and revoked here, without a session: the address is the credential, and the
register keeps only its SHA-256."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from docgen.desk.base.web import guarded, posted, register, render
from docgen.errors import DocgenError
from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack
from docgen.register.reading.due import Due, calendar
from docgen.register.reading.feed import ics, new_token, revoke, user_of

HORIZON = timedelta(days=30)  # dated items shown ahead on the page; the feed has them all
EVERYTHING_FIRST = ("clerk",)  # the roles whose page shows everything unless asked
FEED_TYPE = "text/calendar; charset=utf-8"


def grouped(items: list[Due]) -> dict[str, list[Due]]:
    """Overdue, today, this week, later, in effect: the page's sections, in that order."""
    groups: dict[str, list[Due]] = {
        "Overdue": [],
        "Today": [],
        "This week": [],
        "Later": [],
        "In effect": [],
    }
    todays: dict[str, date] = {}  # each municipality's today, its pack read once
    for item in items:
        today = todays.get(item.jurisdiction) or todays.setdefault(
            item.jurisdiction, municipal_today(load_pack(item.jurisdiction))
        )
        if item.ongoing:
            groups["In effect"].append(item)
        elif item.overdue:
            groups["Overdue"].append(item)
        elif item.day == today:
            groups["Today"].append(item)
        elif item.day <= today + timedelta(days=7):
            groups["This week"].append(item)
        elif item.day <= today + HORIZON:
            groups["Later"].append(item)
    return groups


def _show(request: Request, feed: str = "", revoked: int | None = None) -> Response:
    visitor = request.scope["visitor"]
    whose = request.query_params.get("whose")
    if whose not in ("mine", "all"):
        whose = "all" if visitor.role in EVERYTHING_FIRST else "mine"
    items = calendar(register(request), user=visitor.name if whose == "mine" else None)
    return render(
        request, "due.html.j2", groups=grouped(items), feed=feed, revoked=revoked, whose=whose
    )


@guarded(None)
def page(request: Request) -> Response:
    return _show(request)


@guarded(None)
def make_feed(request: Request) -> Response:
    posted(request)
    visitor = request.scope["visitor"]
    token = new_token(register(request), visitor.name)
    return _show(request, feed=f"{request.base_url}calendar/{token}.ics")


@guarded(None)
def revoke_feed(request: Request) -> Response:
    posted(request)
    gone = revoke(register(request), request.scope["visitor"].name)
    return _show(request, revoked=gone)


def feed(request: Request) -> Response:
    """The feed at its secret address; a revoked or unknown one is not found."""
    reg = register(request)
    token = request.path_params["token"]
    try:
        user = user_of(reg, token)
    except DocgenError:
        return Response("not found", status_code=404, media_type="text/plain")
    items = calendar(reg, user=user)  # the user's own
    packs = [load_pack(j) for j in sorted({i.jurisdiction for i in items})]
    zone = packs[0].part("certification").time_zone.value if packs else "UTC"
    made = min((municipal_today(p) for p in packs), default=datetime.now(UTC).date())
    body = ics(items, f"docgen: due for {user}", zone, made)
    return Response(body, media_type=FEED_TYPE, headers={"Cache-Control": "no-store"})


routes = [
    Route("/due", page, methods=["GET"]),
    Route("/due/feed", make_feed, methods=["POST"]),
    Route("/due/feed/revoke", revoke_feed, methods=["POST"]),
    Route("/calendar/{token}.ics", feed, methods=["GET"]),
]
