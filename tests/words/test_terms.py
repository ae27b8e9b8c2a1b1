"""One name per card kind, in simplified and in traditional Chinese (issue 47).

A tester found one card kind under several names (the wild property was 万能地产 on the web,
万能房产 in the terminal's help and 多功能物业 on the card; drawing was 摸 here and 抽 there), a
player's own screen calling them by their own name, and "欠 AI 2 5M" reading as "AI 25M".

``TERMS`` is the table: for each Deal card kind (and a few 地产大亨 terms) the one word every text
uses, in zh-Hans and zh-Hant, taken from the printed cards and the user's rule documents
(shared/seeds 003/004 for 大富翁纸牌, 000/001 for 地产大亨), and the other names it has gone by.
The tests list every name found for a kind across the catalogues (``data/locale``), the card and
square names (``data/deal/deck.json``, ``data/board/*.json``) and the words made while a game is
played (button labels, the steps of the private keyboard, log lines, prompts, the text table);
a kind with more than one name fails, naming the texts that use the other one.

The words a player may *type* at the terminal (``console.alias.*``, ``console.*_words``) are left
out: they accept several spellings on purpose (建房 and 盖房 both build).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from engine.deal import DEAL
from engine.deal.ai import choose
from engine.deal.cards import CARDS
from tests.paths import ROOT
from words import deal_steps, deal_text
from words.games import WORDS
from words.i18n import CATALOGUES, addressed_to_you, t

DATA = ROOT / "data"
ZH = ("zh-Hans", "zh-Hant")


@dataclass(frozen=True)
class Term:
    kind: str  # the card kind (a deck key or kind) or the board thing it names
    game: str  # "deal" or "board": which game's texts must use it (the other game may use its own word)
    hans: str  # the one name, simplified
    hant: str  # the one name, traditional
    wrong: tuple[str, ...]  # names it must not go by (either script; a regular expression), e.g. 万能 for the wild
    card: str | None = None  # a deck key whose printed name is, or starts with, the term


TERMS = (
    # -- 大富翁纸牌: the printed names (deck.json), as in seeds 003/004 --------------------------
    Term("money", "deal", "货币", "貨幣", ("钱币", "錢幣", "现金牌", "現金牌"), card="money_1"),
    Term("property", "deal", "物业", "物業", ("房产", "房產", "地产", "地產", "地皮")),
    Term("wild", "deal", "多功能物业", "多功能物業",
         ("万能", "萬能", "百搭", "变色物业", "變色物業", "双色物业", "雙色物業"), card="wild_pink_orange"),
    Term("wild_any", "deal", "彩色多功能物业", "彩色多功能物業", ("任意颜色的万能", "任意顏色的萬能"), card="wild_any"),
    Term("rent_wild", "deal", "彩色租金", "彩色租金", ("任意租金", "任何租金", "万能租金", "萬能租金"),
         card="rent_wild"),
    Term("deal_breaker", "deal", "物业接管", "物業接管", ("物业按管", "物業按管", "交易破坏", "交易破壞"),
         card="deal_breaker"),
    Term("just_say_no", "deal", "作出反对", "作出反對",
         ("我不要", "说不", "說不", "(?<!作出)反对牌", "(?<!作出)反對牌"), card="just_say_no"),
    Term("sly_deal", "deal", "盗取", "盜取", ("巧取", "偷取", "偷走"), card="sly_deal"),
    Term("forced_deal", "deal", "强制交易", "強制交易", ("强行交易", "強行交易", "强迫交易", "強迫交易"),
         card="forced_deal"),
    Term("debt_collector", "deal", "收取债务", "收取債務", ("收债", "收債", "讨债", "討債", "追债", "追債"),
         card="debt_collector"),
    Term("birthday", "deal", "我的生日", "我的生日", ("生日快乐", "生日快樂"), card="birthday"),
    Term("pass_go", "deal", "通行证", "通行證", ("通过起点", "通過起點", "经过起点", "經過起點"), card="pass_go"),
    Term("house", "deal", "房子", "房子", ("房屋",), card="house"),
    Term("hotel", "deal", "酒店", "酒店", ("旅馆", "旅館"), card="hotel"),
    Term("double_rent", "deal", "双倍租金", "雙倍租金", ("加倍租金", "租金翻倍"), card="double_rent"),
    Term("draw", "deal", "抽", "抽", ("摸",)),
    Term("draw_pile", "deal", "抽牌堆", "抽牌堆", ("摸牌堆", "领牌处", "領牌處")),
    Term("action_card", "deal", "行动牌", "行動牌", ("行动卡", "行動卡")),
    # -- 地产大亨: a few of its own words (seeds 000/001) ---------------------------------------
    Term("board_property", "board", "地产", "地產", ("物业", "物業", "房产", "房產")),
    Term("board_house", "board", "房子", "房子", ("房屋",)),
    Term("board_hotel", "board", "旅馆", "旅館", ("酒店",)),
    Term("board_build", "board", "盖", "蓋", ("建房", "建屋")),
    Term("jail_card", "board", "免费出狱卡", "免費出獄卡", ("(?<!免费)出狱卡", "(?<!免費)出獄卡", "保释卡", "保釋卡")),
)
BY_KIND = {term.kind: term for term in TERMS}

# The one place each word of the other game belongs: 酒店 is Deal's hotel, 旅馆 the board's, and
# 地产大亨 is a game's name, not a Deal property.
GAME_NAMES = ("地产大亨", "地產大亨")
TYPED = re.compile(r"^console\.(alias\.|.*_words$)")
# board texts whose keys do not say so (the terminal's board help)
BOARD_KEYS = frozenset({"console.suggest_raise", "console.act.lift", "console.standing.board"})


def _json(path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _strings(obj: object, lang: str) -> Iterator[str]:
    """Every text of ``lang`` in a data file (the values under a ``lang`` key, at any depth)."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key == lang and isinstance(value, str):
                yield value
            else:
                yield from _strings(value, lang)
    elif isinstance(obj, list):
        for item in obj:
            yield from _strings(item, lang)


