"""The board picture (issues 18 and 46): every rule set and language, no missing glyphs, every
label inside its square, tokens in the lane in front of their square, owner marks distinct,
buildings off the colour band, mortgages dimmed and hatched, the centre's facts, goldens, and the
byte budget. (Type sizes on a phone: tests/render/test_phone_sizes.py.)"""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from engine.board import BOARD
from engine.board.ai import choose
from engine.board.data import board
from engine.board.rules import valuation
from render.board import buildings_boxes, render_board, texts_drawn, veiled
from render.board_centre import pawn, token_places
from render.board_layout import BAND_VEIL, DIM, HALO_W, INNER, PANEL, SIZE, WHITE, band_box, layout, short_names
from render.colours import player_colour
from render.common import initials, unwrapped
from render.fonts import missing_glyphs
from render.png import png_bytes
from tools import golden
from words import board_text
from words.i18n import t

NAMES = {0: "Ann", 1: "张伟", 2: "陳大文", 3: "Bob"}
LANGS = ["zh-Hans", "zh-Hant", "en"]
BUDGET = 60 * 1024  # bytes of a turn's board picture


def _state(ruleset: str, seed: int = 4, turns: int = 60):
    return golden.snapshot("board", ruleset, seed, turns)


def _inside(inner, outer) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("ruleset", ["china", "classic"])
@pytest.mark.parametrize("lang", LANGS)
def test_every_rule_set_and_language_renders_within_budget_without_missing_glyphs(ruleset, lang):
    state = _state(ruleset)
    view = BOARD.view(state, None)
    events = golden.EVENTS["en" if lang == "en" else "zh-Hans"]
    img = render_board(view, lang, NAMES, ruleset, "05:00", valuation(state), events)
    assert img.size == (SIZE, SIZE) and img.mode == "P"
    text = "".join(texts_drawn(view, lang, NAMES, ruleset, "05:00", valuation(state), events))
    assert missing_glyphs(text, lang) == set()
    assert len(png_bytes(img)) <= BUDGET


@pytest.mark.parametrize("ruleset", ["china", "classic"])
@pytest.mark.parametrize("lang", LANGS)
def test_every_label_lies_inside_its_square_clear_of_bands(ruleset, lang):
    parts = layout(ruleset, lang)
    assert len(parts) == 40
    for part in parts:
        labels = part["labels"]
        assert labels, f"square {part['index']} has no label"
        for text, box in labels:
            assert _inside(box, part["box"]), f"{text!r} on square {part['index']} leaves its square"
            if part["band"]:
                assert not _overlap(box, part["band"]), f"{text!r} covers the band of square {part['index']}"
            if part["strip"] and box != part["price"]:  # the price is in the strip, the name clear of it
                assert not _overlap(box, part["strip"]), f"{text!r} covers the strip of square {part['index']}"
        if part["price"]:
            assert _inside(part["price"], part["strip"])
        for (_, a), (_, b) in zip(labels, labels[1:], strict=False):
            assert not _overlap(a, b), f"labels of square {part['index']} overlap"
        zone = part["tokens"]
        if part["index"] % 10:  # tokens stand in the lane in front of the square, clear of the panel
            assert _inside(zone, INNER) and not _overlap(zone, PANEL)
            assert _touches(zone, part["box"])
            for x, y in part["cells"]:
                assert _inside((x - 20, y - 20, x + 20, y + 20), zone)
        else:
            assert _inside(zone, part["box"])
            for text, box in labels:  # tokens stand where no label is
                for spot in (zone, part.get("visiting")):
                    assert spot is None or not _overlap(box, spot), f"{text!r} is under the tokens of a corner"


def _touches(a, b) -> bool:
    """``a`` and ``b`` share an edge over part of its length."""
    shared_x = a[0] < b[2] and b[0] < a[2]
    shared_y = a[1] < b[3] and b[1] < a[3]
    return (shared_x and (a[1] == b[3] or a[3] == b[1])) or (shared_y and (a[0] == b[2] or a[2] == b[0]))


