"""Component ids on Discord: one grammar, read by exactly one item, and an answer for any id.

discord.py runs *every* ``DynamicItem`` whose template matches a pressed id, so two templates that
both match one id answer one press twice (the second answer is refused by Discord, 40060, and the
player sees an error). Each item owns the first letters of its ids (``KINDS``) and no two items
share one; an id no item reads (made up, or from an older version) still gets an answer.

Also the small things of the same area: ``/stats`` answers only the one who asked, and sign-up
messages lose their button when sign-up is over.
"""

from __future__ import annotations

import itertools
import re
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord_app.items import DYNAMIC_ITEMS, item_for
from tests.bot.discord_app.test_discord import (
    CHANNEL,
    MANAGE_GUILD,
    _base,
    _message,
    click,
    dispatch,
    running_bot,
    slash,
)
from tests.fakes.discord_api import text_of
from words.i18n import t


def test_every_item_owns_the_first_letters_of_its_ids():
    for item in DYNAMIC_ITEMS:
        template = item.__discord_ui_compiled_template__.pattern
        # the template starts with exactly its kinds: one letter, or a class of them, then ":"
        head = re.match(r"(?:\(\?P<\w+>)?(\[[A-Za-z]+\]|[A-Za-z]):", template)
        assert head is not None, template
        assert set(head.group(1).strip("[]")) == set(item.KINDS), (item.__name__, template)
    for a, b in itertools.combinations(DYNAMIC_ITEMS, 2):
        assert not set(a.KINDS) & set(b.KINDS), (a.__name__, b.__name__)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from("ghlbespTtvx") | st.text(string.ascii_letters, max_size=1),
       st.text(string.ascii_lowercase + string.digits + ":.", max_size=30),
       st.none() | st.text("0123456789abcdef", min_size=8, max_size=8))
def test_no_id_is_read_by_two_items(kind, body, mac):
    custom_id = f"{kind}:{body}" + (f".{mac}" if mac else "")
    readers = [i for i in DYNAMIC_ITEMS if i.__discord_ui_compiled_template__.fullmatch(custom_id)]
    assert len(readers) <= 1, (custom_id, readers)
    assert item_for(custom_id) is (readers[0] if readers else None)


def _pressed(custom_id: str, uid: int, component_type: int = 2) -> dict:
    """A press on a component whose id no item of the bot reads."""
    component = {"type": component_type, "custom_id": custom_id}
    if component_type == 2:
        component.update(style=1, label="x")
    else:
        component.update(options=[{"label": "a", "value": "a"}])
    payload = {**_base(uid, 3), "data": {"custom_id": custom_id, "component_type": component_type},
               "message": _message(components=[{"type": 1, "components": [component]}])}
    if component_type == 3:
        payload["data"]["values"] = ["a"]
    return payload


async def test_a_made_up_id_still_gets_a_private_answer(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        # no item reads the first four; an old-style trade menu id is a (badly signed) button's
        for custom_id, kind in (("x:1:join", 2), ("zz", 2), ("q:1", 3), ("v:1:q.0123abcd", 3),
                                ("t:1:vm.0123abcd", 3)):
            assert (item_for(custom_id) is None) == (custom_id[0] != "t")
            calls = len(fake.calls)
            await dispatch(client, _pressed(custom_id, 5, kind))
            answers = [p for m, u, p in fake.calls[calls:] if u.endswith("/callback")]
            assert len(answers) == 1, custom_id
            assert answers[0]["data"]["flags"] == 64
            assert answers[0]["data"]["content"] == t("en", "service.bad_token")
        # a form whose id is no form of ours: answered too
        calls = len(fake.calls)
        await dispatch(client, {**_base(5, 5), "data": {"custom_id": "t:1:xm.00000000", "components": []}})
        assert [p["data"]["content"] for m, u, p in fake.calls[calls:] if u.endswith("/callback")] == \
            [t("en", "service.bad_token")]


async def test_stats_answers_only_the_one_who_asked(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("stats", 1))
        reply = fake.last_reply()
        assert reply["flags"] == 64 and text_of(reply) == t("en", "ch.no_results")
        assert not fake.live(CHANNEL) and not [p for p in fake.public() if text_of(p)]


async def test_a_scheduled_matchs_sign_up_messages_lose_their_button_when_it_starts(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("schedule", 3, permissions=MANAGE_GUILD, game="deal", start="+30", minutes=20,
                                     ai=1))
        await dispatch(client, click(next(c for c in fake.custom_ids() if c.startswith("s:")), 1))
        now = service.clock()
        service.clock = lambda: now + 20 * 60  # the announcement, 15 minutes ahead: a second sign-up message
        await service.sweep()
        await service.idle()
        signups = {mid for mid, ids in fake.live(CHANNEL).items() if any(i.startswith("s:") for i in ids)}
        assert len(signups) == 2, "the /schedule answer and the announcement"
        service.clock = lambda: now + 31 * 60  # the match starts
        await service.sweep()
        await service.idle()
        assert not [mid for mid, ids in fake.live(CHANNEL).items() if any(i.startswith("s:") for i in ids)]
        assert all(text_of(fake.messages[(CHANNEL, mid)]) for mid in signups), "the text stays"


async def test_a_match_called_off_closes_its_sign_up_too(tmp_path, monkeypatch):
    async with running_bot(tmp_path, monkeypatch) as (client, fake, service):
        await dispatch(client, slash("schedule", 3, permissions=MANAGE_GUILD, game="deal", start="+30", minutes=20))
        now = service.clock()
        service.clock = lambda: now + 31 * 60  # nobody signed up, no AI seats: called off
        await service.sweep()
        await service.idle()
        assert not [mid for mid, ids in fake.live(CHANNEL).items() if any(i.startswith("s:") for i in ids)]
        assert any(t("en", "service.schedule_too_few", min=2) in text_of(p) for p in fake.public())