def _game_of(key: str) -> str:
    """Which game a catalogue text speaks of: "deal", "board" or "shared" (by key, or for a table
    option by the rule id its English text cites)."""
    parts = key.split(".")
    english = CATALOGUES["en"].get(key, "") + CATALOGUES["en"].get(f"{key}.help", "")  # an option: its help
    if ("deal" in parts or key.startswith(("console.card.", "web.card.", "console.help.deal"))
            or re.search(r"\(D-\d", english)):
        return "deal"
    if ("board" in parts or key.startswith(("console.square.", "web.sq.", "trade.", "console.trade"))
            or key in BOARD_KEYS or re.search(r"\(B-\d", english)):
        return "board"
    return "shared"


def shipped(lang: str) -> list[tuple[str, str, str]]:
    """Every shipped text of ``lang`` as (where, game, text): catalogue keys, card and square names."""
    catalogue = _json(DATA / "locale" / f"{lang}.json")
    out = [(f"locale:{key}", _game_of(key), text) for key, text in catalogue.items() if not TYPED.match(key)]
    out += [("deck.json", "deal", text) for text in _strings(_json(DATA / "deal" / "deck.json"), lang)]
    for ruleset in ("china", "classic"):
        out += [(f"board/{ruleset}.json", "board", text)
                for text in _strings(_json(DATA / "board" / f"{ruleset}.json"), lang)]
    return out


def _mentions(text: str, word: str) -> bool:
    """Whether ``text`` uses ``word`` (a plain word or a pattern), the game names aside."""
    for name in GAME_NAMES:
        text = text.replace(name, "")
    return re.search(word, text) is not None


def names_used(term: Term, lang: str, texts: list[tuple[str, str, str]]) -> dict[str, list[str]]:
    """Each name ``term``'s kind goes by in ``texts`` (the right one and any wrong one), with where."""
    right = term.hans if lang == "zh-Hans" else term.hant
    found: dict[str, list[str]] = {}
    for where, game, text in texts:
        if game not in (term.game, "shared"):
            continue  # the other game has its own word (旅馆 on the board, 酒店 in Deal)
        for word in (right, *term.wrong):
            if _mentions(text, word):
                found.setdefault(word, []).append(f"{where}: {text}")
    return found


# -- the table itself ----------------------------------------------------------------------------


