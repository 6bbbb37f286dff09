"""The audit trail: who did what, and when, written in the same transaction as the change."""

from __future__ import annotations

import getpass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from docgen.register.storage.models import AuditEntry


def actor(by: str | None = None) -> str:
    """Who acts: the ``--by`` name given, or the operating system's user."""
    if by and by.strip():
        return by.strip()
    try:
        return getpass.getuser()
    except Exception:  # no user name on this system (e.g. a container without passwd)
        return "unknown"


def record(
    session: Session, who: str, action: str, entity: str, entity_id: int, detail: dict[str, Any]
) -> None:
    session.add(
        AuditEntry(
            at=datetime.now().astimezone(),
            actor=who,
            action=action,
            entity=entity,
            entity_id=entity_id,
            detail=detail,
        )
    )
