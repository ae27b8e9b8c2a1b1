"""Rule options a group chooses for its table (issue 16): the registry (``engine.options``), the
lobby's toggles in the service (creator only, lobby only, stored on the row, reaching the game's
state), ``/newgame`` with options on Telegram and Discord, ``/rules``, and the board tournament's
seed-000 defaults (no trading before the final, rent claimed).
"""

from __future__ import annotations

import dataclasses

from bot.chat import option_screens
from bot.chat.tournament_screens import parse_create
from bot.discord_app.messenger import md
from engine import options as table_options
from engine.games import GAMES
from engine.service.tables import GameService
from engine.service.tournaments import round_options
from tests.bot.discord_app.test_discord import CHANNEL, GUILD, click, dispatch, running_bot, slash
from tests.bot.telegram_app.test_telegram import GROUP, FakeBotAPI, _app, _send, command, press
from tests.engine.service.test_service import FakeClock
from tests.engine.service.test_tournaments import CHAT, start_round
from words.i18n import t

# -- the registry ---------------------------------------------------------------------------------


def test_registry_skips_options_the_engine_does_not_have(monkeypatch):
    names = [o.name for o in table_options.toggles("board")]
    assert names[:2] == ["income_tax_choice", "no_trading"]
    extra = table_options.Toggle("not_a_field_yet", "nofield", "B-99")
    board = GAMES["board"]
    monkeypatch.setitem(GAMES, "board", dataclasses.replace(board, toggles=(*board.toggles, extra)))
    assert "not_a_field_yet" not in [o.name for o in table_options.toggles("board")]
    assert table_options.parse("board", ["not_a_field_yet=on"])[1].key == "opt.unknown"
    assert table_options.toggles("chess") == ()


def test_registry_codes_fit_signed_button_data_and_are_unique():
    for game, spec in GAMES.items():
        codes = [o.code for o in spec.toggles]
        assert len(set(codes)) == len(codes), game
        assert all(code.isascii() and code.isalnum() and code.islower() and len(code) <= 8 for code in codes)


def test_every_switchable_option_has_a_label_and_help_in_every_language():
    for game in ("board", "deal"):
        for o in table_options.toggles(game):
            for lang in ("en", "zh-Hans", "zh-Hant"):
                assert option_screens.label(lang, o) != o.label_key  # a label, or the field name
                if o.name in ("income_tax_choice", "no_trading", "discard_to_pile", "wild_sets"):
                    assert t(lang, o.label_key) != o.label_key and t(lang, o.help_key) != o.help_key


def test_an_option_without_a_label_shows_its_field_name(monkeypatch):
    ghost = table_options.Toggle("no_trading", "notrade", "B-15")
    monkeypatch.setattr(table_options.Toggle, "label_key", property(lambda self: "opt.missing_label"))
    assert option_screens.label("en", ghost) == "no_trading"


def test_parse_typed_options_and_refuse_unknown_names_and_bad_values():
    assert table_options.parse("board", ["income_tax_choice=on", "no_trading=OFF"]) == (
        {"income_tax_choice": True, "no_trading": False}, None)
    assert table_options.parse("board", ["no_trading"]) == ({"no_trading": True}, None)  # bare name: on
    chosen, refusal = table_options.parse("board", ["income_tax=on"])
    assert chosen == {} and refusal.key == "opt.unknown" and "income_tax_choice" in refusal.params["choices"]
    chosen, refusal = table_options.parse("deal", ["wild_sets=maybe"])
    assert refusal.key == "opt.bad_value" and refusal.params["option"] == "wild_sets"
    text = t("en", refusal.key, **refusal.params)
    assert "maybe" in text and "on, off" in text
    # /newgame's words: the rule set first, options after
    assert option_screens.parse_newgame(["board", "classic", "income_tax_choice=on"]) == (
        "board", "classic", {"income_tax_choice": True}, None, {})
    assert option_screens.parse_newgame(["board", "no_trading"])[1:3] == (None, {"no_trading": True})


