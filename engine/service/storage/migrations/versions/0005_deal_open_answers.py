"""Deal games in progress keep the Just Say No windows they were played with (D-13 open_answers)

The Deal rules now ask every target of an action to answer it, whether or not they hold a Just
Say No (``DealOptions.open_answers``, True by default). A table in progress is rebuilt from its
action log at start-up, and its log was recorded with the old windows (one only for a player
who held the card), so each running or paused Deal table gets ``"open_answers": false`` in its
``options``; the other keys stay. Old rows whose options are NULL or ``{}`` get
``{"ruleset": <the row's ruleset>, "open_answers": false}``. The stored snapshot, when it
decodes, gets the same value in its options, so a process that trusts the snapshot plays on with
the same rules as the replay of the log. Data only: the schema does not change.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-08 12:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from engine.service.storage.migrations.rows import LIVE, snapshot_options, tables

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(tables.c.id, tables.c.ruleset, tables.c.options, tables.c.snapshot)
        .where(tables.c.game == 'deal', tables.c.status.in_(LIVE))
    ).all()
    for row in rows:
        options = dict(row.options) if isinstance(row.options, dict) else {}
        if not options:
            options = {'ruleset': row.ruleset}
        options['open_answers'] = False
        conn.execute(
            tables.update().where(tables.c.id == row.id)
            .values(options=options, snapshot=snapshot_options(row.snapshot, {'open_answers': False}))
        )


def downgrade() -> None:
    """The rules before 0005 know no ``open_answers`` (an unknown option stops a replay): it is
    taken out of every Deal table's options again."""
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(tables.c.id, tables.c.options, tables.c.snapshot).where(tables.c.game == 'deal')
    ).all()
    for row in rows:
        if not isinstance(row.options, dict) or 'open_answers' not in row.options:
            continue
        options = {k: v for k, v in row.options.items() if k != 'open_answers'}
        conn.execute(
            tables.update().where(tables.c.id == row.id)
            .values(options=options, snapshot=snapshot_options(row.snapshot, {}, ('open_answers',)))
        )