def test_the_table_names_each_kind_once_and_no_right_word_is_also_a_wrong_one():
    assert len(BY_KIND) == len(TERMS)
    for term in TERMS:
        assert term.hans not in term.wrong and term.hant not in term.wrong, term.kind
        assert not any(w in term.hans or w in term.hant for w in term.wrong), term.kind


@pytest.mark.parametrize("term", [t_ for t_ in TERMS if t_.card], ids=lambda term: term.kind)
def test_a_card_s_printed_name_is_its_kind_s_term(term):
    (card,) = [c for c in _json(DATA / "deal" / "deck.json")["cards"] if c["key"] == term.card]
    assert term.hans in card["names"]["zh-Hans"] and term.hant in card["names"]["zh-Hant"]


# -- every shipped text ------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ZH)
@pytest.mark.parametrize("term", TERMS, ids=lambda term: term.kind)
def test_each_kind_has_one_name_in_every_shipped_text(term, lang):
    used = names_used(term, lang, shipped(lang))
    right = term.hans if lang == "zh-Hans" else term.hant
    wrong = {word: where for word, where in used.items() if word != right}
    assert wrong == {}, f"{term.kind} is called {right}, but also: {wrong}"
    assert used.get(right), f"no text names {term.kind} ({right}): is the table out of date?"


@pytest.mark.parametrize("term", TERMS, ids=lambda term: term.kind)
def test_a_text_naming_a_kind_in_one_script_names_it_in_the_other(term):
    """zh-Hans and zh-Hant say the same thing: a catalogue text that uses the term in one script
    uses it in the other (no 物业 on one side and 地产 on the other)."""
    hans, hant = CATALOGUES["zh-Hans"], CATALOGUES["zh-Hant"]
    one_sided = [key for key in hans if not TYPED.match(key) and _game_of(key) in (term.game, "shared")
                 and _mentions(hans[key], term.hans) != _mentions(hant.get(key, ""), term.hant)]
    assert one_sided == []


def test_a_wrong_name_coming_back_fails():
    """The check itself: a catalogue text with 万能房产 in it is caught, and named."""
    texts = [*shipped("zh-Hans"), ("locale:console.card.wild", "deal", "#1 卡：浅蓝的万能房产")]
    used = names_used(BY_KIND["wild"], "zh-Hans", texts)
    assert used["万能"] == ["locale:console.card.wild: #1 卡：浅蓝的万能房产"]
    texts = [*shipped("zh-Hant"), ("locale:deal.effect.pass_go", "deal", "摸 2 張牌")]
    assert "摸" in names_used(BY_KIND["draw"], "zh-Hant", texts)


# -- the words a game makes as it is played ------------------------------------------------------

NAMES = {0: "Alice", 1: "AI 1", 2: "张伟", 3: "AI 3"}


def _played_words(lang: str, seed: int, players: int = 4, moves: int = 160) -> list[tuple[str, str, str]]:
    """Button labels, private-keyboard steps, prompts, log lines and the text table of a seeded
    Deal game played by the AI, as (where, "deal", text)."""
    out: list[tuple[str, str, str]] = []
    state = DEAL.new_game(players, "standard", seed)
    for _ in range(moves):
        if state.phase == "over":
            break
        decision = DEAL.waiting_for(state)[0]
        seat = decision.seat
        view = DEAL.view(state, seat)
        out.append(("prompt", "deal", WORDS["deal"].prompt(view, decision, lang, NAMES, "standard")))
        out.append(("table", "deal", deal_text.render_table(view, lang, NAMES)))
        for action in DEAL.legal_actions(state, seat):
            out.append(("button", "deal", deal_text.describe_action(view, action, lang, NAMES)))
            out += [("step", "deal", label) for label in deal_steps.action_path(view, action, lang, NAMES)]
        events = DEAL.apply(state, seat, choose(state, seat))
        out += [("log", "deal", deal_text.describe_event(e, lang, NAMES, None)) for e in events]
    return out


@pytest.mark.parametrize("lang", ZH)
def test_labels_steps_prompts_and_log_lines_of_a_game_use_one_name_per_kind(lang):
    texts = _played_words(lang, seed=5) + _played_words(lang, seed=12, players=3)
    assert len(texts) > 500
    bad = {}
    for term in TERMS:
        if term.game != "deal":
            continue
        right = term.hans if lang == "zh-Hans" else term.hant
        wrong = {w: where[:3] for w, where in names_used(term, lang, texts).items() if w != right}
        if wrong:
            bad[term.kind] = wrong
    assert bad == {}


