"""B-15 over the Telegram fakes: two people build, send, counter and accept a trade of two deeds
plus cash in their private chats; the group sees only the trade that was made."""

from __future__ import annotations

import contextlib

from telegram import Update

from engine.board import basic
from engine.board.data import board
from engine.games import GAMES
from engine.service.tables import GameService
from tests.bot.telegram_app.test_telegram import GROUP, FakeBotAPI, _app, _send, _typed, open_game, press
from words.i18n import t

ANN, BOB = 1, 2


def _tradable(state, seat: int) -> list[int]:
    b = board(state.options.ruleset)
    return [sq for sq in b.properties if state.owner[sq] == seat
            and not any(state.houses[o] for o in b.groups[b.group[sq]])]


async def _warm_up_service(service, table: int) -> None:
    """Both people play the simple fixed policy (it never trades) until each holds two deeds that
    may change hands and the table is between rolls."""
    rules = GAMES["board"].rules
    for _ in range(2000):
        state = service.cache.state(table)
        if state.stage == "roll" and not state.trades and all(len(_tradable(state, s)) >= 2 for s in (0, 1)):
            return
        decision = rules.waiting_for(state)[0]
        out = await service.act_as(table, decision.seat, basic.choose(state, decision.seat))
        assert out.ok, out
        await service.idle()
    raise AssertionError("no position with two deeds each")


def _builder(api: FakeBotAPI, uid: int, table: int) -> int:
    """The id of the builder message in ``uid``'s private chat (the one with a live Send button)."""
    found = [mid for (chat, mid), m in api.messages.items() if chat == uid
             and any(b.startswith(f"t:{table}:s.") for b in m["buttons"])]
    assert len(found) == 1, found  # one builder with buttons at a time
    return found[0]


def _tap(data_prefix: str, uid: int, message: int) -> dict:
    """A press of the (signed) builder button whose data starts with ``data_prefix`` on ``message``."""
    update = press(data_prefix, uid, chat=uid, signed=False)
    update["callback_query"]["message"]["message_id"] = message
    return update


def _signed(api: FakeBotAPI, uid: int, message: int, op_prefix: str) -> str:
    data = [b for b in api.messages[(uid, message)]["buttons"] if b.split(".")[0].split(":", 2)[2] == op_prefix]
    assert data, (op_prefix, api.messages[(uid, message)]["buttons"])
    return data[0]


@contextlib.asynccontextmanager
async def _board_game(tmp_path):
    """Ann and Bob at a running board table, two deeds each that may change hands, between rolls."""
    api = FakeBotAPI()
    service = await GameService.open(f"sqlite:///{tmp_path / 'tg.db'}")
    app = _app(service, api, lang="en", seed=3)
    try:
        async with app:
            table = await open_game(app, api, "board")
            await _warm_up_service(service, table)
            yield api, service, app, table
    finally:
        await service.close()


