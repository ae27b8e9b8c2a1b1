"""Deal games in progress keep the rules they were played with (D-02, D-06, D-14 seed rulings)

The Deal rule sets now follow the user's rule documents where they differ: ``standard`` pays from
the bank, then Hotels, Houses and properties (``ordered_payment``), banks a received House/Hotel
(``buildings_to_bank``) and lets the player re-arrange after the last play until End turn
(``rearrange_after_last_play``); ``tournament`` rebuilds the draw pile at one card
(``rebuild_at_one``). A table in progress is rebuilt from its action log at start-up with the
options on its row, and its log was recorded with the old rules, so each running or paused Deal
table gets the old values of the options its rule set changed, unless its options name them
already. The stored snapshot gets the same values (an old snapshot decodes to them anyway: they
are the struct's defaults), so the replay of the log and the snapshot stay byte-identical.
Data only: the schema does not change.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 01:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from engine.service.storage.migrations.rows import LIVE, snapshot_options, tables

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None

# per rule set: the options it changed, with the values games were played with before
OLD = {
    'standard': {'ordered_payment': False, 'buildings_to_bank': False, 'rearrange_after_last_play': False},
    'tournament': {'rebuild_at_one': False},
}
NAMES = ('buildings_to_bank', 'rearrange_after_last_play', 'rebuild_at_one')


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(tables.c.id, tables.c.ruleset, tables.c.options, tables.c.snapshot)
        .where(tables.c.game == 'deal', tables.c.status.in_(LIVE))
    ).all()
    for row in rows:
        options = dict(row.options) if isinstance(row.options, dict) else {}
        ruleset = options.get('ruleset') or row.ruleset
        options.setdefault('ruleset', ruleset)
        old = {k: v for k, v in OLD.get(ruleset, {}).items() if k not in options}
        if not old:
            continue
        options.update(old)
        # every new option at its old value in the snapshot (the struct's defaults)
        values = {name: options.get(name, False) for name in NAMES}
        conn.execute(
            tables.update().where(tables.c.id == row.id)
            .values(options=options, snapshot=snapshot_options(row.snapshot, values))
        )


def downgrade() -> None:
    """The rules before 0006 know none of the three new options (an unknown option stops a
    replay): they are taken out of every Deal table's options and snapshot again."""
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(tables.c.id, tables.c.options, tables.c.snapshot).where(tables.c.game == 'deal')
    ).all()
    for row in rows:
        options = row.options if isinstance(row.options, dict) else {}
        if not any(name in options for name in NAMES) and not (row.snapshot and any(
                name in row.snapshot for name in NAMES)):
            continue
        kept = {k: v for k, v in options.items() if k not in NAMES}
        conn.execute(
            tables.update().where(tables.c.id == row.id)
            .values(options=kept, snapshot=snapshot_options(row.snapshot, {}, NAMES))
        )
