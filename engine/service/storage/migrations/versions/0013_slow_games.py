"""Slow games (issue 48)

Expand only: a nullable JSON column, ``tables.slow``: a slow game's own state (when its next daily
summary is due, the version the last one told up to, whom it reminded at which version; see
engine/service/pace.py). NULL for every table that is not a slow game, so older releases and the
tables they made are untouched. A slow table's pace itself is in ``tables.clocks`` (``pace``), its
clocks are rows of ``deadlines`` of their own kinds (``remind:<kind>``, ``summary``), and it is made in
table format 3, which older releases do not read (engine/service/storage/formats.py).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06 14:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('tables', sa.Column('slow', sa.JSON(), nullable=True))


def downgrade() -> None:
    op.execute('ALTER TABLE tables DROP COLUMN slow')
