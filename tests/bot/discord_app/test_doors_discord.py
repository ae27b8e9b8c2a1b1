"""Issue 49 on Discord, over the fake Discord with real-shaped payloads: the commands registered for
both installs (a server's and a member's own account) and for the places each makes sense in (the
sync payload's ``integration_types`` and ``contexts``); a game command where no game can run (the
bot's DM, a group DM, a server that never added the bot) answered with what to do instead; a bid
and a trade picked in forms holding select menus, reaching the engine; ``/newgame``'s rule set and
options suggested as they are typed, in the typer's language."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from bot.chat import trade_builder
from bot.discord_app.doors import PERMISSIONS
from engine.games import GAMES
from tests.bot.discord_app.test_discord import (
    CHANNEL,
    click,
    dispatch,
    open_table,
    play_one,
    reach,
    running_bot,
    slash,
)
from tests.bot.telegram_app.test_telegram_trades import _tradable, _warm_up_service
from tests.fakes import discord_checks
from tests.fakes.discord_api import APP_ID, GUILD, autocomplete_payload, elsewhere, text_of
from tests.fakes.discord_api import DiscordAPI as FakeDiscord
from words.i18n import t

ANN, BOB, CAT = 1, 2, 3
EVERYWHERE = {"newgame", "join", "leave", "endgame", "hand", "rules", "lang", "stats", "top", "me", "help"}
SERVERS_ONLY = {"season", "schedule", "tournament", "standings", "team", "rep"}
WEB = "https://tycoon.example"


def _links(reply: dict) -> dict[str, str]:
    """A reply's link buttons: label -> address."""
    return {c["label"]: c["url"] for row in reply.get("components") or [] for c in row.get("components", [])
            if c.get("style") == 5}


def _signed(fake, prefix: str) -> str:
    """The newest id the bot showed that starts with ``prefix`` (signature and all)."""
    found = [c for c in fake.custom_ids() if c.startswith(prefix + ".")]
    assert found, prefix
    return found[0]


async def test_every_command_is_registered_for_both_installs_where_it_makes_sense(tmp_path, monkeypatch):
    """The sync payload: the game's and a member's own commands installable to a server and to a
    member's account, usable in servers, the bot's DM and group DMs; what sets up a server's
    channel or its tournaments only where the bot is in the server. ``ruleset`` and ``options``
    are suggested as typed (no fixed choices beside them)."""
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        client.sync_commands = True
        assert await client.sync_tree()
        sent = next(p["commands"] for m, u, p in fake.calls if m == "PUT" and u == f"/applications/{APP_ID}/commands")
        by = {c["name"]: c for c in sent}
        assert set(by) >= EVERYWHERE | SERVERS_ONLY
        for name in EVERYWHERE:
            assert (by[name]["integration_types"], by[name]["contexts"]) == ([0, 1], [0, 1, 2]), name
        for name in SERVERS_ONLY:
            assert (by[name]["integration_types"], by[name]["contexts"]) == ([0], [0]), name
        assert all(c.get("integration_types") and c.get("contexts") for c in sent), "every command says where"
        options = {o["name"]: o for o in by["newgame"]["options"]}
        assert options["ruleset"]["autocomplete"] and "choices" not in options["ruleset"]
        assert options["options"]["autocomplete"] and options["game"]["choices"]
        kept = {c["name"]: c for c in fake.commands}
        assert kept["me"]["integration_types"] == [0, 1] and kept["season"]["contexts"] == [0]


def test_the_fake_refuses_places_discord_refuses():
    """Install types the application does not allow, unknown contexts, autocomplete beside choices:
    Discord's 50035, by the bad field's path."""
    api = FakeDiscord()
    api.install_types = (0,)  # the application is not user-installable (its settings on Discord)
    command = {"name": "x", "description": "d", "integration_types": [0, 1], "contexts": [0, 3], "options": [
        {"type": 3, "name": "a", "description": "d", "autocomplete": True, "choices": [{"name": "n", "value": "v"}]},
        {"type": 5, "name": "b", "description": "d", "autocomplete": True}]}
    status, body = api.handle("PUT", f"/applications/{APP_ID}/commands", [command], [])
    assert status == 400 and body["code"] == 50035 and api.commands == []
    errors = body["errors"]["0"]
    assert set(errors["integration_types"]) == {"1"} and set(errors["contexts"]) == {"1"}
    assert set(errors["options"]) == {"0", "1"}
    assert not discord_checks.check_places([{**command, "integration_types": [0], "contexts": [0, 1, 2],
                                             "options": []}], supported=(0,))


