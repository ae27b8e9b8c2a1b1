"""Alembic environment: migrations run on a connection the service hands over (async-safe)."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import engine.service.storage.rows  # noqa: F401  (registers the tables on SQLModel.metadata)

target_metadata = SQLModel.metadata


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        from sqlalchemy import create_engine

        url = context.config.get_main_option("sqlalchemy.url")
        with create_engine(url).connect() as conn:
            _run(conn)
        return
    _run(connection)


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True,
                      compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


run_migrations_online()
