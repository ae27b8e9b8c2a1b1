"""``tools/bench/chats.py`` over the flood-limited fake Bot API, in small: every figure is reported,
the groups' presses move their tables and are all answered, and our own traffic meets no 429 while
one group waits out a flood wait (the other group goes on meanwhile). Speed is the bench's to
report, never asserted here."""

from __future__ import annotations

from tools.bench.chats import bench_telegram_groups


def test_the_chat_bench_plays_groups_under_telegrams_limits_with_a_flood_wait_on_one():
    figures = bench_telegram_groups(groups=2, seconds=6.0, flood=2.0, think=(0.2, 0.6), seed=7)
    assert figures["tg2_flood_moves"] > 0 and figures["tg2_flood_unanswered"] == 0
    assert figures["tg2_flood_429s"] == 0, "only the injected wait refused anything"
    assert figures["tg2_flood_answer_p50_ms"] is not None
    assert figures["tg2_flood_visible_p99_ms"] >= figures["tg2_flood_visible_p50_ms"]
    assert figures["tg2_flood_others_visible_p99_ms"] is not None, "the other group's moves were seen meanwhile"
    assert figures["tg2_flood_calls_per_move"] >= figures["tg2_flood_group_calls_per_move"] > 0
    # the penalised group's move met the wait: its table was shown once the wait ended, and no
    # clock ran out on its players meanwhile
    assert figures["tg2_flood_edits_after"] >= 1 and figures["tg2_flood_clocks_charged"] == 0, figures