def test_D07_a_toggle_flips_the_rule_set_value_and_keeps_only_real_changes():
    # the Deal tournament rule set turns wild_sets on: switching it gives off, again gives the set's own
    assert table_options.effective("deal", "tournament", {})["wild_sets"] is True
    off = table_options.flipped("deal", "tournament", {}, "wild_sets")
    assert off == {"wild_sets": False}
    assert table_options.flipped("deal", "tournament", off, "wild_sets") == {}


# -- the service -----------------------------------------------------------------------------------


async def test_B08_the_creator_toggles_options_in_the_lobby_and_they_reach_the_game(db_url):
    service = await GameService.open(db_url)
    try:
        out = await service.lobby.new_table("chat:opt", "board", None, "u0", "Ann")
        table = out.table
        assert (await service.lobby.join(table, "u1", "Bob")).ok
        assert (await service.lobby.op(table, "o:tax", "u0", "Ann")).ok
        assert service.cache.row(table).options == {"income_tax_choice": True}
        refused = await service.lobby.op(table, "o:notrade", "u1", "Bob")  # not the creator
        assert not refused.ok and refused.key == "opt.creator_only"
        assert "Only the player who opened" in t("en", refused.key)
        assert (await service.lobby.op(table, "o:zzz", "u0", "Ann")).key == "service.bad_token"
        assert (await service.lobby.op(table, "o:notrade", "u0", "Ann")).ok
        assert (await service.lobby.op(table, "o:notrade", "u0", "Ann")).ok  # and back off
        stored = await service.lobby.table_in_chat("chat:opt")  # as stored, not only our copy
        assert stored.options == {"income_tax_choice": True}
        assert (await service.lobby.start(table, "u0", seed=3)).ok
        state = service.cache.state(table)
        assert state.options.income_tax_choice is True and state.options.no_trading is False
        after = await service.lobby.op(table, "o:notrade", "u0", "Ann")  # the game runs: no more changes
        assert not after.ok and after.key == "service.no_lobby"
        assert service.cache.state(table).options.no_trading is False
    finally:
        await service.close()


async def test_D07_typed_options_and_a_rule_set_default_switched_off_reach_the_deal(db_url):
    service = await GameService.open(db_url)
    try:
        bad = await service.lobby.new_table("chat:d", "deal", None, "u0", "Ann", options={"wild": True})
        assert not bad.ok and bad.key == "opt.unknown"
        out = await service.lobby.new_table("chat:d", "deal", "tournament", "u0", "Ann",
                                            options={"discard_to_pile": True})
        assert out.ok and service.cache.row(out.table).options == {"discard_to_pile": True}
        assert (await service.lobby.op(out.table, "o:wild", "u0", "Ann")).ok
        assert (await service.lobby.add_ai(out.table, "u0")).ok
        assert (await service.lobby.start(out.table, "u0", seed=1)).ok
        options = service.cache.state(out.table).options
        assert options.discard_to_pile is True and options.wild_sets is False
        assert options.ordered_payment is True  # the rest of the tournament set stays
    finally:
        await service.close()


async def test_B08_an_option_switched_by_another_process_is_played(tmp_path):
    """Two processes over one database: one shows the lobby, the other takes the toggle; the first
    starts the game with the option as stored, not as its own copy remembers it."""
    url = f"sqlite:///{tmp_path / 'two.db'}"
    first, second = await GameService.open(url), await GameService.open(url)
    try:
        table = (await first.lobby.new_table("chat:two", "board", None, "u0", "Ann")).table
        assert (await first.lobby.join(table, "u1", "Bob")).ok
        assert (await second.lobby.op(table, "o:tax", "u0", "Ann")).ok
        assert first.cache.row(table).options == {}  # the first process's copy has not heard of it
        assert (await first.lobby.start(table, "u0", seed=2)).ok
        assert first.cache.state(table).options.income_tax_choice is True
    finally:
        await first.close()
        await second.close()


# -- Telegram --------------------------------------------------------------------------------------


