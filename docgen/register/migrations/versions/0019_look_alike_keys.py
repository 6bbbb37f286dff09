"""Names' keys read anew: the loose key reads the letters Unicode's confusables (UTS #39)
pair with other shapes (Cyrillic п, т, к, н, м, в, ь, ш, щ, ґ; Greek κ, ω, χ: matching.
EXTRA_LOOK_ALIKES), so a name written wholly in look-alikes ("Јоһп Ѕтітһ") is asked about;
a space inside a Chinese, Japanese or Korean name is no word break (0015 said its keys
were recomputed, and they were not). Every respondent's and alias's name and loose key,
and every address key, is computed again; the schema does not change.

Revision ID: 0019
Revises: 0018
"""

from alembic import op

from docgen.register.migrations.keys import rekey

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    rekey(op.get_bind())


def downgrade() -> None:
    """Keys read the new way are still keys; an older docgen reads the ones it finds."""
