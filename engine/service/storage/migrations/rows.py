"""What the data migrations share: the ``tables`` columns they read and write, which statuses are
games in progress, and how an option is set in a stored snapshot.

A migration that changes the rules for new games keeps games in progress on the rules their logs
were played with, by writing the old value of each new option into the row's options and into its
snapshot (0005, 0006, 0007, 0009). This module must keep doing what those migrations did when
they were written: change it only by adding to it.
"""

from __future__ import annotations

import json

import sqlalchemy as sa

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


def snapshot_options(snapshot: str | None, values: dict, drop: tuple = (), defaults: dict | None = None) -> str | None:
    """The snapshot with ``drop`` taken out of its options, ``values`` set and ``defaults`` set
    where missing; unchanged when it does not decode as a state with options (the log decides
    then, as for any snapshot)."""
    if not snapshot:
        return snapshot
    try:
        state = json.loads(snapshot)
    except ValueError:
        return snapshot
    options = state.get('options') if isinstance(state, dict) else None
    if not isinstance(options, dict):
        return snapshot
    for name in drop:
        options.pop(name, None)
    options.update(values)
    for name, value in (defaults or {}).items():
        options.setdefault(name, value)
    return json.dumps(state, ensure_ascii=False, separators=(',', ':'))


def keep_old_option(conn, game: str, name: str, rulesets: tuple[str, ...] | None = None,
                    defaults: dict | None = None) -> None:
    """Upgrade: each game of ``game`` in progress (of one of ``rulesets``, or any) whose options do
    not name ``name`` gets it off, in its options and its snapshot (``defaults``: other new
    options written into the snapshot where missing), so that its log replays as it was played."""
    rows = conn.execute(
        sa.select(tables.c.id, tables.c.ruleset, tables.c.options, tables.c.snapshot)
        .where(tables.c.game == game, tables.c.status.in_(LIVE))
    ).all()
    for row in rows:
        options = dict(row.options) if isinstance(row.options, dict) else {}
        ruleset = options.get('ruleset') or row.ruleset
        if (rulesets is not None and ruleset not in rulesets) or name in options:
            continue
        options.setdefault('ruleset', ruleset)
        options[name] = False
        snapshot = snapshot_options(row.snapshot, {name: False}, defaults=defaults)
        conn.execute(tables.update().where(tables.c.id == row.id).values(options=options, snapshot=snapshot))


def drop_option(conn, game: str, name: str) -> None:
    """Downgrade: the rules before know no ``name`` (an unknown option stops a replay): it is taken
    out of every ``game`` table's options and snapshot again."""
    rows = conn.execute(sa.select(tables.c.id, tables.c.options, tables.c.snapshot)
                        .where(tables.c.game == game)).all()
    for row in rows:
        options = row.options if isinstance(row.options, dict) else {}
        if name not in options and not (row.snapshot and name in row.snapshot):
            continue
        kept = {k: v for k, v in options.items() if k != name}
        conn.execute(tables.update().where(tables.c.id == row.id)
                     .values(options=kept, snapshot=snapshot_options(row.snapshot, {}, (name,))))