async def test_B08_telegram_newgame_with_options_lobby_toggles_and_rules(tmp_path):
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en")
    try:
        async with app:
            await _send(app, command("/newgame board income_tax=on", 1))
            assert "income_tax_choice" in api.calls[-1][1]["text"] and "name=on" in api.calls[-1][1]["text"]
            await _send(app, command("/newgame board no_trading=perhaps", 1))
            assert "perhaps" in api.calls[-1][1]["text"]
            assert await service.lobby.table_in_chat(f"tg:{GROUP}") is None  # refused: no table

            await _send(app, command("/newgame board income_tax_choice=on", 1))
            table = int(api.keyboards(GROUP)[0].split(":")[1])
            lobby = next(p for name, p in api.calls if name == "sendMessage" and "reply_markup" in p
                         and f"l:{table}:o:tax" in str(p["reply_markup"]))
            assert t("en", "opt.income_tax_choice") in lobby["text"]  # "Options on: …"
            await _send(app, press(f"l:{table}:join", 2))
            await _send(app, press(f"l:{table}:o:notrade", 2))  # Bob did not open the table
            name, params = api.calls[-1]
            assert name == "answerCallbackQuery" and params["text"] == t("en", "opt.creator_only")[:200]
            assert service.cache.row(table).options == {"income_tax_choice": True}
            await _send(app, press(f"l:{table}:o:notrade", 1))
            assert service.cache.row(table).options == {"income_tax_choice": True, "no_trading": True}
            edited = [p for name, p in api.calls if name == "editMessageText"][-1]
            assert t("en", "opt.no_trading") in edited["text"]  # the lobby shows what is on
            assert "✅ " + t("en", "opt.no_trading") in str(edited["reply_markup"])

            await _send(app, command("/rules", 2))
            rules = api.calls[-1][1]["text"]
            assert t("en", "opt.table_rules", ruleset="Chinese edition", code="china") in rules
            assert "✅ " + t("en", "opt.income_tax_choice") in rules and "⬜ " not in rules.split("\n")[0]

            await _send(app, press(f"l:{table}:start", 1))
            assert service.cache.state(table).options.income_tax_choice is True
            assert service.cache.state(table).options.no_trading is True
            await _send(app, press(f"l:{table}:o:tax", 1))  # an old lobby message after the start
            assert service.cache.state(table).options.income_tax_choice is True
            answers = [p for name, p in api.calls if name == "answerCallbackQuery"]
            assert answers[-1]["text"] == t("en", "ch.lobby_closed")[:200]
    finally:
        await service.close()


async def test_B17_the_chat_lobby_makes_a_timed_match_with_one_button(tmp_path):
    """Issue 47: a casual board game ran to the 1,000-turn cap; the lobby's timed-match button (its
    length now; a press moves it to the next: off, 30, 60, 90 minutes) is the creator's, and the
    started game has its match clock (B-17)."""
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en")
    try:
        async with app:
            await _send(app, command("/newgame board", 1))
            table = int(api.keyboards(GROUP)[0].split(":")[1])
            off = t("en", "ch.btn.match", length=t("en", "ch.match_off"))
            lobby = next(p for name, p in api.calls if name == "sendMessage" and off in str(p.get("reply_markup")))
            assert f"l:{table}:m:30" in str(lobby["reply_markup"])
            await _send(app, press(f"l:{table}:join", 2))
            await _send(app, press(f"l:{table}:m:30", 2))  # Bob did not open the table
            assert api.calls[-1][1]["text"] == t("en", "opt.creator_only")[:200]
            await _send(app, press(f"l:{table}:m:30", 1))
            await _send(app, press(f"l:{table}:m:60", 1))  # pressed again: the next length
            assert service.cache.row(table).options == {"match_minutes": 60}
            edited = [p for name, p in api.calls if name == "editMessageText"][-1]
            now = t("en", "ch.btn.match", length=t("en", "ch.match_minutes", n=60))
            assert now in str(edited["reply_markup"]) and f"l:{table}:m:90" in str(edited["reply_markup"])
            await _send(app, press(f"l:{table}:m:45", 1))  # not a length on offer (a forged button)
            assert service.cache.row(table).options == {"match_minutes": 60}
            await _send(app, press(f"l:{table}:start", 1))
            assert service.cache.state(table).options.match_minutes == 60
            assert await service.clocks.match_ends_at(table) is not None
    finally:
        await service.close()


# -- Discord ---------------------------------------------------------------------------------------


