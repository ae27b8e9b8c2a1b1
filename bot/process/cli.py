"""The ``tycoon`` command line (docs/design.md, "Command line"): play, run, simulate, bench.

Scripts and checks call these; their flags and JSON fields are a stable interface.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from engine.games import GAMES, LEVELS
from engine.play.simulation import CHECKS, position_after, simulate

RENDER_MORE = ("hand", "chart")  # ``render <what>`` besides a game's table: a seat's own picture, the chart
SAMPLE_NAMES = {0: "Ann", 1: "张伟", 2: "陳大文", 3: "Bob"}  # the players of a drawn sample game


def _cmd_landing(args: argparse.Namespace) -> int:
    landing_frequencies = GAMES[args.game].landing
    if landing_frequencies is None:
        print(f"tycoon: --landing is for a game of squares ({', '.join(g for g in GAMES if GAMES[g].landing)})",
              file=sys.stderr)
        return 2
    if args.rolls < 1:
        print("tycoon: --rolls must be at least 1", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    out = landing_frequencies(args.ruleset or "classic", args.rolls, args.seed, args.jail_strategy)
    out["seconds"] = round(time.perf_counter() - t0, 3)
    if args.json:
        print(json.dumps(out))
    else:
        ranked = sorted(out["squares"].items(), key=lambda kv: -kv[1])
        for square, share in ranked:
            print(f"{square:>4}  {share * 100:6.3f} %")
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    if args.landing:
        return _cmd_landing(args)
    if args.game not in GAMES:
        print(f"tycoon: the {args.game} game is not available yet; try: {', '.join(GAMES)}", file=sys.stderr)
        return 2
    rules = GAMES[args.game].rules
    if args.ruleset and args.ruleset not in rules.rulesets:
        print(f"tycoon: unknown rule set {args.ruleset!r} for {args.game}; choose one of "
              f"{', '.join(rules.rulesets)}", file=sys.stderr)
        return 2
    if not rules.min_players <= args.players <= rules.max_players:
        print(f"tycoon: {args.game} takes {rules.min_players}–{rules.max_players} players, not {args.players}",
              file=sys.stderr)
        return 2
    if args.games < 1:
        print("tycoon: --games must be at least 1", file=sys.stderr)
        return 2
    seats = [s.strip() for s in args.seats.split(",")] if args.seats else None
    if seats is not None:
        known = ["ai", *GAMES[args.game].policies]
        if len(seats) != args.players:
            print(f"tycoon: --seats names {len(seats)} seat types for {args.players} players; give one per "
                  f"player (or set --players {len(seats)})", file=sys.stderr)
            return 2
        bad = [s for s in seats if s not in known]
        if bad:
            print(f"tycoon: unknown seat type {bad[0]!r} for {args.game}; choose from {', '.join(known)}",
                  file=sys.stderr)
            return 2
    t0 = time.perf_counter()
    stats = simulate(GAMES[args.game], args.games, args.players, args.seed, args.ruleset,
                     turn_cap=args.turn_cap, verify_replay=not args.no_replay, seats=seats, check=args.check,
                     clock=time.perf_counter)
    seconds = time.perf_counter() - t0
    out = {"game": args.game, "ruleset": args.ruleset or rules.rulesets[0], "players": args.players,
           "seed": args.seed, **stats.as_dict(), "seconds": round(seconds, 3),
           "games_per_second": round(stats.games / seconds, 1) if seconds else None}
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        for k, v in out.items():
            print(f"{k}: {v}")
    return 1 if stats.invariant_violations or stats.replay_mismatches else 0


def _cmd_bench(args: argparse.Namespace, rest: list[str]) -> int:
    """``tycoon bench``: the benchmarks live in the repository's ``tools/`` folder, which is not
    installed (no product code needs them); this entry runs them from the checkout it was
    installed from, with the same arguments."""
    root = Path(__file__).resolve().parents[2]
    if not (root / "tools" / "bench" / "__main__.py").is_file():
        print("tycoon bench runs from a clone of the repository: its tools/ folder is not installed",
              file=sys.stderr)
        return 2
    return subprocess.call([sys.executable, "-m", "tools.bench", *rest], cwd=root)


def _cmd_play(args: argparse.Namespace) -> int:
    ai = args.players if args.ai is None else args.ai
    if not 0 <= ai <= args.players:
        print("tycoon: --ai must be between 0 and --players", file=sys.stderr)
        return 2
    try:
        from bot.console.frontend import DEFAULT_RULESETS, run_console

        # each game has its own default rule set: Deal "standard", the board "china"
        return run_console(args.game, args.players, ai, args.seed, args.lang,
                           args.ruleset or DEFAULT_RULESETS[args.game], db=args.db, options=args.option,
                           ai_level=args.ai_level)
    except KeyboardInterrupt:  # Ctrl-C before the console's own handler is set (or while it is
        # being set): no move is in progress then; one line, no traceback
        from bot.console.options import data_dir
        from words.i18n import normalise_lang, t

        lang = normalise_lang(args.lang)
        db = Path(args.db) if args.db else data_dir() / "console.db"
        print(t(lang, "ui.saved", db=str(db)) if db.exists() else t(lang, "console.stopped"))
        return 130


def _cmd_render(args: argparse.Namespace) -> int:
    """A snapshot of a seeded AI game after ``--turns`` turns, as a PNG file."""
    from render.games import PICTURES
    from render.png import png_bytes
    from words.i18n import normalise_lang

    own = [g for g in GAMES if PICTURES[g].own is not None]
    default = own[0] if args.what == "hand" and own else next(iter(GAMES))
    game = args.what if args.what in GAMES else args.game or default
    rules = GAMES[game].rules
    ruleset = args.ruleset or rules.rulesets[0]
    if ruleset not in rules.rulesets:
        print(f"tycoon: unknown rule set {ruleset!r} for {game}; choose one of {', '.join(rules.rulesets)}",
              file=sys.stderr)
        return 2
    seat = None
    if args.view != "public":
        try:
            seat = int(args.view.removeprefix("seat:"))
        except ValueError:
            print("tycoon: --view is 'public' or 'seat:N'", file=sys.stderr)
            return 2
        if not 0 <= seat < args.players:
            print(f"tycoon: there is no seat {seat} in a {args.players}-player game", file=sys.stderr)
            return 2
    if args.what == "hand" and seat is None:
        print("tycoon: a hand needs --view seat:N", file=sys.stderr)
        return 2
    lang = normalise_lang(args.lang)
    state = position_after(GAMES[game], args.players, ruleset, args.seed, args.turns)
    names = {i: name for i, name in SAMPLE_NAMES.items() if i < args.players} | {
        i: f"P{i + 1}" for i in range(4, args.players)}
    view = rules.view(state, seat)
    pictures = PICTURES[game]
    if args.what in GAMES:
        img = pictures.table(view, lang, names, ruleset, None, GAMES[game].presentation.worth(state), [])
    elif args.what == "hand":
        if pictures.own is None:
            print(f"tycoon: the {game} game has no picture of a seat's own", file=sys.stderr)
            return 2
        img = pictures.own(view, seat, lang)
    else:
        from engine.play.history import net_worth_series
        from engine.play.simulation import play_one
        from render.chart import render_chart
        from words.games import WORDS

        state, log = play_one(GAMES[game], args.players, ruleset, args.seed, args.turns)
        series = net_worth_series(rules, args.players, ruleset, args.seed, log)
        img = render_chart(series, names, list(state.winners), lang,
                           lambda amount: WORDS[game].money(amount, lang, ruleset))
    with open(args.out, "wb") as f:
        f.write(png_bytes(img))
    print(f"wrote {args.out} ({img.size[0]}×{img.size[1]})")
    return 0


def _cmd_run(args: argparse.Namespace) -> int:
    from bot.process.run import choose_bots

    telegram, discord = choose_bots(os.environ)
    if telegram or discord:  # one process for the bots whose tokens are set, around one service
        from bot.process.run import main_from_env

        return main_from_env(args.lang)
    print("No TELEGRAM_TOKEN or DISCORD_TOKEN set: serving the web table instead.")
    args.host, args.port = os.environ.get("TYCOON_WEB_HOST", "127.0.0.1"), None
    return _cmd_web(args)


def _web_port(text: str | None) -> int | None:
    """TYCOON_WEB_PORT or --port: a port number (default 8080); None when it is not one."""
    from bot.chat.inputs import number
    from bot.web.server import DEFAULT_PORT

    return DEFAULT_PORT if not text else number(text, 0, 65535)


def _cmd_web(args: argparse.Namespace) -> int:
    """The web table (bot/web): lobby, tables, spectators, on one address until Ctrl-C."""
    import asyncio
    import logging

    from bot.process.run import HEARTBEAT
    from bot.process.stopping import stop_on_signals
    from bot.web.server import serve

    port = _web_port(str(args.port) if args.port is not None else os.environ.get("TYCOON_WEB_PORT"))
    if port is None:
        print("tycoon: TYCOON_WEB_PORT (or --port) is a port number such as 8080", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    async def until_stopped() -> int:
        stop = asyncio.Event()
        stop_on_signals(stop)  # SIGTERM and SIGINT: drain, then exit 0
        return await serve(args.host, port, os.environ.get("DATABASE_URL"), args.lang, stop=stop,
                           bot_token=os.environ.get("TELEGRAM_TOKEN") or None,
                           public_url=os.environ.get("TYCOON_WEB_URL") or None, heartbeat=HEARTBEAT,
                           telegram_api_url=os.environ.get("TELEGRAM_API_URL") or None)

    try:
        return asyncio.run(until_stopped())
    except KeyboardInterrupt:
        return 0
    except OSError as e:  # the port is taken, or the address is not this machine's
        print(f"tycoon: cannot serve on {args.host}:{port} ({e.strerror or e}); set TYCOON_WEB_PORT to a free port",
              file=sys.stderr)
        return 2


def _cmd_rotate_secret(args: argparse.Namespace) -> int:
    """A new secret for buttons and move tokens (see README, "Security"); restart the bots after."""
    import asyncio

    from engine.service.storage import database, migrate

    async def rotate() -> None:
        engine = database.make_db(os.environ.get("DATABASE_URL"))
        try:
            await migrate.upgrade(engine)
            await database.rotate_secret(engine)
        finally:
            await engine.dispose()

    asyncio.run(rotate())
    print("tycoon: a new button secret is stored; restart every bot process so that it reads it")
    return 0


def _cmd_processes(args: argparse.Namespace) -> int:
    """The processes serving DATABASE_URL's database, what each reads, and the format new tables get
    (docs/operations.md, "Rolling deploys": the old build is gone when it is no longer listed)."""
    import asyncio

    from sqlalchemy import func, select

    from engine.service.storage import database, formats
    from engine.service.storage.errors import DB_ERRORS, describe
    from engine.service.storage.rows import TableRow

    async def listed() -> tuple[list, list, int | None]:
        engine = database.make_db(os.environ.get("DATABASE_URL"))
        try:
            running = await formats.running(engine)
            async with engine.connect() as conn:
                open_by_format = (await conn.execute(
                    select(TableRow.format, func.count()).where(TableRow.status.in_(("lobby", "running", "paused")))
                    .group_by(TableRow.format))).all()
            return running, open_by_format, await formats.cap(engine)
        finally:
            await engine.dispose()

    if args.older_gone:
        async def lift() -> bool:
            engine = database.make_db(os.environ.get("DATABASE_URL"))
            try:
                return await formats.lift_cap(engine)
            finally:
                await engine.dispose()

        lifted = asyncio.run(lift())
        print("tycoon: new tables may now be made in the newest format every running process reads" if lifted
              else "tycoon: new tables were not held back: nothing to do")
    try:
        running, open_by_format, held = asyncio.run(listed())
    except DB_ERRORS as e:
        print(f"tycoon: cannot read the processes ({describe(e)}); is DATABASE_URL right, and has a process "
              f"of this build started on it (it adds the table)?", file=sys.stderr)
        return 1
    now = time.time()
    for row in running:
        print(f"{row.name}  {row.build}  reads formats {','.join(map(str, row.reads or []))}  "
              f"seen {now - row.seen_at:.0f} s ago, up {(now - row.started_at) / 60:.0f} min")
    readers = [set(row.reads or []) for row in running]
    chosen = formats.agreed(formats.READS, formats.NEWEST, [sorted(r) for r in readers])
    if held is not None and held < chosen:
        chosen = held
        print(f"new tables are held at format {held} while a process of a build older than migration 0010 may "
              f"run; once the last has stopped: tycoon processes --older-gone")
    print(f"{len(running)} process(es) running; new tables are made in format {chosen}")
    for version, count in open_by_format:
        print(f"open tables in format {version}: {count}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tycoon", description="Monopoly and Monopoly Deal for group chats")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("simulate", help="AI-only games, one JSON object of figures")
    p.add_argument("game", choices=list(GAMES))
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ruleset", default=None)
    p.add_argument("--turn-cap", type=int, default=None,
                   help="stop a game after this many turns (default: deal 200, board 1000)")
    p.add_argument("--no-replay", action="store_true", help="skip re-playing each game from its log")
    p.add_argument("--check", choices=CHECKS, default="all",
                   help="all: invariants after every action and the replay (default); end: both once at the "
                        "end of each game; none: neither (the JSON's engine_seconds and check_seconds split the time)")
    p.add_argument("--seats", default=None,
                   help="seat types, one per player, e.g. ai,basic,basic,basic (rotated by one seat per game)")
    p.add_argument("--landing", action="store_true", help="board: where one token's rolls end")
    p.add_argument("--rolls", type=int, default=1_000_000, help="with --landing")
    p.add_argument("--jail-strategy", choices=["short", "long"], default="short", help="with --landing")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser("bench", help="benchmarks, one JSON object of named figures (tools/bench: --help)",
                       add_help=False)
    p.set_defaults(func=_cmd_bench, passes_rest=True)

    p = sub.add_parser("play", help="a game in this terminal, human and AI seats")
    p.add_argument("game", choices=list(GAMES))
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--ai", type=int, default=None, help="AI seats (default: all)")
    p.add_argument("--ai-level", choices=LEVELS, default="ai",
                   help="the AI seats' strength: basic (easy), ai (normal, the default) or strong (searches)")
    p.add_argument("--ruleset", default=None, help="default: deal standard, board china")
    p.add_argument("--seed", type=int, default=int(time.time()) % 100000)
    p.add_argument("--lang", default="zh-Hans")
    p.add_argument("--db", default=None, help="a SQLite file to keep the game in (default: console.db in "
                   "$TYCOON_DATA_DIR, else $XDG_DATA_HOME/tycoon or ~/.local/share/tycoon): run again to resume it")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule option, repeatable: e.g. no_trading=on, match_minutes=30")
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser("render", help="a picture of a seeded AI game after some turns")
    p.add_argument("what", choices=[*GAMES, *RENDER_MORE])
    p.add_argument("--game", choices=list(GAMES), default=None,
                   help="with hand: which game (default: the first with a seat's own picture); with chart")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--turns", type=int, default=30)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--ruleset", default=None)
    p.add_argument("--lang", default="zh-Hans")
    p.add_argument("--view", default="public", help="'public' or 'seat:N'")
    p.add_argument("--out", required=True)
    p.set_defaults(func=_cmd_render)

    p = sub.add_parser("processes", help="the processes serving DATABASE_URL's database and what they read")
    p.add_argument("--older-gone", action="store_true",
                   help="no process of a build older than migration 0010 runs any more: new tables may take the "
                        "newest format (docs/operations.md, rolling deploys)")
    p.set_defaults(func=_cmd_processes)

    p = sub.add_parser("rotate-secret", help="a new secret for buttons (DATABASE_URL's database); then restart")
    p.set_defaults(func=_cmd_rotate_secret)

    p = sub.add_parser("web", help="the web table: lobby, tables and spectators in a browser")
    p.add_argument("--host", default=os.environ.get("TYCOON_WEB_HOST", "127.0.0.1"),
                   help="default: TYCOON_WEB_HOST, else 127.0.0.1; 0.0.0.0 lets phones on the same network in")
    p.add_argument("--port", type=int, default=None, help="default: TYCOON_WEB_PORT, else 8080")
    p.add_argument("--lang", default=os.environ.get("TYCOON_LANG", "zh-Hans"))
    p.set_defaults(func=_cmd_web)

    p = sub.add_parser("run", help="the bots from TELEGRAM_TOKEN / DISCORD_TOKEN; without: the web table")
    p.add_argument("--seed", type=int, default=int(time.time()) % 100000)
    p.add_argument("--lang", default=os.environ.get("TYCOON_LANG", "zh-Hans"))
    p.set_defaults(func=_cmd_run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args, rest = build_parser().parse_known_args(argv)
    if getattr(args, "passes_rest", False):
        return args.func(args, rest)
    if rest:
        build_parser().error(f"unrecognized arguments: {' '.join(rest)}")
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
