"""The end of a game in words: everyone ranked, each with why they stand there.

大富翁纸牌: the winner first, then by complete sets, then by what lies in the bank and on the table.
地产大亨: the winner first, then those still in by total assets, then the bankrupt, the last to
go first (read off the net-worth series: the turn each one's worth fell to nothing).
"""

from __future__ import annotations

from collections.abc import Mapping

from words.board_text import money
from words.deal_text import player_name
from words.i18n import normalise_lang, t

Names = Mapping[int, str]


def _out_at(series: Mapping[int, list[int]] | None, seat: int) -> int:
    """The last turn ``seat`` was worth something (a bankrupt player ranks by how long it lasted)."""
    values = (series or {}).get(seat) or []
    return max((i for i, v in enumerate(values) if v > 0), default=-1)


def _lines(players: list[dict], key, why, winners: list[int], lang: str, names: Names) -> list[tuple[int, str]]:
    """(seat, its line) best first."""
    out = []
    for n, p in enumerate(sorted(players, key=key), 1):
        crown = "🏆 " if p["seat"] in winners else ""
        out.append((p["seat"], t(lang, "end.line", n=n, crown=crown, name=player_name(p["seat"], lang, names),
                                 why=why(p))))
    return out


def deal_ranking(board: dict, worth: Mapping[int, int], winners: list[int], lang: str, names: Names,
                 ruleset: str, series: Mapping[int, list[int]] | None = None) -> list[tuple[int, str]]:
    """One line per player, best first: "1. 🏆 Alice：3 套整套 · 银行 12M"."""
    lang = normalise_lang(lang)
    return _lines(board.get("players", []),
                  lambda p: (p["seat"] not in winners, -p.get("complete_sets", 0), -worth.get(p["seat"], 0)),
                  lambda p: t(lang, "end.deal", sets=p.get("complete_sets", 0), bank=p.get("bank_total", 0)),
                  winners, lang, names)


def board_ranking(board: dict, worth: Mapping[int, int], winners: list[int], lang: str, names: Names,
                  ruleset: str, series: Mapping[int, list[int]] | None = None) -> list[tuple[int, str]]:
    """Those still in by total assets, then the bankrupt, the last to go first."""
    lang = normalise_lang(lang)

    def key(p):
        if p.get("bankrupt"):
            return (True, True, -_out_at(series, p["seat"]))
        return (p["seat"] not in winners, False, -worth.get(p["seat"], 0))

    def why(p):
        if p.get("bankrupt"):
            return t(lang, "end.bankrupt")
        return t(lang, "end.assets", amount=money(ruleset, worth.get(p["seat"], 0), lang))
    return _lines(board.get("players", []), key, why, winners, lang, names)


def worth_ranking(seats: list[int], worth: Mapping[int, int], winners: list[int], lang: str,
                  names: Names) -> list[tuple[int, str]]:
    """Any game: the winners first, then by worth."""
    lang = normalise_lang(lang)
    return _lines([{"seat": s} for s in seats], lambda p: (p["seat"] not in winners, -worth.get(p["seat"], 0)),
                  lambda p: str(worth.get(p["seat"], 0)), winners, lang, names)
