"""clock leases, AI safety-net clocks, the clock behind each move, turn caps and quarantine

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 17:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (autogenerate writes sqlmodel.sql.sqltypes.AutoString)
from alembic import op


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('actions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('deadline_id', sa.Integer(), nullable=True))

    with op.batch_alter_table('deadlines', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ai', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column('owner', sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.add_column(sa.Column('lease_until', sa.Float(), nullable=True))

    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('turn_cap', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('damage', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('damage')
        batch_op.drop_column('turn_cap')

    with op.batch_alter_table('deadlines', schema=None) as batch_op:
        batch_op.drop_column('lease_until')
        batch_op.drop_column('owner')
        batch_op.drop_column('ai')

    with op.batch_alter_table('actions', schema=None) as batch_op:
        batch_op.drop_column('deadline_id')
