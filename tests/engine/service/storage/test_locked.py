"""Issue 46: a SQLite file another process holds locked does not hang a press: after the short busy
wait the presser is told the table is busy (nothing changed, no traceback), and once the lock goes
the same press is taken."""

from __future__ import annotations

import asyncio
import sqlite3

from engine.games import GAMES
from engine.service.tables import GameService
from words.i18n import t


async def test_a_press_on_a_locked_database_is_told_the_table_is_busy_and_play_goes_on(tmp_path):
    path = tmp_path / "locked.db"
    service = await GameService.open(f"sqlite:///{path}")
    holder = None
    try:
        out = await service.lobby.new_table("chat:l", "board", None, "u0", "Ann")
        await service.lobby.join(out.table, "u1", "Bob")
        await service.lobby.start(out.table, "u0", seed=3)
        await service.idle()
        state = service.cache.state(out.table)
        decision = GAMES["board"].rules.waiting_for(state)[0]
        action = GAMES["board"].choose_listed(state, decision.seat)
        token = next(tk for a, tk in service.buttons(out.table, decision.seat) if a == action)
        version = service.cache.row(out.table).version
        holder = sqlite3.connect(path, timeout=0)  # another process writing: the file's write lock held
        holder.execute("BEGIN IMMEDIATE")
        refused = await asyncio.wait_for(service.act(f"u{decision.seat}", token), 30)
        assert not refused.ok and refused.key == "service.busy"
        assert "busy" in t("en", refused.key) and "牌桌正忙" in t("zh-Hans", refused.key)
        holder.rollback()
        holder.close()
        holder = None
        assert (await service.public_view(out.table)).version == version  # nothing was stored
        taken = await service.act(f"u{decision.seat}", token)  # the same press, now the lock is gone
        assert taken.ok and service.cache.row(out.table).version == version + 1
    finally:
        if holder is not None:
            holder.close()
        await service.close()
