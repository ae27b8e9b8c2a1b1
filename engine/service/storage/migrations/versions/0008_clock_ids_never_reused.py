"""A clock's id is never given to another clock (SQLite ``AUTOINCREMENT``)

Without it SQLite hands a new row the largest id plus one, so a clock deleted by a move while it
held the largest id gave its id to the table's next clock; a sweep that had read the old clock
could then claim the new one by that id and retire it (issue 32). PostgreSQL's sequence never
reuses an id: nothing changes there. The table is rebuilt with its rows (Alembic's batch mode).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 06:00:00.000000
"""

from __future__ import annotations

from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name != 'sqlite':
        return
    with op.batch_alter_table('deadlines', recreate='always', table_kwargs={'sqlite_autoincrement': True}):
        pass


def downgrade() -> None:
    if op.get_bind().dialect.name != 'sqlite':
        return
    with op.batch_alter_table('deadlines', recreate='always', table_kwargs={'sqlite_autoincrement': False}):
        pass