@pytest.mark.parametrize("lang", ZH)
def test_laying_a_property_reads_当作_colour_物业_打出(lang):
    for key in ("deal.act.lay_new", "deal.ev.property_laid"):
        text = t(lang, key, seat="Alice", card="多功能物业", colour="绿色")
        assert ("当作绿色物业打出" if lang == "zh-Hans" else "當作绿色物業打出") in text, text
        assert "放下" not in text and "作为" not in text and "作為" not in text


# -- Just Say No: the question is right whether or not the player holds one ---------------------

@pytest.mark.parametrize("lang", (*ZH, "en"))
def test_the_answer_question_offers_accept_plainly_and_says_no_only_if_held(lang):
    """"要作出反对，还是接受？" was asked of players holding no Just Say No: the question now asks
    whether to accept and names the card only as something to play *if* held; the group's
    reminder asks for an answer without guessing what anyone holds (a hand is secret)."""
    respond = t(lang, "deal.ui.prompt.respond", seat="Alice", attacker="AI 1", what="2M")
    counter = t(lang, "deal.ui.prompt.counter", seat="Alice", target="AI 1", what="2M")
    if_held = {"zh-Hans": "手里有“作出反对”的话", "zh-Hant": "手裡有「作出反對」的話",
               "en": "If you hold a Just Say No"}
    accept = {"zh-Hans": "接受吗？", "zh-Hant": "接受嗎？", "en": "Accept it?"}
    assert accept[lang] in respond and if_held[lang] in respond
    assert if_held[lang] in counter
    for key in ("tg.answer_now", "dc.answer_now", "ch.answer_now"):
        text = t(lang, key, name="Bob", names="Bob", seconds=30, when="20:00")
        assert "还是" not in text and "還是" not in text and " or " not in text, (key, text)
    for key in ("deal.ui.prompt.respond", "deal.ui.prompt.counter", "tg.answer_now", "ch.answer_now",
                "deal.ui.stage.respond"):
        assert "还是接受" not in CATALOGUES[lang][key] and "還是接受" not in CATALOGUES[lang][key]


# -- a player's own screen says 你 ---------------------------------------------------------------

def test_addressed_to_you_drops_the_name_in_front_only():
    assert addressed_to_you("Alice，请出牌：", "Alice") == "请出牌："
    assert addressed_to_you("AI 2, your move:", "AI 2") == "Your move:"
    assert addressed_to_you("Bob，请出牌：", "Alice") == "Bob，请出牌："
    assert addressed_to_you("Alice打出了通行证。", "Alice") == "Alice打出了通行证。"


@pytest.mark.parametrize("lang", (*ZH, "en"))
def test_a_player_s_own_screen_asks_them_as_you_not_by_their_own_name(lang):
    state = DEAL.new_game(3, "standard", 4)
    names = {0: "Alice", 1: "AI 1", 2: "张伟"}
    for _ in range(120):
        if state.phase == "over":
            break
        decision = DEAL.waiting_for(state)[0]
        seat = decision.seat
        view = DEAL.view(state, seat)
        own = WORDS["deal"].private_lines(view, seat, [decision], lang, names, "standard")
        question = own[-1]
        assert not question.startswith(names[seat]), question
        assert question == WORDS["deal"].prompt(view, decision, lang, names, "standard")
        # the hot-seat terminal, where several people read one screen, still says whose it is
        assert deal_text.prompt_line(view, decision, lang, names).startswith(names[seat])
        DEAL.apply(state, seat, choose(state, seat))


# -- a Latin name or a number never runs into the amount after it ------------------------------

GLUED = re.compile(r"AI 2[ \u00a0]*[0-9]|[0-9][ \u00a0]+[0-9]")  # "AI 2 5M", "AI 25M"


