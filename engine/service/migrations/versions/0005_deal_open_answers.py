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

import json

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

LIVE = ('running', 'paused')

tables = sa.table(
    'tables',
    sa.column('id', sa.Integer),
    sa.column('game', sa.String),
    sa.column('ruleset', sa.String),
    sa.column('status', sa.String),
    sa.column('options', sa.JSON),
    sa.column('snapshot', sa.Text),
)


def _with_option(snapshot: str | None, value: bool | None) -> str | None:
    """The snapshot with ``open_answers`` set in its options (``None``: removed); unchanged when
    it does not decode as a Deal state (the log decides then, as for any snapshot)."""
    if not snapshot:
        return snapshot
    try:
        state = json.loads(snapshot)
    except ValueError:
        return snapshot
    options = state.get('options') if isinstance(state, dict) else None
    if not isinstance(options, dict):
        return snapshot
    if value is None:
        options.pop('open_answers', None)
    else:
        options['open_answers'] = value
    return json.dumps(state, ensure_ascii=False, separators=(',', ':'))


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
            .values(options=options, snapshot=_with_option(row.snapshot, False))
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
            .values(options=options, snapshot=_with_option(row.snapshot, None))
        )