def test_the_lane_cells_of_two_squares_never_meet():
    """The lane in front of a square beside a corner is also in front of the corner's other
    neighbour: each takes its own column of it."""
    cells = [(i, x, y) for part in layout("classic", "en") for i in [part["index"]] for x, y in part["cells"]]
    for k, (i, x, y) in enumerate(cells):
        for j, u, v in cells[k + 1:]:
            assert i == j or (x, y) != (u, v), (i, j)


def test_every_name_and_price_is_drawn_whole():
    """No name or price is cut short: each square's lines spell its name or a known short form
    of it ("Medit. Ave", "宾州铁路"; hyphens at line ends joined), and its price."""
    for ruleset in ("china", "classic"):
        b = board(ruleset)
        for lang in LANGS:
            for part in layout(ruleset, lang):
                i = part["index"]
                lines = [text for text, box in part["labels"] if box != part["price"]]
                drawn = unwrapped(lines).replace(" ", "")
                if i != 10:
                    assert drawn in [n.replace(" ", "") for n in short_names(board_text.square_name(ruleset, i, lang),
                                                                             lang)], (i, lines)
                assert not any("…" in s for s in lines)
                if b.price[i]:
                    price = [text for text, box in part["labels"] if box == part["price"]]
                    assert price and price[0].replace(",", "") == board_text.money(ruleset, b.price[i], lang).replace(
                        ",", "")


def _everyone_somewhere(view: dict, spots: list[tuple[int, bool]]) -> dict:
    for p, (square, jailed) in zip(view["players"], spots, strict=False):
        p["position"], p["in_jail"], p["bankrupt"] = square, jailed, False
    return view


@pytest.mark.parametrize("together", [1, 2, 4])
def test_tokens_are_large_inside_their_square_and_apart_from_owner_bands(together):
    view = BOARD.view(_state("classic"), None)
    view["stage"], view["current"] = "roll", 0  # seat 0's token wears the halo of whose turn it is
    for sq in view["squares"]:
        sq["mortgaged"] = False  # (tokens on a mortgaged square stand below its label: see below)
    parts = layout("classic", "en")
    for square in (1, 5, 10, 15, 21, 30, 39):
        for jailed in ((False, True) if square == 10 else (False,)):
            v = _everyone_somewhere(view, [(square, jailed)] * together + [(0, False)] * (4 - together))
            places = token_places(v, "classic", "en")
            discs = []
            for p in v["players"][:together]:
                x, y, r = places[p["seat"]]
                assert r >= {1: 14, 2: 12, 4: 7}[together], f"token on square {square} is too small ({r})"
                ring = r + (HALO_W if p["seat"] == v["current"] and v["stage"] != "over" else 0) + 1  # halo
                disc = (x - ring, y - ring, x + ring, y + ring)
                zone = parts[square]["visiting"] if square == 10 and not jailed else parts[square]["tokens"]
                assert _inside(disc, zone)
                if parts[square]["owner"]:
                    assert not _overlap(disc, parts[square]["owner"])
                discs.append((x, y, r))
            for k, (xa, ya, ra) in enumerate(discs):  # no token hides another
                for xb, yb, rb in discs[k + 1:]:
                    assert ((xa - xb) ** 2 + (ya - yb) ** 2) ** 0.5 >= ra + rb


def _all_owned(view: dict, houses: int, mortgaged: bool = False) -> dict:
    b = board(view["ruleset"])
    view["squares"] = [{"index": i, "owner": k % 4, "mortgaged": mortgaged,
                        "houses": houses if sq["kind"] == "street" and not mortgaged else 0}
                       for k, (i, sq) in enumerate((i, sq) for i, sq in enumerate(b.squares)
                                                   if sq["kind"] in ("street", "station", "utility"))]
    return view