async def test_a_game_command_where_no_game_can_run_says_what_to_do_instead(tmp_path, monkeypatch):
    """/newgame, /join and /hand from someone who added Tycoon to their own account, in their DM
    with the bot, a group DM and a server that never added the bot: no table, and a reply only
    they see saying why, with the doors one tap each (add Tycoon to a server: this one when they
    are in one; the web table)."""
    monkeypatch.setenv("TYCOON_WEB_URL", WEB)
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        for where, why in (("dm", "dc.where.dm"), ("group", "dc.where.private"), ("guest", "dc.where.guild")):
            for command in (slash("newgame", ANN, game="board"), slash("join", ANN), slash("hand", ANN)):
                await dispatch(client, elsewhere(command, where))
                reply = fake.last_reply()
                assert reply["flags"] & 64, "for the asker alone"
                assert reply["content"] == t("en", why) + "\n" + t("en", "dc.where.web"), (where, reply["content"])
                links = _links(reply)
                add = parse_qs(urlparse(links[t("en", "dc.btn.add_here" if where == "guest" else
                                                  "dc.btn.add_server")]).query)
                assert add["client_id"] == [str(APP_ID)] and add["integration_type"] == ["0"]
                assert add["scope"] == ["bot applications.commands"] and add["permissions"] == [str(PERMISSIONS.value)]
                assert add.get("guild_id") == ([str(GUILD)] if where == "guest" else None)
                assert links[t("en", "dc.btn.web")] == WEB + "/"
        assert not [c for c in fake.custom_ids() if c.startswith("l:")], "no lobby was opened anywhere"

        # what is the asker's own works in a group DM too
        for name, key in (("me", "ch.me.none"), ("rules", None), ("top", "ch.top.empty")):
            await dispatch(client, elsewhere(slash(name, BOB), "group"))
            said = text_of(fake.last_reply())  # /top answers in front of everyone: Components v2
            assert all(t("en", k) not in said for k in ("dc.where.dm", "dc.where.private", "dc.where.guild"))
            assert key is None or t("en", key) in said, (name, said)
        await dispatch(client, elsewhere(slash("help", BOB), "group"))
        reply = fake.last_reply()
        assert reply["content"].startswith(t("en", "dc.help")[:40])
        mine = parse_qs(urlparse(_links(reply)[t("en", "dc.btn.add_mine")]).query)
        assert mine["integration_type"] == ["1"] and mine["scope"] == ["applications.commands"]

        # the same command in a server that added the bot opens a table
        await dispatch(client, slash("newgame", ANN, game="board"))
        assert [c for c in fake.custom_ids() if c.startswith("l:")]


async def test_a_member_who_added_tycoon_to_their_account_joins_a_table_with_one_tap(tmp_path, monkeypatch):
    """The door the four-doors test scripts for a Discord member: a table opened in a server that
    added the bot; a member who added Tycoon to their own account (the interaction names both
    installs) taps Join on the table message, the creator taps Start: a running game, and no
    command typed by that member."""
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("newgame", ANN, game="deal"))
        table = int([c for c in fake.custom_ids() if c.startswith("l:")][0].split(":")[1])
        join = click(f"l:{table}:join", BOB)
        join["authorizing_integration_owners"] = {"0": str(GUILD), "1": str(BOB)}
        await dispatch(client, join)
        await dispatch(client, click(f"l:{table}:start", ANN))
        row = service.cache.row(table)
        assert row.status == "running" and [s["user"] for s in row.seats] == ["dc:1", "dc:2"]


