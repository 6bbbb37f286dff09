"""The job queue, on PostgreSQL only: procrastinate's schema (jobs, workers and their
heartbeats, events) and the results its jobs store, in a schema of their own,
``docgen_queue``, apart from the register's tables. A SQLite register has no queue: one
machine renders with the local process pool.

procrastinate's SQL is the one its installed release ships (pyproject pins the release
line, so this migration always installs the same schema); a later procrastinate needs a
new migration applying its own migration files.

Revision ID: 0002
Revises: 0001
"""

from importlib import resources

from alembic import op

from docgen.register.storage.db import DatabaseFailure

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

SCHEMA = "docgen_queue"

RESULTS = f"""
CREATE TABLE {SCHEMA}.results (
    batch text NOT NULL,
    key text NOT NULL,
    stem text NOT NULL DEFAULT '',
    number text,
    warnings jsonb NOT NULL DEFAULT '[]',
    error text,
    cause text,
    seconds jsonb NOT NULL DEFAULT '{{}}',
    cpu_seconds jsonb NOT NULL DEFAULT '{{}}',
    done boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (batch, key)
);
CREATE TABLE {SCHEMA}.result_files (
    batch text NOT NULL,
    key text NOT NULL,
    format text NOT NULL,
    sha256 text NOT NULL,
    size bigint NOT NULL,
    data bytea NOT NULL,
    PRIMARY KEY (batch, key, format),
    FOREIGN KEY (batch, key) REFERENCES {SCHEMA}.results ON DELETE CASCADE
);
"""


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    schema_sql = (resources.files("procrastinate.sql") / "schema.sql").read_text("utf-8")
    raw = bind.connection.driver_connection
    if raw is None:  # the pool gave back an invalidated connection: nothing to run on
        raise DatabaseFailure("the connection to PostgreSQL was lost; nothing was changed")
    saved = raw.execute("SELECT current_setting('search_path')").fetchone()[0]
    raw.execute(f"CREATE SCHEMA {SCHEMA}")
    # procrastinate's functions name their tables unqualified: they are created, and
    # later found (the queue's connections set this search_path), in the queue's schema.
    raw.execute(f"SET LOCAL search_path TO {SCHEMA}")
    raw.execute(schema_sql)  # no parameters: psycopg sends the whole script as it is
    raw.execute(RESULTS)
    raw.execute("SELECT set_config('search_path', %s, true)", (saved,))


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP SCHEMA {SCHEMA} CASCADE")