def test_buildings_never_hide_the_colour_band_and_owner_bands_show_the_owner():
    view = _all_owned(BOARD.view(_state("classic"), None), 5)
    for p in view["players"]:
        p["position"] = 0  # tokens out of the way
    img = render_board(view, "en", NAMES, "classic").convert("RGB")
    b = board("classic")
    parts = layout("classic", "en")
    for sq in view["squares"]:
        i = sq["index"]
        part = parts[i]
        if part["band"]:
            for houses in range(1, 6):
                for box in buildings_boxes(i, houses):
                    assert _inside(box, part["build"]) and not _overlap(box, part["band"])
            x0, y0, x1, y1 = band_box(i)
            colour = tuple(int(b.group_colours[b.squares[i]["group"]].lstrip("#")[k:k + 2], 16) for k in (0, 2, 4))
            for fx in (0.2, 0.5, 0.8):  # the band keeps its street colour along its length, hotel or not
                px = img.getpixel((round(x0 + (x1 - x0) * (fx if x1 - x0 > y1 - y0 else 0.5)),
                                   round(y0 + (y1 - y0) * (fx if y1 - y0 > x1 - x0 else 0.5))))
                assert max(abs(a - c) for a, c in zip(px, colour, strict=True)) < 24, (i, px, colour)
        ox0, oy0, ox1, oy1 = part["owner"]
        corner = img.getpixel((ox0 + 3, oy0 + 3) if ox1 - ox0 > oy1 - oy0 else (ox0 + 3, oy0 + 3))
        assert max(abs(a - c) for a, c in zip(corner, player_colour(sq["owner"]), strict=True)) < 24