async def _to_auction(client, fake, service, table: int) -> int:
    """Play on (declining every street) until an auction waits for a person: the bidder's seat."""
    rules = GAMES["board"].rules
    for _ in range(200):
        state = service.cache.state(table)
        if state.stage == "auction":
            return rules.waiting_for(state)[0].seat
        decision = rules.waiting_for(state)[0]
        if decision.kind == "buy":  # declined: the street goes to auction
            uid = int(service.cache.row(table).seats[decision.seat]["user"][3:])
            token = next(tok for a, tok in service.buttons(table, decision.seat) if a == decision.timeout)
            await dispatch(client, click(await reach(client, fake, service, table, uid, token), uid))
        else:
            await play_one(client, fake, service, table)
    raise AssertionError("no auction")


async def test_B04_a_bid_chosen_in_a_forms_select_menu_reaches_the_engine(tmp_path, monkeypatch):
    """"✏️ Type a bid" opens a form: the question, a select menu of sensible amounts (the least bid,
    the steps the buttons offer, all the bidder could raise) and a text input for any amount, each
    in a Label. The amount chosen is the bid; a typed one counts instead (too low: the rule's
    reason, nothing changes); an empty form says what to do."""
    async with running_bot(tmp_path, monkeypatch, seed=3) as (client, fake, service):
        table = await open_table(client, fake, service, "board", ai=False)
        bidder = await _to_auction(client, fake, service, table)
        uid = int(service.cache.row(table).seats[bidder]["user"][3:])
        await dispatch(client, click(f"a:{table}", uid))
        form = fake.last_form(uid)
        assert form["custom_id"].startswith(f"a:{table}.") and form["title"] == t("en", "amount.form_title")
        assert [c["type"] for c in form["components"]] == [10, 18, 18]
        pick, typed = form["components"][1], form["components"][2]
        assert pick["label"] == t("en", "amount.pick") and pick["component"]["type"] == 3
        assert typed["label"] == t("en", "amount.type") and typed["component"]["type"] == 4
        amounts = [int(o["value"]) for o in pick["component"]["options"]]
        view = (await service.public_view(table)).board
        least, most = view["min_bid"], view["bid_reach"][bidder]
        assert amounts == sorted(amounts) and amounts[0] == least and amounts[-1] == most and len(amounts) >= 3
        offered = {getattr(a, "amount", None) for a, _ in service.buttons(table, bidder)} - {None}
        assert offered <= set(amounts), "the buttons' steps are in the list"

        before = service.cache.row(table).version
        await dispatch(client, fake.form_payload(form["custom_id"], uid, {}))
        assert fake.last_reply()["content"] == t("en", "amount.pick_or_type")
        await dispatch(client, fake.form_payload(form["custom_id"], uid, {"pick": [str(least)], "amount": "5"}))
        assert "B-04" in fake.last_reply()["content"], "the typed amount counts, and is too low"
        assert service.cache.row(table).version == before and service.cache.state(table).auction.high_bidder < 0

        chosen = amounts[1]
        await dispatch(client, fake.form_payload(form["custom_id"], uid, {"pick": [str(chosen)]}))
        auction = service.cache.state(table).auction
        assert (auction.high_bid, auction.high_bidder) == (chosen, bidder)
        assert fake.last_reply()["content"] == t("en", "amount.done")


