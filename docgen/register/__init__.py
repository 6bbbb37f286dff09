"""The register: every issued document numbered, kept and verifiable, with the offense
history the penalty reads. ``Register.open()`` is the door; see docgen.register.store.

The names below load on first use, so attaching the register's commands to ``docgen``
costs its start-up nothing (SQLAlchemy and the renderers load when a command runs).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as the type checker reads them; loaded on first use below
    from docgen.register.matter.asked import Issue as Issue
    from docgen.register.matter.service_event import Service as Service
    from docgen.register.people.respondents import AmbiguousRespondent as AmbiguousRespondent
    from docgen.register.storage.db import RegisterError as RegisterError
    from docgen.register.store import Register as Register

_HOMES = {
    "Register": "docgen.register.store",
    "RegisterError": "docgen.register.storage.db",
    "AmbiguousRespondent": "docgen.register.people.respondents",
    "Service": "docgen.register.matter.service_event",
    "Issue": "docgen.register.matter.asked",
}
__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'docgen.register' has no attribute {name!r}")
