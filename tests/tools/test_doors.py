"""Issue 49, "from not in the group to first roll": over each platform's fake, four people, one door
each, reach a running game with no typed command, in four taps at most each
(``tools/bench/doors.py`` holds the scripts; ``tycoon bench`` prints the counts)."""

from __future__ import annotations

import pytest

from tools.bench.doors import discord_doors, telegram_doors

GOAL = 4


async def test_four_people_reach_a_running_telegram_game_by_four_doors(tmp_path):
    taps = await telegram_doors(tmp_path)
    assert set(taps) == {"ann", "bob", "cy", "dee"}
    assert all(1 <= n <= GOAL for n in taps.values()), taps
    assert taps["ann"] == 4, "the add link (3 taps: button, group, confirm) opens her lobby; then Start"


@pytest.mark.slow
async def test_four_people_reach_a_running_discord_game_by_four_doors(tmp_path):
    taps = await discord_doors(tmp_path)
    assert set(taps) == {"ann", "bob", "cy", "dee"}
    assert all(1 <= n <= GOAL for n in taps.values()), taps
    assert taps == {"ann": 3, "bob": 1, "cy": 1, "dee": 2}