async def test_B15_a_trade_picked_in_a_form_of_select_menus(tmp_path, monkeypatch):
    """Three players: the builder's "✏️ The offer in a form" holds the partner, the deeds given and
    asked for as select menus and both amounts; what the draft holds is filled in, so a second
    form picks up where the first left; choosing another partner leaves out what was asked of the
    former one, and says so. The offer sent is what the forms said."""
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("newgame", ANN, game="board"))
        table = int([c for c in fake.custom_ids() if c.startswith("l:")][0].split(":")[1])
        for uid in (BOB, CAT):
            await dispatch(client, click(f"l:{table}:join", uid))
        await dispatch(client, click(f"l:{table}:start", ANN))
        await _warm_up_service(service, table)
        state = service.cache.state(table)
        mine, bobs = _tradable(state, 0)[:2], _tradable(state, 1)

        await dispatch(client, click(f"h:{table}", ANN))
        await dispatch(client, click(_signed(fake, f"t:{table}:n"), ANN, signed=False))
        await dispatch(client, click(_signed(fake, f"t:{table}:xy"), ANN, signed=False))
        form = fake.last_form(ANN)
        assert form["custom_id"].startswith(f"t:{table}:xm.") and form["title"] == t("en", "trade.form_title")
        fields = {c["component"]["custom_id"]: c for c in form["components"]}
        assert {"vp", "vm", "you", "them"} <= set(fields) and len(form["components"]) <= 5
        assert [o["value"] for o in fields["vp"]["component"]["options"]] == ["1", "2"]
        assert {int(o["value"]) for o in fields["vm"]["component"]["options"]} >= set(mine)
        assert fields["vm"]["component"]["max_values"] > 1 and fields["you"]["label"].startswith("You pay")
        await dispatch(client, fake.form_payload(form["custom_id"], ANN, {
            "vp": ["1"], "vm": [str(sq) for sq in mine], "you": "200"}))

        await dispatch(client, click(_signed(fake, f"t:{table}:xy"), ANN, signed=False))
        form = fake.last_form(ANN)
        fields = {c["component"]["custom_id"]: c["component"] for c in form["components"]}
        assert [o["value"] for o in fields["vp"]["options"] if o.get("default")] == ["1"], "Bob, as chosen"
        assert sorted(int(o["value"]) for o in fields["vm"]["options"] if o.get("default")) == sorted(mine)
        assert {int(o["value"]) for o in fields["vy"]["options"]} == set(bobs) and fields["you"]["value"] == "200"
        # another partner in the same form: what was asked of Bob is not Cat's, so it is left out, said
        await dispatch(client, fake.form_payload(form["custom_id"], ANN, {"vp": ["2"], "vy": [str(bobs[0])]}))
        assert fake.last_reply()["content"] == t("en", "trade.form_partner_changed")
        draft = await trade_builder.load(service, table, "dc:1")
        assert (draft.target, draft.get, sorted(draft.give), draft.cash) == (2, [], sorted(mine), 200)
        await dispatch(client, fake.form_payload(form["custom_id"], ANN, {"vp": ["1"], "vy": []}))
        await dispatch(client, click(_signed(fake, f"t:{table}:xy"), ANN, signed=False))
        form = fake.last_form(ANN)
        await dispatch(client, fake.form_payload(form["custom_id"], ANN, {"vy": [str(bobs[0])]}))
        await dispatch(client, click(_signed(fake, f"t:{table}:s"), ANN, signed=False))

        offer = service.cache.state(table).trades[0]
        assert (offer.proposer, offer.target, sorted(offer.give), offer.get, offer.give_cash, offer.get_cash) == (
            0, 1, sorted(mine), [bobs[0]], 200, 0)


