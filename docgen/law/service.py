"""When service of a notice is complete for its appeal period (§ 228-79C(1)(f); LAW.md § 2).

The article says only "within 15 days of service". Readings chosen so that a notice
never states a deadline earlier than one a court could accept (for counsel to confirm):
personal delivery is complete on delivery; by mail, on the day of receipt when known
(return receipt), else on the mailing day plus the days of CPLR 2103(b)(2), by analogy;
posting at the site (with a copy mailed) on the later of posting and mailing.
"""

from __future__ import annotations

from datetime import date, timedelta

MAIL = ("certified-mail", "first-class-mail")
MAIL_DAYS = 5  # CPLR 2103(b)(2): five days added to a period measured from mailing


def clock_start(method: str, on: date, received: date | None, mailed: date | None):
    """The day the appeal period runs from, and the rule used, in words."""
    if method == "personal-delivery":
        return on, "personal delivery: complete on delivery, the period runs from that day"
    if method in MAIL:
        if received is not None:
            return received, "service by mail: the period runs from the day of receipt"
        return on + timedelta(days=MAIL_DAYS), (
            f"service by mail, no day of receipt known: the period runs from the mailing "
            f"day plus {MAIL_DAYS} days (CPLR 2103(b)(2), by analogy)"
        )
    if mailed is None:
        raise ValueError("service by posting counts with the copy mailed; the mailing is missing")
    return max(on, mailed), "posting and mailing: the period runs from the later of the two"