async def test_B15_discord_newgame_options_and_toggles_by_the_creator_only(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("newgame", 1, game="board", options="no_trade=on"))
        assert md("no_trading=on") in fake.last_reply()["content"]  # the valid names, and how to write them
        assert await service.lobby.table_in_chat(f"dc:{GUILD}:{CHANNEL}") is None  # refused: no table
        await dispatch(client, slash("newgame", 1, game="board", options="no_trading=on"))
        table = int([c for c in fake.custom_ids() if c.startswith("l:")][0].split(":")[1])
        assert service.cache.row(table).options == {"no_trading": True}
        assert f"l:{table}:o:tax" in fake.custom_ids()
        await dispatch(client, click(f"l:{table}:join", 2))
        await dispatch(client, click(f"l:{table}:o:tax", 2))
        assert fake.last_reply()["content"] == t("en", "opt.creator_only")
        await dispatch(client, click(f"l:{table}:o:tax", 1))
        assert service.cache.row(table).options == {"no_trading": True, "income_tax_choice": True}
        await dispatch(client, slash("rules", 2))
        assert "✅ " + t("en", "opt.income_tax_choice") in fake.last_reply()["content"]
        await dispatch(client, click(f"l:{table}:start", 1))
        assert service.cache.state(table).options.no_trading is True
        assert service.cache.state(table).options.income_tax_choice is True


# -- board tournaments (seed 000) ------------------------------------------------------------------


def test_B15_round_options_no_trading_before_the_final_and_the_organiser_wins():
    assert round_options("board", {}, 1, 3)["no_trading"] is True
    assert "no_trading" not in round_options("board", {}, 3, 3)  # the final trades
    assert "no_trading" not in round_options("board", {}, 1, 1)  # one round: it is the final
    assert round_options("board", {"no_trading": False}, 1, 3)["no_trading"] is False
    assert round_options("deal", {}, 1, 3) == {}
    assert round_options("board", {}, 3, 3)["rent_claim"] is True
    assert round_options("board", {"rent_claim": False}, 1, 3)["rent_claim"] is False


async def test_B15_a_board_tournament_s_preliminary_tables_forbid_trading_and_claim_rent(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    tours = service.tournaments
    try:
        start = clock.now + 600
        out = await tours.create(CHAT, "admin", True, "board", "china", starts_at=start, rounds=2,
                                 match_minutes=20, every_minutes=30, seed=4)
        tid = out.params["tournament"]
        for i in range(4):
            assert (await tours.sign_up(tid, f"u{i}", f"P{i}")).ok
        first = await start_round(service, clock, start)
        for table in first:
            options = service.cache.state(table).options
            assert options.no_trading is True
            assert options.rent_claim is True
        clock.now = start + 20 * 60 + 1
        await service.sweep()
        final = await start_round(service, clock, start + 30 * 60)
        for table in final:
            options = service.cache.state(table).options
            assert options.no_trading is False  # the final round trades
            assert options.rent_claim is True
        casual = await service.lobby.new_table("chat:casual", "board", None, "a", "A")
        assert (await service.lobby.add_ai(casual.table, "a")).ok
        assert (await service.lobby.start(casual.table, "a", seed=1)).ok
        assert service.cache.state(casual.table).options.no_trading is False
        assert service.cache.state(casual.table).options.rent_claim is False  # off for casual games
    finally:
        await service.close()


async def test_B06_the_organiser_turns_rent_claiming_off_from_the_short_form(db_url):
    clock = FakeClock()
    service = await GameService.open(db_url, clock)
    tours = service.tournaments
    try:
        request = parse_create(["board", "solo", "2", "+10", "20", "rent_claim=off"], lambda _: clock.now + 600)
        assert request.options == {"rent_claim": False}
        out = await tours.create(CHAT, "admin", True, request.game, request.ruleset, starts_at=request.starts_at,
                                 rounds=request.rounds, match_minutes=request.match_minutes, options=request.options)
        assert out.ok, out
        tid = out.params["tournament"]
        for i in range(3):
            assert (await tours.sign_up(tid, f"u{i}", f"P{i}")).ok
        tables = await start_round(service, clock, clock.now + 600)
        assert all(service.cache.state(x).options.rent_claim is False for x in tables)
        assert all(service.cache.state(x).options.no_trading is True for x in tables)  # still preliminary
    finally:
        await service.close()
