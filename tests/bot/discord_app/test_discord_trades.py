"""B-15 over the Discord fakes: two people build a trade in ephemeral messages (select menus for
the deeds, a form for the cash), counter it and accept it; the channel sees only the trade made."""

from __future__ import annotations

from tests.bot.discord_app.test_discord import CHANNEL, _base, _message, click, dispatch, open_table, running_bot
from tests.bot.telegram_app.test_telegram_trades import _tradable, _warm_up_service
from tests.fakes.discord_api import text_of

ANN, BOB = 1, 2


def choose(custom_id: str, uid: int, values: list[int]) -> dict:
    """A choice in one of the builder's select menus (an ephemeral message of ours)."""
    row = {"type": 1, "components": [{"type": 3, "custom_id": custom_id, "min_values": 0, "max_values": 25,
                                      "options": [{"label": str(v), "value": str(v)} for v in values] or
                                      [{"label": "·", "value": "-"}]}]}
    message = {**_message(components=[row]), "flags": 64}
    return {**_base(uid, 3), "data": {"custom_id": custom_id, "component_type": 3,
                                      "values": [str(v) for v in values]}, "message": message}


def form(custom_id: str, uid: int, **fields: str) -> dict:
    """A submitted form (the builder's cash)."""
    rows = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in fields.items()]
    return {**_base(uid, 5), "data": {"custom_id": custom_id, "components": rows}}


def shown(fake, prefix: str) -> str:
    """The newest signed id the bot showed that starts with ``prefix``."""
    found = [c for c in fake.custom_ids() if c.startswith(prefix + ".")]
    assert found, prefix
    return found[0]


async def test_b15_a_trade_built_in_ephemeral_messages_countered_and_accepted(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        table = await open_table(client, fake, service, game="board", ai=False)
        await _warm_up_service(service, table)
        state = service.cache.state(table)
        ann_deeds, bob_deeds = _tradable(state, 0)[:2], _tradable(state, 1)[:2]
        calls_before = len(fake.calls)

        await dispatch(client, click(f"h:{table}", ANN))  # My options: "Propose a trade" is there
        await dispatch(client, click(shown(fake, f"t:{table}:n"), ANN, signed=False))
        await dispatch(client, choose(shown(fake, f"v:{table}:m"), ANN, ann_deeds))
        await dispatch(client, choose(shown(fake, f"v:{table}:y"), ANN, bob_deeds[:1]))
        await dispatch(client, click(shown(fake, f"t:{table}:xy"), ANN, signed=False))
        assert any(p.get("type") == 9 for _, u, p in fake.calls if u.endswith("/callback")), "a form opened"
        await dispatch(client, form(client.front.service.sign(f"t:{table}:xm"), ANN, you="abc", them=""))
        assert "whole number" in str(fake.last_reply().get("content")), "not an amount: told what to type"
        await dispatch(client, form(client.front.service.sign(f"t:{table}:xm"), ANN, you="300", them=""))
        await dispatch(client, click(shown(fake, f"t:{table}:s"), ANN, signed=False))
        state = service.cache.state(table)
        assert len(state.trades) == 1
        first = state.trades[0]
        assert (sorted(first.give), first.get, first.give_cash) == (sorted(ann_deeds), bob_deeds[:1], 300)

        # Bob counters from his options: Ann should pay 500
        await dispatch(client, click(f"h:{table}", BOB))
        await dispatch(client, click(shown(fake, f"t:{table}:k{first.id}"), BOB, signed=False))
        await dispatch(client, form(client.front.service.sign(f"t:{table}:xm"), BOB, you="0", them="500"))
        await dispatch(client, click(shown(fake, f"t:{table}:s"), BOB, signed=False))
        state = service.cache.state(table)
        second = state.trades[0]
        assert (second.counter, second.proposer, second.get_cash) == (first.id, 1, 500)

        # Ann accepts it with the button of her options
        await dispatch(client, click(f"h:{table}", ANN))
        token = next(tok for a, tok in service.buttons(table, 0)
                     if type(a).__name__ == "AcceptTrade" and a.trade == second.id)
        assert f"g:{token}" in fake.custom_ids()
        await dispatch(client, click(f"g:{token}", ANN))
        state = service.cache.state(table)
        assert all(state.owner[sq] == 1 for sq in ann_deeds) and state.owner[bob_deeds[0]] == 0

        # what the channel shows: its messages (the ephemeral builders and options are nobody else's)
        public = " ".join(str(text_of(p)) for _, url, p in fake.calls[calls_before:]
                          if f"/channels/{CHANNEL}/messages" in url)
        assert "made a trade" in public
        for word in ("offer", "Offer", f"#{first.id}"):
            assert word not in public.replace("made a trade", ""), word
