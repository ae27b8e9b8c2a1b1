"""Figures for the chat's keyboards (issue 45): seeded games the AI plays, every seat's choices at
every decision in zh-Hans, zh-Hant and English, shown in steps (``bot.chat.steps``) against the
flat list of one button a move they replaced. Not a speed figure: what a phone shows.

``python -m tools.bench.keyboards [long]``: for each game, the keyboards walked, the flat list's
largest size and how many of its labels a half-width Telegram button cuts (over 20 places, a CJK
character counting two), the first step's largest keyboard (the hand, End turn), the later steps'
largest, the widest label (over 20 places, it gets a Telegram row of its own), and how many steps
from the hand a Forced Deal takes (a histogram); ``long``: six 3-player Deal games to their end."""

from __future__ import annotations

from collections import Counter

from bot.chat.steps import FULL, HALF, Choice, walk, width
from engine.deal.model import PlayForcedDeal
from engine.games import GAMES
from words.games import WORDS
from words.i18n import LANGS

NAMES = {0: "Alice", 1: "AI 1", 2: "Bob", 3: "Carol", 4: "Dan"}
GAMES_PLAYED = [("deal", 2, 1, 300), ("deal", 4, 2, 300), ("deal", 5, 3, 200), ("board", 3, 4, 300)]
LONG = [("deal", 3, seed, 1500) for seed in range(6)]  # ``long``: six 3-player Deal games to their end


def figures(played=GAMES_PLAYED) -> dict:
    out: dict = {}
    for game, players, seed, plies in played:
        g = GAMES[game]
        state = g.rules.new_game(players, None, seed)
        walked = flat_max = flat_cut = flat_labels = step_max = widest = root_max = 0
        forced: Counter = Counter()
        for _ in range(plies):
            waiting = g.rules.waiting_for(state)
            if not waiting:
                break
            for seat in range(players):
                actions = g.rules.legal_actions(state, seat)
                if not actions:
                    continue
                view = g.rules.view(state, seat)
                for lang in LANGS:
                    flat = {WORDS[game].action(view, a, lang, NAMES, "china") for a in actions}
                    flat_max = max(flat_max, len(flat))
                    flat_labels += len(flat)
                    flat_cut += sum(width(label) > HALF for label in flat)
                    paths: dict = {}
                    for i, a in enumerate(actions):
                        path = tuple(WORDS[game].steps(view, a, lang, NAMES, "china"))
                        paths.setdefault(path, Choice(path, str(i)))
                    choices = list(paths.values())
                    depth_of: dict = {}
                    for prefix, _page, shown, depth in walk(choices, lang):
                        walked += 1
                        if prefix:
                            step_max = max(step_max, len(shown))
                        else:
                            root_max = max(root_max, len(shown))
                        widest = max([widest, *(width(k.label) for k in shown)])
                        for k in shown:
                            if k.token is not None:
                                depth_of.setdefault(k.token, depth)
                    forced.update(depth_of[c.token] for c in choices
                                  if isinstance(actions[int(c.token)], PlayForcedDeal))
            seat = waiting[0].seat
            g.rules.apply(state, seat, g.choose_listed(state, seat))
        name = f"{game}{players}p_seed{seed}"
        out[f"{name}_keyboards_walked"] = walked
        out[f"{name}_flat_buttons_max"] = flat_max
        out[f"{name}_flat_labels_cut_pct"] = round(100 * flat_cut / max(1, flat_labels), 1)
        out[f"{name}_first_step_buttons_max"] = root_max
        out[f"{name}_step_buttons_max"] = step_max
        out[f"{name}_widest_label"] = f"{widest} of {FULL}"
        if forced:
            out[f"{name}_forced_deal_steps"] = dict(sorted(forced.items()))
    return out


if __name__ == "__main__":
    import sys

    for k, v in figures(LONG if sys.argv[1:] == ["long"] else GAMES_PLAYED).items():
        print(f"{k}: {v}")
