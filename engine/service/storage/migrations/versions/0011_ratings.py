"""Ratings: one per player, game and scope, moved once per finished game (issue 48)

Expand only: a table, and a column with a default on ``results`` (the order each result moved the
ratings in; 0: not yet). Results stored before are rated by the service after start-up, in order
(engine/service/ratings.py).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06 11:15:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('results', sa.Column('rated', sa.Integer(), nullable=False, server_default='0'))
    op.create_table(
        'ratings',
        sa.Column('scope', sa.String(), primary_key=True),
        sa.Column('game', sa.String(), primary_key=True),
        sa.Column('user', sa.String(), primary_key=True),
        sa.Column('name', sa.String(), nullable=False, server_default=''),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('wins', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('updated_at', sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('ratings')
    op.execute('ALTER TABLE results DROP COLUMN rated')