@pytest.mark.parametrize("lang", ZH)
@pytest.mark.parametrize(("key", "params"), [
    ("deal.ui.prompt.pay", {"seat": "Alice", "attacker": "AI 2", "amount": 5}),
    ("deal.ev.demand_pay", {"target": "Alice", "attacker": "AI 2", "amount": 5}),
    ("deal.ev.paid", {"payer": "Alice", "payee": "AI 2", "total": 5, "cards": "5M 货币"}),
    ("board.ev.debt", {"debtor": "AI 1", "creditor": "AI 2", "amount": "200元", "reason": "租金"}),
    ("board.ui.debt", {"debtor": "AI 1", "creditor": "AI 2", "amount": "200元", "reason": "租金"}),
    ("board.ui.prompt.debt", {"seat": "AI 1", "creditor": "AI 2", "amount": "200元"}),
    ("board.ui.score", {"seat": "AI 2", "amount": "15,000元"}),
    ("board.ev.paid", {"payer": "AI 1", "payee": "AI 2", "amount": "200元", "reason": "租金"}),
])
def test_a_name_ending_in_a_number_is_parted_from_the_amount(lang, key, params):
    text = t(lang, key, **params)
    assert not GLUED.search(text), text  # "AI 2 5M" reads "AI 25M"
    assert "AI 2" in text and "AI2" not in text
    assert not re.search(r"[\u4e00-\u9fff]AI|[0-9][\u4e00-\u9fff]", text.replace("元", "")), text


@pytest.mark.parametrize("lang", (*ZH, "en"))
def test_no_name_or_number_runs_into_an_amount_in_a_game_s_words(lang):
    """Buttons, steps ("3：10M 货币", not "3 10M 货币"), prompts, log lines and the table of two
    games whose AI seats are "AI 1" and "AI 3"."""
    texts = _played_words(lang, seed=5) + _played_words(lang, seed=12, players=3)
    glued = sorted({text for _, _, text in texts if re.search(r"[0-9][ \u00a0]+[0-9]", text)})
    assert glued == []
    money_steps = [text for where, _, text in texts if where == "step" and re.match(r"[0-9]+\D+[0-9]+M", text)]
    assert money_steps and all(re.match(r"[0-9]+(：|: )[0-9]+M", text) for text in money_steps), money_steps[:5]


@pytest.mark.parametrize("lang", ZH)
def test_t_parts_a_name_that_ends_in_a_number_from_a_number_after_it(lang, monkeypatch):
    """``t`` itself, for any template: a Latin name is spaced from the characters around it, and
    a name ending in a digit followed (with or without a space) by a number gets a colon between."""
    monkeypatch.setitem(CATALOGUES[lang], "test.spaced", "你欠{name} {amount}M")
    monkeypatch.setitem(CATALOGUES[lang], "test.glued", "你欠{name}{amount}M")
    monkeypatch.setitem(CATALOGUES[lang], "test.turn", "轮到{name}了")
    assert t(lang, "test.spaced", name="AI 2", amount=5) == "你欠 AI 2：5M"
    assert t(lang, "test.glued", name="AI 2", amount=5) == "你欠 AI 2：5M"
    assert t(lang, "test.glued", name="AI 2", amount="5") == "你欠 AI 2：5M"
    assert t(lang, "test.spaced", name="Bob", amount=5) == "你欠 Bob 5M"  # no number to run into
    assert t(lang, "test.spaced", name="张伟", amount=5) == "你欠张伟 5M"
    assert t(lang, "test.turn", name="AI 2") == "轮到 AI 2 了"
    assert t("en", "test.spaced", name="AI 2", amount=5) == "test.spaced"  # English: no such key


# -- a card's own text: no card id (issue 47: "#96" on the web's card sheet) -------------------

@pytest.mark.parametrize("lang", (*ZH, "en"))
def test_a_card_s_text_names_no_card_id_and_the_terminal_s_help_adds_its_key(lang):
    """``card_text`` is what a card does (the web's card sheet shows it under the card's name); the
    terminal's ``help 12`` puts the number typed to play it, and the name, in front."""
    for card in range(len(CARDS)):
        text = deal_text.card_text(card, lang)
        assert "#" not in text and not text.startswith(deal_text.card_name(card, lang)), text
        assert deal_text.card_help(card, lang) == t(lang, "console.card.line", n=card,
                                                    name=deal_text.card_name(card, lang), text=text)
