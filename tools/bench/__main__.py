"""``python -m tools.bench`` (what ``tycoon bench`` runs): every benchmark, one JSON object of
named figures; or, with ``--peer-board``/``--peer-deal``, our engines beside a peer simulator's
checkout (``tools/bench/peers.py``)."""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tycoon bench", description=__doc__)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--peer-board", metavar="PATH",
                        help="instead: our board engine against gamescomputersplay/monopoly checked out at PATH")
    parser.add_argument("--peer-deal", metavar="PATH",
                        help="instead: our Deal engine against shuckc/monodeal checked out at PATH")
    parser.add_argument("--peer-games", type=int, default=20, help="games a batch, with --peer-board/--peer-deal")
    args = parser.parse_args(argv)
    if args.peer_board or args.peer_deal:  # the side-by-side comparison alone
        from tools.bench.peers import compare

        try:
            figures = compare(args.peer_board, args.peer_deal, games=args.peer_games)
        except (ValueError, RuntimeError) as problem:  # a wrong path, or a peer that does not run
            print(problem, file=sys.stderr)
            return 2
    else:
        from tools.bench import run_all

        figures = run_all()
    if args.json:
        print(json.dumps(figures))
    else:
        for k, v in figures.items():
            print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
