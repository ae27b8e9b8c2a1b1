"""Seasons of a chat's own length, and achievements (issue 48)

Expand only: columns with defaults and a table.

- ``chat_settings.season``: how long a chat's seasons last (``week``, ``month``, ``quarter``, or
  ``off``); ``month`` for every chat until its admins choose.
- ``results.season``: the season a result was rated in (``2026-12``, ``2026-W49``, ``2026-Q4``;
  empty: none, or rated before this migration, when its month is its season), so that the ratings
  can be rebuilt from the results alone whatever the chat chose since.
- ``results.feats``: the achievements each seat earned in the game (``{"0": ["board.hotel_row"]}``),
  worked out from its log once after it ended; ``results.awarded``: 0 not yet, 1 done; results
  stored before this migration are marked -1 (played before achievements existed: not replayed).
- ``achievements``: per player, game and achievement, how often and first where.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06 12:50:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('chat_settings', sa.Column('season', sa.String(), nullable=False, server_default='month'))
    op.add_column('results', sa.Column('season', sa.String(), nullable=False, server_default=''))
    op.add_column('results', sa.Column('feats', sa.JSON(), nullable=True))
    op.add_column('results', sa.Column('awarded', sa.Integer(), nullable=False, server_default='0'))
    op.execute('UPDATE results SET awarded = -1')
    op.create_table(
        'achievements',
        sa.Column('user', sa.String(), primary_key=True),
        sa.Column('game', sa.String(), primary_key=True),
        sa.Column('key', sa.String(), primary_key=True),
        sa.Column('name', sa.String(), nullable=False, server_default=''),
        sa.Column('count', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('first_table', sa.Integer(), nullable=False),
        sa.Column('first_at', sa.Float(), nullable=False),
        sa.Column('last_at', sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('achievements')
    op.execute('ALTER TABLE results DROP COLUMN awarded')
    op.execute('ALTER TABLE results DROP COLUMN feats')
    op.execute('ALTER TABLE results DROP COLUMN season')
    op.execute('ALTER TABLE chat_settings DROP COLUMN season')
