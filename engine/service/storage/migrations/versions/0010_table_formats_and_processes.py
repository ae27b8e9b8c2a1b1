"""A table's format version, and the processes serving the database with what they read (issue 46)

Expand only (docs/operations.md, "Rolling deploys"): a column with a default and a new table, so a
process of the previous release goes on reading and writing beside one of this release.

- ``tables.format``: the version of everything the processes share about a table (its snapshot
  and action log, its message record, its clocks, its buttons' tokens), set when the table is
  made and kept to its end (``engine/service/storage/formats.py``). Every table before is 1.
- ``processes``: one row per running process (its name, build, the table formats it reads, when
  it was last seen), so a process makes new tables only in a format every running one reads.
- On a database that already holds tables, processes of the build before may still be running
  (they register nothing): new tables are capped at format 1 (``formats.cap`` in ``settings``)
  until ``tycoon processes --older-gone``.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06 10:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('tables', sa.Column('format', sa.Integer(), nullable=False, server_default='1'))
    op.create_table(
        'processes',
        sa.Column('name', sa.String(), primary_key=True),
        sa.Column('build', sa.String(), nullable=False, server_default=''),
        sa.Column('reads', sa.JSON(), nullable=True),
        sa.Column('started_at', sa.Float(), nullable=False),
        sa.Column('seen_at', sa.Float(), nullable=False),
    )
    bind = op.get_bind()
    if bind.execute(sa.text('SELECT COUNT(*) FROM tables')).scalar():
        bind.execute(sa.text("INSERT INTO settings (key, value) VALUES ('formats.cap', '1')"))


def downgrade() -> None:
    op.execute("DELETE FROM settings WHERE key = 'formats.cap'")
    op.drop_table('processes')
    # a plain DROP COLUMN (SQLite 3.35+ has it): batch mode would rebuild ``tables``, which the
    # foreign keys of actions and deadlines forbid
    op.execute('ALTER TABLE tables DROP COLUMN format')
