"""The players' colours stay apart for colour-blind readers (issue 18): every pair is at least
MIN_DELTA_E apart (CIE76) as seen with protanopia, deuteranopia and tritanopia (simulated)."""

from __future__ import annotations

import pytest

from render.colours import DEFICIENCIES, PLAYER_COLOURS, closest_pair, delta_e, simulate

MIN_DELTA_E = 15  # plainly different at a glance (2.3 is just noticeable)


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
def test_player_colours_stay_apart_under_every_colour_blindness(deficiency):
    distance, a, b = closest_pair(PLAYER_COLOURS, deficiency)
    assert distance >= MIN_DELTA_E, f"seats {a} and {b} look alike ({distance:.1f}) with {deficiency}"


def test_the_first_four_seats_are_the_farthest_apart():
    for deficiency in (None, *DEFICIENCIES):
        assert closest_pair(PLAYER_COLOURS[:4], deficiency)[0] >= 25


def test_the_simulation_merges_what_colour_blind_people_confuse():
    """The check has teeth: a red and a green that differ plainly for most people come out close
    with deuteranopia; the board's former palette fails under each deficiency; white and black
    stay white and black."""
    red, green = (220, 50, 47), (133, 153, 0)
    assert delta_e(red, green) > 60
    assert delta_e(simulate(red, "deuteranopia"), simulate(green, "deuteranopia")) < MIN_DELTA_E
    former = [(220, 50, 47), (38, 139, 210), (133, 153, 0), (211, 54, 130), (181, 137, 0), (42, 161, 152),
              (108, 113, 196), (203, 75, 22)]
    assert closest_pair(former)[0] >= MIN_DELTA_E  # fine for most people…
    for deficiency in DEFICIENCIES:  # …not for colour-blind ones
        assert closest_pair(former, deficiency)[0] < MIN_DELTA_E
        assert max(abs(c - 255) for c in simulate((255, 255, 255), deficiency)) < 2
        assert max(simulate((0, 0, 0), deficiency)) < 1
