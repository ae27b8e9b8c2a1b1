"""Board games in progress keep the rules they were played with (B-02 doubles lock)

The ``china`` rule set now forbids building and lifting mortgages between a doubles roll and its
extra roll (seed 002 §4–5, option ``doubles_lock``). A table in progress is rebuilt from its action
log at start-up with the options on its row, and its log may hold a build made in such a window
under the old rules: each running or paused ``china`` board table whose options do not name
``doubles_lock`` gets it off, in its options and in its stored snapshot (an old snapshot decodes to
off anyway: it is the struct's default; ``rent_claim``, new too and off unless chosen, is written
beside it), so the replay and the snapshot stay identical.
Data only: the schema does not change.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 02:00:00.000000
"""

from __future__ import annotations

from alembic import op

from engine.service.storage.migrations.rows import drop_option, keep_old_option

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None

NAME = 'doubles_lock'


def upgrade() -> None:
    keep_old_option(op.get_bind(), 'board', NAME, ('china',), defaults={'rent_claim': False})


def downgrade() -> None:
    """The rules before 0007 know no such option: it is taken out of every board table again."""
    drop_option(op.get_bind(), 'board', NAME)
