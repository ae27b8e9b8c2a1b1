"""Movement and cards checked against the published landing frequencies (docs/reference.md)."""

from __future__ import annotations

import json

import pytest

from bot.process.cli import main
from engine.board.landing import landing_frequencies


@pytest.fixture(scope="module")
def short_jail():
    return landing_frequencies("classic", 300_000, 11, "short")["squares"]


@pytest.mark.parametrize("square,expected", [("24", 3.19), ("0", 3.10), ("jail", 3.95), ("10", 2.27)])
def test_published_frequencies_short_jail(short_jail, square, expected):
    assert abs(short_jail[square] * 100 - expected) < 0.15


def test_go_to_jail_is_never_where_a_roll_ends(short_jail):
    assert short_jail["30"] == 0


def test_chance_squares_lose_their_movers(short_jail):
    # ten of sixteen Chance cards move the token on, so Chance squares end far fewer rolls
    for chance in ("7", "22", "36"):
        assert 0.6 < short_jail[chance] * 100 < 1.2
    assert abs(sum(short_jail.values()) - 1) < 1e-9


def test_long_jail_keeps_more_rolls_in_jail():
    long = landing_frequencies("classic", 60_000, 5, "long")["squares"]
    short = landing_frequencies("classic", 60_000, 5, "short")["squares"]
    assert long["jail"] > short["jail"] + 0.03


def test_landing_command_prints_the_shares(capsys):
    assert main(["simulate", "board", "--landing", "--rolls", "2000", "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rolls"] == 2000 and set(out["squares"]) == {str(i) for i in range(40)} | {"jail"}