def test_mortgaged_squares_are_dimmed_and_say_so():
    view = BOARD.view(_state("classic"), None)
    for p in view["players"]:
        p["position"] = 0
    plain = render_board(_all_owned(view, 0), "en", NAMES, "classic").convert("RGB")
    dim = render_board(_all_owned(view, 0, mortgaged=True), "en", NAMES, "classic").convert("RGB")
    parts = layout("classic", "en")
    for part in parts:
        if part["band"]:  # a street's colour band is greyed out
            x0, y0, x1, y1 = part["band"]
            c = ((x0 + x1) // 2, (y0 + y1) // 2)
            saturation = [max(px) - min(px) for px in (plain.getpixel(c), dim.getpixel(c))]
            assert saturation[1] < saturation[0] or saturation[0] < 30
    texts = texts_drawn(_all_owned(view, 0, mortgaged=True), "en", NAMES, "classic")
    assert texts.count(t("en", "render.board.mortgaged")) == 1  # the key under the panel
    assert t("en", "render.board.mortgaged") not in texts_drawn(_all_owned(view, 0), "en", NAMES, "classic")


@pytest.mark.parametrize("ruleset", ["china", "classic"])
@pytest.mark.parametrize("lang", LANGS)
def test_a_mortgaged_strip_is_hatched_and_keeps_its_owner_mark(ruleset, lang):
    """A mortgaged square's strip is striped white over the owner's colour (an unmortgaged one is
    plain), still shows the owner's mark, and its street's colour band keeps over half of its
    colour."""
    view = BOARD.view(_state(ruleset), None)
    for p in view["players"]:
        p["position"] = 0
    marks = initials(NAMES, lang)
    for mortgaged in (False, True):
        owned = _all_owned(view, 0, mortgaged=mortgaged)
        texts = texts_drawn(owned, lang, NAMES, ruleset)
        assert all(texts.count(marks[s]) >= 7 for s in range(4))  # on the strips (and the tokens, the panel)
        img = render_board(owned, lang, NAMES, ruleset).convert("RGB")
        b = board(ruleset)
        for part in layout(ruleset, lang):
            if part["owner"] is None:
                continue
            x0, y0, x1, y1 = part["owner"]
            row = [img.getpixel((x, y1 - 6)) for x in range(x1 - 40, x1 - 4)]  # right of the mark
            whites = sum(1 for px in row if px == WHITE)
            assert (whites > 4) == mortgaged, (part["index"], whites)
            if part["band"] and mortgaged:
                bx0, by0, bx1, by1 = part["band"]
                px = img.getpixel(((bx0 + bx1) // 2, (by0 + by1) // 2))
                colour = tuple(int(b.group_colours[b.squares[part["index"]]["group"]].lstrip("#")[k:k + 2], 16)
                               for k in (0, 2, 4))
                assert _distance(px, DIM) >= 0.5 * _distance(colour, DIM), (part["index"], px, colour)
                assert _distance(px, veiled(colour, BAND_VEIL)) < 8  # the palette keeps it (no orange turned yellow)


def _distance(a, b) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5


def test_players_whose_names_start_alike_get_distinct_marks():
    """Colour is never the only cue: "Ann", "AI 1", "AI 2", "AI 3" (a chat table with AI seats)
    are not four "A"s on the tokens, the owner bands and the chart."""
    assert initials({0: "Bob", 1: "张伟", 2: "陳大文", 3: "Ann"}, "en") == {0: "B", 1: "张", 2: "陳", 3: "A"}
    assert initials({0: "Ann", 1: "AI 1", 2: "AI 2", 3: "AI 3"}, "en") == {0: "A", 1: "1", 2: "2", 3: "3"}
    assert initials({0: "张伟", 1: "张三", 2: "电脑1", 3: "电脑2"}, "zh-Hans") == {0: "张", 1: "三", 2: "1", 3: "2"}
    assert len(set(initials({0: "Ann", 1: "Anna", 2: "Annie"}, "en").values())) == 3
    names = {0: "Ann", 1: "AI 1", 2: "AI 2", 3: "AI 3"}
    view = _all_owned(BOARD.view(_state("classic"), None), 0)
    texts = texts_drawn(view, "en", names, "classic")
    for mark in ("A", "1", "2", "3"):
        assert mark in texts
    for r in (7, 12, 16, 22, 28):  # the mark stays inside the disc at every size
        token = pawn(1, "A1", r, False)
        ink = token.getchannel("A").point(lambda v: 255 if v > 0 else 0)
        assert ink.getbbox() is not None
        mark = token.convert("L").point(lambda v: 255 if v > 200 else 0)  # the white ring and the mark
        cx = token.width / 2
        box = mark.crop((round(cx - r + 3), round(cx - r + 3), round(cx + r - 3), round(cx + r - 3))).getbbox()
        assert box is not None  # a light mark on the (dark-enough) sky blue disc is visible


def test_the_centre_shows_turn_cash_net_worth_bank_last_moves_and_clock():
    state = _state("china")
    view = BOARD.view(state, None)
    worth = valuation(state)
    events = ["第一件事", "第二件事", "第三件事", "第四件事", "第五件事"]
    texts = texts_drawn(view, "zh-Hans", NAMES, "china", "07:05", worth, events)
    assert t("zh-Hans", "render.board.turn", name=NAMES[view["current"]]) in texts
    assert t("zh-Hans", "render.board.clock", clock="07:05") in texts
    for p in view["players"]:
        if not p["bankrupt"]:
            assert board_text.money("china", p["cash"], "zh-Hans") in texts
            assert board_text.money("china", worth[p["seat"]], "zh-Hans") in texts
    assert events[-4:] == [s for s in texts if s in events]  # the last few, oldest first
    assert f"× {view['bank_houses']}" in texts and f"× {view['bank_hotels']}" in texts
    without = texts_drawn(view, "zh-Hans", NAMES, "china")
    assert t("zh-Hans", "render.board.clock", clock="07:05") not in without


def test_the_picture_follows_the_view():
    state = _state("china")
    view = BOARD.view(state, None)
    a = render_board(view, "zh-Hans", NAMES).convert("RGB")
    assert ImageChops.difference(a, render_board(view, "zh-Hans", NAMES).convert("RGB")).getbbox() is None
    seat = BOARD.waiting_for(state)[0].seat
    BOARD.apply(state, seat, choose(state, seat))
    while state.stage != "roll":
        seat = BOARD.waiting_for(state)[0].seat
        BOARD.apply(state, seat, choose(state, seat))
    b = render_board(BOARD.view(state, None), "zh-Hans", NAMES)
    assert ImageChops.difference(a, b.convert("RGB")).getbbox() is not None  # the tokens moved


def test_mapping_only_what_a_frame_draws_gives_the_picture_of_mapping_it_whole():
    """``render_board`` maps onto the palette only the tokens and the centre, over the ownership
    layer mapped once: the pixels must be those of mapping the whole frame, move after move (tokens
    moving, deeds bought, houses built, a mortgage), in two rule sets and five seats."""
    from render.board import _palette, compose
    from render.png import to_palette

    compared = changed_owners = 0
    for ruleset, lang, seed in (("china", "zh-Hans", 7), ("classic", "en", 3)):
        state = BOARD.new_game(5, ruleset, seed)
        owners = None
        for move in range(900):
            if not BOARD.waiting_for(state):
                break
            seat = BOARD.waiting_for(state)[0].seat
            BOARD.apply(state, seat, choose(state, seat))
            if move % 9:
                continue
            view = BOARD.view(state, None)
            drawn = render_board(view, lang, NAMES, None, "01:00", valuation(state), ["a", "b"])
            whole = to_palette(compose(view, lang, NAMES, None, "01:00", valuation(state), ["a", "b"]).image,
                               _palette(ruleset, lang))
            assert drawn.tobytes() == whole.tobytes(), f"{ruleset} move {move}"
            compared += 1
            now = [(sq["owner"], sq["houses"], sq["mortgaged"]) for sq in view["squares"]]
            changed_owners += owners is not None and now != owners
            owners = now
    assert compared > 100 and changed_owners > 20


def test_pictures_drawn_in_several_threads_at_once_are_the_pictures_drawn_one_by_one():
    """The chats draw pictures in worker threads (``asyncio.to_thread``): frames of many different
    ownerships drawn four at a time (more than the layers kept, so they evict each other's) are
    the same as drawn one after the other."""
    from concurrent.futures import ThreadPoolExecutor

    from render.board import LAYER2_KEPT
    from render.png import png_bytes

    state = BOARD.new_game(4, "china", 11)
    views = []
    while BOARD.waiting_for(state) and len(views) < 60:
        seat = BOARD.waiting_for(state)[0].seat
        BOARD.apply(state, seat, choose(state, seat))
        if state.stage == "roll":
            views.append(BOARD.view(state, None))
    owners = {tuple(sq["owner"] for sq in v["squares"]) for v in views}
    assert len(owners) > 2 * LAYER2_KEPT

    def draw(view):
        return png_bytes(render_board(view, "en", NAMES))

    alone = [draw(v) for v in views]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(draw, views[::-1]))[::-1]
    assert together == alone


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_golden_pictures(name):
    """Redraw with ``python -m tools.golden`` after an intended change of the design."""
    expected = Image.open(golden.GOLDEN / name).convert("RGB")
    fresh = golden.draw(name).convert("RGB")
    assert expected.size == fresh.size, f"{name}: {fresh.size} drawn, {expected.size} in the golden"
    diff = ImageChops.difference(expected, fresh).convert("L").point(lambda v: 255 if v > 40 else 0)
    changed = sum(diff.histogram()[255:])
    assert changed < 0.005 * fresh.size[0] * fresh.size[1], f"{changed} pixels differ from {name}"


def test_render_command_writes_a_png(tmp_path, capsys):
    from bot.process.cli import main

    out = tmp_path / "b.png"
    assert main(["render", "board", "--seed", "2", "--turns", "20", "--lang", "zh-Hant", "--out", str(out)]) == 0
    assert Image.open(out).size == (SIZE, SIZE)
    assert main(["render", "hand", "--out", str(out)]) == 2
    assert "seat:N" in capsys.readouterr().err
    assert main(["render", "board", "--view", "seat:9", "--out", str(out)]) == 2


def test_the_png_of_every_frame_is_the_picture_drawn():
    """The rows of the top and bottom squares are deflated once an ownership (render/png.py):
    move after move, tokens on corners or not, the PNG decodes to the board drawn."""
    import io

    state = BOARD.new_game(4, "classic", 21)
    corners = 0
    for move in range(600):
        if not BOARD.waiting_for(state):
            break
        seat = BOARD.waiting_for(state)[0].seat
        BOARD.apply(state, seat, choose(state, seat))
        if move % 5:
            continue
        view = BOARD.view(state, None)
        img = render_board(view, "en", NAMES, None, "01:00", valuation(state), ["a"])
        back = Image.open(io.BytesIO(png_bytes(img)))
        back.load()
        assert back.tobytes() == img.tobytes(), f"move {move}"
        corners += any(p["position"] % 10 == 0 and not p["bankrupt"] for p in view["players"])
    assert corners > 5