async def test_b15_two_people_build_send_counter_and_accept_a_trade_privately(tmp_path):
    async with _board_game(tmp_path) as (api, service, app, table):
        state = service.cache.state(table)
        ann_deeds, bob_deeds = _tradable(state, 0)[:2], _tradable(state, 1)[:2]
        cash_before = [p.cash for p in state.players]
        group_before = len([c for c in api.calls if int(c[1].get("chat_id", 0) or 0) == GROUP])

        # Ann asks for her options and opens the builder from there
        await _send(app, press(f"h:{table}", ANN))
        options = [b for (chat, _), m in api.messages.items() if chat == ANN for b in m["buttons"]]
        opener = next(b for b in options if b.startswith(f"t:{table}:n."))
        await _send(app, _tap(opener, ANN, 1))
        builder = _builder(api, ANN, table)
        for sq in ann_deeds:  # two of her deeds
            await _send(app, _tap(_signed(api, ANN, builder, f"m{sq}"), ANN, builder))
        await _send(app, _tap(_signed(api, ANN, builder, f"y{bob_deeds[0]}"), ANN, builder))
        await _send(app, _tap(_signed(api, ANN, builder, "xy"), ANN, builder))  # type what she pays
        asked = api.calls[-1][1]
        assert "reply_markup" in asked and "force_reply" in str(asked["reply_markup"])
        await _send(app, _typed("abc", ANN))  # not an amount: told what to type, nothing changes
        assert "whole number" in api.calls[-1][1]["text"]
        await _send(app, _typed("300", ANN))
        text = api.messages[(ANN, builder)]["text"]
        assert "You give:" in text and "You get:" in text and "Net value" in text
        assert "You give:" in text and "¥300" in text.split("You get:")[0]  # she pays the 300
        await _send(app, _tap(_signed(api, ANN, builder, "s"), ANN, builder))
        state = service.cache.state(table)
        assert len(state.trades) == 1
        first = state.trades[0]
        assert (first.proposer, first.target, sorted(first.give), first.get, first.give_cash) == \
            (0, 1, sorted(ann_deeds), [bob_deeds[0]], 300)
        assert not api.messages[(ANN, builder)]["buttons"], "a sent builder keeps no buttons"

        # Bob is told privately (a new message: it notifies) with Accept / Decline / Counter
        bob_msgs = [(mid, m) for (chat, mid), m in api.messages.items() if chat == BOB and m["buttons"]]
        assert bob_msgs
        counter = next(b for _, m in bob_msgs for b in m["buttons"] if b.startswith(f"t:{table}:k{first.id}."))
        accept = [a for a, _tok in service.buttons(table, 1) if type(a).__name__ == "AcceptTrade"]
        assert accept, "Bob may accept"
        # he counters: both of Ann's deeds, his deed, and Ann pays 500 instead of 300
        await _send(app, _tap(counter, BOB, 1))
        bob_builder = _builder(api, BOB, table)
        text = api.messages[(BOB, bob_builder)]["text"]
        assert f"#{first.id}" in text
        step = [b for b in api.messages[(BOB, bob_builder)]["buttons"] if b.split(".")[0].endswith(":cm100")
                or b.split(".")[0].endswith(":cm10")][0]
        small = int(step.split(".")[0].rsplit("cm", 1)[1])
        for _ in range(200 // small):
            await _send(app, _tap(step, BOB, bob_builder))
        await _send(app, _tap(_signed(api, BOB, bob_builder, "s"), BOB, bob_builder))
        state = service.cache.state(table)
        assert len(state.trades) == 1 and state.trades[0].counter == first.id
        second = state.trades[0]
        assert (second.proposer, second.target, second.get_cash) == (1, 0, 300 + 200)

        # Ann accepts the counter-offer from her private message
        token = next(tok for a, tok in service.buttons(table, 0)
                     if type(a).__name__ == "AcceptTrade" and a.trade == second.id)
        ann_live = [b for (chat, _), m in api.messages.items() if chat == ANN for b in m["buttons"]]
        assert token in ann_live, "the counter-offer reached Ann privately with its Accept button"
        await _send(app, press(token, ANN, chat=ANN))
        state = service.cache.state(table)
        assert all(state.owner[sq] == 1 for sq in ann_deeds) and state.owner[bob_deeds[0]] == 0
        assert state.players[0].cash < cash_before[0] and state.players[1].cash > cash_before[1]

        # the group saw one line for the trade made, and none of the haggling
        group = [c for c in api.calls[group_before:] if int(c[1].get("chat_id", 0) or 0) == GROUP]
        shown = " ".join(str(c[1].get("caption", "")) + str(c[1].get("text", "")) + str(c[1].get("media", ""))
                         for c in group)
        done = t("en", "board.ev.trade_done", proposer="", target="", give="", get="").split(":")[0].strip()
        assert "made a trade" in done and "made a trade" in shown
        for word in ("offer", "Offer", "counter", f"#{first.id}", "declined", "rejected"):
            assert word not in shown, word


async def test_b15_a_stale_or_forged_builder_press_is_refused_and_nothing_changes(tmp_path):
    async with _board_game(tmp_path) as (api, service, app, table):
        version = service.cache.row(table).version
        # a forged (unsigned) builder press, and Send on a builder that was never opened
        await _send(app, press(f"t:{table}:s", ANN, chat=ANN, signed=False))
        await _send(app, _tap(service.sign(f"t:{table}:s"), ANN, 1))
        alerts = [p for name, p in api.calls if name == "answerCallbackQuery" and p.get("show_alert")]
        assert len(alerts) >= 2 and service.cache.row(table).version == version
        assert not service.cache.state(table).trades
        # a non-player may not open one
        await _send(app, _tap(service.sign(f"t:{table}:n"), 9, 1))
        assert service.cache.row(table).version == version
        assert "not" in api.calls[-1][1].get("text", "").lower()


def test_update_shape_is_telegrams():
    """The typed-amount update parses as a Telegram message (a guard on the helper itself)."""
    update = Update.de_json(_typed("1", ANN), None)
    assert update.effective_chat.type == "private" and update.effective_message.text == "1"
