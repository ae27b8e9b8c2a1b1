"""Board games in progress keep the trading rules they were played with (B-15 rulings)

Two rulings on a received mortgaged deed (docs/rulings.md, option ``received_mortgage_rulings``,
on in every rule set): its principal-only price lasts through a doubles lock, and a trade is
refused whose receiver could not pay the 10 % at once. A table in progress is rebuilt from its
action log at start-up with the options on its row, and its log may hold a lift or a trade decided
under the old rules: each running or paused board table whose options do not name the option gets
it off, in its options and in its stored snapshot (an old snapshot decodes to off anyway: it is
the struct's default), so the replay and the snapshot stay identical.
Data only: the schema does not change.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 10:00:00.000000
"""

from __future__ import annotations

from alembic import op

from engine.service.storage.migrations.rows import drop_option, keep_old_option

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None

NAME = 'received_mortgage_rulings'


def upgrade() -> None:
    keep_old_option(op.get_bind(), 'board', NAME)


def downgrade() -> None:
    """The rules before 0009 know no such option: it is taken out of every board table again."""
    drop_option(op.get_bind(), 'board', NAME)
