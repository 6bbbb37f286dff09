"""Names' and addresses' keys computed again by docgen.register.people.matching, for a migration
that changes how they are read: each row whose key differs is updated, the rest left."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from docgen.register.people.matching import address_key, loose_key, name_key


def rekey(conn: Connection) -> int:
    """Recompute every respondent's and alias's name and loose key, and every address key;
    the number of rows changed."""
    changed = 0
    update = "UPDATE {} SET name_key = :key, loose_key = :loose WHERE id = :id"
    for table in ("respondents", "respondent_aliases"):
        rows = conn.execute(sa.text(f"SELECT id, name, name_key, loose_key FROM {table}")).all()
        for row_id, name, key, loose in rows:
            if (key, loose) != (name_key(name), loose_key(name)):
                conn.execute(
                    sa.text(update.format(table)),
                    {"key": name_key(name), "loose": loose_key(name), "id": row_id},
                )
                changed += 1
    rows = conn.execute(
        sa.text("SELECT id, street, city, state, zip, address_key FROM respondent_addresses")
    ).all()
    for row_id, street, city, state, zip_code, key in rows:
        if key != address_key(street, city, state, zip_code):
            conn.execute(
                sa.text("UPDATE respondent_addresses SET address_key = :key WHERE id = :id"),
                {"key": address_key(street, city, state, zip_code), "id": row_id},
            )
            changed += 1
    return changed