async def test_newgame_suggests_the_chosen_games_rule_sets_and_options_in_the_typers_language(tmp_path, monkeypatch):
    """Autocomplete (interaction type 4, answered with type 8): the rule sets of the game chosen in
    the same command, narrowed by what is typed; the options not named yet, each with the value
    that changes the table, after the words typed so far; in the typer's Discord language. A rule
    set's name in any language, sent as typed, opens the table with that rule set."""
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        async def suggested(locale: str = "en-US", **values) -> list[dict]:
            focused = next(k for k in ("options", "ruleset") if k in values)
            await dispatch(client, autocomplete_payload("newgame", ANN, focused, locale, **values))
            _, url, answer = fake.calls[-1]
            assert url.endswith("/callback") and answer["type"] == 8
            return answer["data"]["choices"]

        board = await suggested(game="board", ruleset="")
        assert [c["value"] for c in board] == ["china", "classic"]
        assert board[0]["name"] == f"{t('en', 'ui.ruleset.china')} · china"
        assert [c["value"] for c in await suggested(game="deal", ruleset="")] == ["standard", "tournament"]
        assert [c["value"] for c in await suggested(game="board", ruleset="cla")] == ["classic"]
        assert [c["name"] for c in await suggested("zh-CN", game="board", ruleset="经典")] == ["经典版 · classic"]
        assert {c["value"] for c in await suggested(ruleset="")} == {"china", "classic", "standard", "tournament"}

        toggles = GAMES["board"].toggles
        fresh = await suggested(game="board", ruleset="china", options="")
        assert len(fresh) == len({o.name for o in toggles}) <= 25
        assert "no_trading=on" in {c["value"] for c in fresh}
        assert {c["name"] for c in fresh} >= {t("en", "dc.ac.on", option=t("en", "opt.no_trading"))}
        more = await suggested("zh-TW", game="board", ruleset="china", options="no_trading=on ")
        assert len(more) == len(fresh) - 1 and all(c["value"].startswith("no_trading=on ") for c in more)
        assert all(c["name"].startswith("… + ") for c in more)
        assert t("zh-Hant", "dc.ac.on", option=t("zh-Hant", "opt.rent_claim")) in {c["name"][4:] for c in more}
        assert [c["value"] for c in await suggested(game="board", options="rent")] == ["rent_claim=on"]

        await dispatch(client, slash("newgame", ANN, game="board", ruleset="經典版", options="no_trading=on"))
        table = int([c for c in fake.custom_ids() if c.startswith("l:")][0].split(":")[1])
        row = service.cache.row(table)
        assert row.ruleset == "classic" and row.options.get("no_trading") is True
        assert all(len(i.answers) == 1 for i in fake.interactions.values())
        assert CHANNEL  # (the table opened in the server's channel, as ever)


def test_the_fake_refuses_forms_and_suggestions_over_discords_limits():
    """A form: title over 45, six top-level components, a select menu of 26 options, a disabled
    one, a custom id over 100, a Label over 45, a Label holding a button; suggestions: 26 of them,
    a name over 100. Each refused by its path, as Discord does."""
    def label(component: dict, text: str = "x") -> dict:
        return {"type": 18, "label": text, "component": component}

    select = {"type": 3, "custom_id": "s", "options": [{"label": str(i), "value": str(i)} for i in range(26)]}
    form = {"custom_id": "c" * 101, "title": "t" * 46, "components": [
        label(select), label({**select, "custom_id": "d", "options": select["options"][:2], "disabled": True}),
        label({"type": 4, "custom_id": "e", "style": 1}, "l" * 46), label({"type": 2, "custom_id": "f", "style": 1}),
        {"type": 10, "content": "words"}, {"type": 10, "content": "more"}]}
    paths = {p for p, _ in discord_checks.check_modal(form).flat}
    assert {"data.custom_id", "data.title", "data.components", "data.components.0.component.options",
            "data.components.1.component.disabled", "data.components.2.label",
            "data.components.3.component"} <= paths, paths
    fine = {"custom_id": "a:1.0", "title": "Your bid", "components": [
        {"type": 10, "content": "How much?"},
        label({**select, "options": select["options"][:3], "min_values": 0, "required": False}),
        label({"type": 4, "custom_id": "amount", "style": 1, "label": None, "required": False, "max_length": 12}),
        {"type": 1, "components": [{"type": 4, "custom_id": "old", "style": 1, "label": "Old style"}]}]}
    assert not discord_checks.check_modal(fine).flat
    required = {**fine, "components": [label({**select, "options": select["options"][:3], "min_values": 0})]}
    assert {p for p, _ in discord_checks.check_modal(required).flat} == {"data.components.0.component.min_values"}
    many = {"choices": [{"name": str(i), "value": str(i)} for i in range(26)]}
    assert {p for p, _ in discord_checks.check_autocomplete(many).flat} == {"data.choices"}
    long = {"choices": [{"name": "n" * 101, "value": "v"}]}
    assert {p for p, _ in discord_checks.check_autocomplete(long).flat} == {"data.choices.0.name"}
