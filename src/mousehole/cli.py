"""The ``mousehole`` command line (also ``python -m mousehole``).

    mousehole simulate all --games 100000 --seed 1      # every game, its default player count
    mousehole simulate m --players 6 --threads 2 --json m6.json
    mousehole show cheese_rescue --players 2 --seed 7 --moves "dog@3,4; cat@4,3" --legal
    mousehole play m --players 3 --seat 0 --bots mcts:1000,greedy   # you against two bots
    mousehole arena cheese_rescue --bots mcts:200,random --games 400 --workers 2
    mousehole rules kasimir                               # the readings of the rules (parameters)
    mousehole simulate kasimir --param tie_break=...      # play by another reading

Each subcommand is a pair of functions, ``_add_<name>(subparsers)`` (its options) and
``_run_<name>(args) -> exit status``, listed in :data:`COMMANDS`; a new subcommand
(replay, bench, ...) is one more pair. Exit status: 0 done, 2 bad usage (one line on
stderr, never a traceback: a bad value, a value out of its range, a file that is not a
record), 130 interrupted by Ctrl-C (one line on stderr).

Seeds are secrets where cards are hidden: ``play``, ``show`` and ``arena`` deal from a
fresh 64-bit seed from the operating system unless ``--seed`` is given, and print the seed
they used (``play`` at the end of the game, and in its record). ``simulate`` keeps the
fixed default seed 1: its random games hide nothing from anyone, and the same command
gives the same figures.

Every option has a documented range (:data:`MAX_SEED`, :data:`MAX_THREADS`,
:data:`MAX_WORKERS`, ...); ``replay`` reads at most ``--max-bytes`` bytes
(:data:`MAX_FILE_BYTES` by default) of its file, so ``/dev/zero`` or an endless pipe is
refused, not read without end. Text taken from a record or an argument is printed with
its control characters escaped.

``rich`` (the ``cli`` extra: ``pip install 'rich>=13'``) draws the progress bar when it is installed and
stderr is a terminal; it is imported only then.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import secrets
import sys
import time
from typing import Any, Callable, Dict, List, NoReturn, Optional, Sequence, Tuple

from . import __version__, available_engines, default_engine, game_names, load
from ._api import ENGINES, Game, MouseholeError, ParameterError
from ._extras import install_hint
from ._play import FORCED_CHOICES, FORCED_PAUSE, MAX_PAUSE
from ._play import view_text as _view_text  # noqa: F401  (the name tests and older callers use)
from ._progress import Progress
from ._progress import games_text as _games
from ._simulate import MAX_GAMES, MAX_THREADS, SimulationSummary, simulate
from ._values import MAX_INT_TEXT, MAX_VALUE_DEPTH, clip, int_text, json_depth, shorten
from .bots import MAX_SECONDS, SPECS

__all__ = [
    "main",
    "build_parser",
    "COMMANDS",
    "DEFAULT_GAMES",
    "MAX_SEED",
    "MAX_THREADS",
    "MAX_WORKERS",
    "MAX_FILE_BYTES",
    "MAX_MAX_BYTES",
    "MAX_NAME",
]

PROG = "mousehole"
#: ``simulate``'s default game count per engine (the reference is thousands of times slower)
DEFAULT_GAMES = {"compiled": 100_000, "python": 200}
EXIT_OK, EXIT_USAGE, EXIT_INTERRUPTED = 0, 2, 130
#: seconds between two progress lines when stderr is not a terminal
LOG_EVERY = 5.0
#: ``--seed`` is from 0 to this (a 64-bit seed, as records hold it)
MAX_SEED = 2**64 - 1
#: ``arena --workers`` is from 1 to this
MAX_WORKERS = 256
#: ``replay`` reads at most this many bytes of its file unless ``--max-bytes`` says otherwise
MAX_FILE_BYTES = 64 * 2**20
#: ``--max-bytes`` is at most this
MAX_MAX_BYTES = 2**30
#: ``play --name`` is at most this many characters (a record's seat name)
MAX_NAME = 200


class UsageError(Exception):
    """A bad value found after parsing (a player count the game does not allow, an illegal
    move, ...): reported exactly like argparse's own errors."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line: ``prog: error: message (see prog --help)``."""

    def error(self, message: str) -> NoReturn:
        text = _escape(" ".join(str(message).split()))
        self.exit(EXIT_USAGE, f"{self.prog}: error: {text} (see {self.prog} --help)\n")


def _escape(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every character that is not printable (terminal escapes, carriage
    returns, lone surrogates from undecodable bytes, ...) written as a ``\\x..``/``\\u....``
    escape; line breaks too unless ``keep_newlines``."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or (keep_newlines and c == "\n") else repr(c)[1:-1] for c in text)


def _shown(text: str, limit: int = 80) -> str:
    """A value (a path, a typed text) for a message: escaped and at most ``limit`` characters."""
    text = _escape(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --------------------------------------------------------------------------------------
# argument types (each error names the value; argparse adds the option)


def _int_value(text: str) -> int:
    """An integer typed on the command line (:func:`mousehole._values.int_text`)."""
    try:
        return int_text(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _ranged(lo: int, hi: int, hi_text: str = "") -> Callable[[str], int]:
    """An integer argument from ``lo`` to ``hi``."""

    def check(text: str) -> int:
        v = _int_value(text)
        if not lo <= v <= hi:
            if hi == _NO_LIMIT:
                raise argparse.ArgumentTypeError(f"must be at least {lo}, got {v}")
            raise argparse.ArgumentTypeError(f"must be from {lo} to {hi_text or hi}, got {v}")
        return v

    return check


_NO_LIMIT = 10**MAX_INT_TEXT
_count = _ranged(0, MAX_GAMES, "2**53")
_positive = _ranged(1, _NO_LIMIT)
_games_arg = _ranged(1, MAX_GAMES, "2**53")
_seed_arg = _ranged(0, MAX_SEED, "2**64-1")
_threads_arg = _ranged(1, MAX_THREADS)
_workers_arg = _ranged(1, MAX_WORKERS)
_max_bytes_arg = _ranged(1, MAX_MAX_BYTES, "2**30")
#: the bot specs, as --help shows them (mousehole.bots.SPECS: one list for both commands)
_SPECS_TEXT = ", ".join(SPECS)


def _name_arg(text: str) -> str:
    if not 1 <= len(text) <= MAX_NAME:
        raise argparse.ArgumentTypeError(f"must be 1 to {MAX_NAME} characters, got {len(text):,}")
    if any("\ud800" <= c <= "\udfff" for c in text):
        raise argparse.ArgumentTypeError(f"not UTF-8 text: {_shown(repr(text), 60)}")
    return text


def _fresh_seed() -> int:
    """A fresh 64-bit seed from the operating system (nobody can guess the deal from it)."""
    return secrets.randbits(64)


def _game_choice(allow_all: bool) -> Callable[[str], str]:
    names = game_names() + (["all"] if allow_all else [])

    def check(text: str) -> str:
        if text not in names:
            raise argparse.ArgumentTypeError(f"unknown game {_shown(repr(text), 40)}; choose from {', '.join(names)}")
        return text

    return check


def _load(
    name: str, players: Optional[int], engine: Optional[str], params: Optional[Dict[str, Any]] = None
) -> Game[Any, Any]:
    given: Dict[str, Any] = dict(params or {})
    if players is not None:
        given["players"] = players
    try:
        return load(name, engine=engine, **given)
    except ParameterError as e:
        raise UsageError(str(e)) from None


def _registry_defaults(name: str) -> Dict[str, Any]:
    return dict(type(load(name, engine="python")).DEFAULTS)


def _readings_text(game: Game[Any, Any]) -> str:
    """``" (pass_cost=exchange_only)"``: the readings that differ from the default, for headers."""
    other = [f"{r.param}={game.params[r.param]}" for r in type(game).READINGS if game.params[r.param] != r.default]
    return f" ({', '.join(other)})" if other else ""


#: the longest ``--param`` argument read, in characters
MAX_PARAM_TEXT = 10_000


def _param_arg(text: str) -> Tuple[str, Any]:
    """``NAME=VALUE``: VALUE is read as JSON when it is JSON (``5``, ``true``, ``[1, 2]``),
    as the text itself otherwise (``tie_break=first_home``)."""
    if len(text) > MAX_PARAM_TEXT:
        raise argparse.ArgumentTypeError(
            f"expected NAME=VALUE of at most {MAX_PARAM_TEXT:,} characters, got {len(text):,} characters"
        )
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE (e.g. max_turns=50), got {_shown(repr(text), 60)}")
    if name in ("players", "engine"):
        raise argparse.ArgumentTypeError(f"{name} has its own option: use --{name}")
    depth = json_depth(value)  # (before the parser, which recurses, sees it)
    if depth > MAX_VALUE_DEPTH:
        raise argparse.ArgumentTypeError(
            f"{name}: VALUE nests arrays and objects {depth} deep; a parameter "
            f"value nests at most {MAX_VALUE_DEPTH} deep"
        )
    try:
        return name, json.loads(value)
    except ValueError:
        return name, value


def _params(args: argparse.Namespace) -> Dict[str, Any]:
    """The ``--param`` options as a dict (a name given twice is an error)."""
    out: Dict[str, Any] = {}
    for name, value in args.param or []:
        if name in out:
            raise UsageError(f"argument --param: {name} is given twice")
        out[name] = value
    return out


# --------------------------------------------------------------------------------------
# shared options


def _add_engine_option(p: argparse.ArgumentParser, help: str) -> None:
    """``--engine``, one of :data:`mousehole._api.ENGINES` or None (every command that takes
    it: the game commands, replay, bench, serve; ``help`` says what it picks there)."""
    p.add_argument("--engine", choices=list(ENGINES), default=None, help=help)


def _add_file_option(p: argparse.ArgumentParser, flag: str, help: str, metavar: str = "FILE") -> None:
    """An option that names a file to write or read besides the command's output (``--json``,
    ``--records``, ``--html``, ...): none by default; ``help`` says what goes to the file."""
    p.add_argument(flag, metavar=metavar, default=None, help=f"{help} (default: none)")


def _add_game_argument(p: argparse.ArgumentParser, *, allow_all: bool) -> None:
    """``GAME``, a game id (or ``all`` when ``allow_all``)."""
    what = "a game id, or 'all' for every game" if allow_all else "a game id"
    p.add_argument(
        "game",
        metavar="GAME",
        type=_game_choice(allow_all),
        help=f"{what}: {', '.join(game_names())} (default: none, required)",
    )


def _add_game_options(p: argparse.ArgumentParser, *, allow_all: bool) -> None:
    _add_game_argument(p, allow_all=allow_all)
    p.add_argument(
        "--players",
        type=_int_value,
        default=None,
        metavar="N",
        help="number of players (default: each game's own default"
        + ("; with 'all', games that do not allow N are skipped)" if allow_all else ")"),
    )
    _add_engine_option(
        p,
        f"engine: the compiled one or the pure-Python reference (default: {default_engine()}, "
        "the fastest available here)",
    )
    p.add_argument(
        "--param",
        type=_param_arg,
        action="append",
        default=None,
        metavar="NAME=VALUE",
        help="a game parameter, e.g. a reading of the rules (see 'mousehole rules GAME'); "
        "repeat for several; VALUE is JSON or plain text (default: the game's defaults"
        + ("; with 'all', games without the parameter are skipped)" if allow_all else ")"),
    )


# --------------------------------------------------------------------------------------
# simulate


def _add_simulate(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "simulate",
        help="play seeded uniformly random games and summarise them",
        description="Play seeded uniformly random games (mousehole.simulate, in constant memory) "
        "and print per seat the mean score with its standard error and the win rate "
        "with a 95% Wilson interval, the mean game length, truncations and speed. "
        "Ctrl-C stops at once (exit status 130).",
    )
    _add_game_options(p, allow_all=True)
    p.add_argument(
        "--games",
        type=_count,
        default=None,
        metavar="N",
        help=f"number of games per game id (default: {DEFAULT_GAMES['compiled']:,} with the "
        f"compiled engine, {DEFAULT_GAMES['python']:,} with the python engine)",
    )
    p.add_argument(
        "--seed",
        type=_seed_arg,
        default=1,
        metavar="S",
        help="seed of the run, from 0 to 2**64-1: the same seed gives the same games; random "
        "games hide nothing from anyone, so the same command gives the same figures (default: 1)",
    )
    p.add_argument(
        "--threads",
        type=_threads_arg,
        default=1,
        metavar="T",
        help=f"threads playing games (compiled engine: no GIL), from 1 to {MAX_THREADS} (default: 1)",
    )
    _add_file_option(p, "--json", "also write the figures as JSON to FILE")
    return p


def _figures(
    name: str, game: Game[Any, Any], seed: int, threads: int, s: SimulationSummary, seconds: float
) -> Dict[str, Any]:
    """Everything the table shows, as JSON-ready values (no nan: empty runs give zeros)."""
    hist = s.length_hist
    lengths = [k for k, c in enumerate(hist) if c]
    return {
        "game": name,
        "players": game.num_players,
        "readings": {r.param: game.params[r.param] for r in type(game).READINGS},
        "engine": game.engine,
        "seed": seed,
        "threads": threads,
        "n_games": s.n_games,
        "seconds": seconds,
        "games_per_second": s.n_games / seconds if seconds > 0 else None,
        "mean_length": s.mean_length,
        "shortest": lengths[0] if lengths else None,
        "longest": lengths[-1] if lengths else None,
        "truncated": s.truncated,
        "length_hist": list(hist),
        "seats": [
            {
                "seat": p,
                "mean_score": s.mean_score[p],
                "score_stderr": s.score_stderr[p],
                "score_var": s.score_var[p],
                "score_sum": s.score_sum[p],
                "score_sq_sum": s.score_sq_sum[p],
                "wins": s.wins[p],
                "win_rate": s.win_rates()[p],
                "win_rate_95": list(s.win_intervals()[p]),
            }
            for p in range(s.num_players)
        ],
    }


def _legend(game: Game[Any, Any]) -> str:
    """The two lines under a simulate table: what a score is in this game, and what the win
    rates count."""
    cls = type(game)
    score = cls.SCORE or "as the game's rules count it"
    wins = (
        "one winner a game, so the rates add up to 1"
        if cls.SINGLE_WINNER
        else "a shared win counts for every seat that shares it, so the rates can add up to more than 1"
    )
    return f"  score: {score}\n  win rate: the share of games the seat won ({wins})"


def _table(f: Dict[str, Any], readings: str = "") -> str:
    n = f["n_games"]
    speed = f"{f['games_per_second']:,.0f} games/s" if f["games_per_second"] else "- games/s"
    head = (
        f"{f['game']}: {f['players']} players{readings}, {f['engine']} engine, seed {f['seed']}: "
        f"{_games(n)} in {f['seconds']:.2f} s ({speed})"
    )
    if n == 0:
        return head
    rows = [head, "  seat  mean score  std error  win rate  95% interval"]
    for seat in f["seats"]:
        lo, hi = seat["win_rate_95"]
        se = f"{seat['score_stderr']:10.3f}" if n >= 2 else f"{'-':>10}"
        rows.append(
            f"  {seat['seat']:>4}  {seat['mean_score']:10.3f}  {se}  {seat['win_rate']:8.4f}  {lo:.4f}-{hi:.4f}"
        )
    rows.append(
        f"  mean length {f['mean_length']:.2f} actions (shortest {f['shortest']}, longest "
        f"{f['longest']}); truncated {_games(f['truncated'])} ({100.0 * f['truncated'] / n:.2f}%)"
    )
    return "\n".join(rows)


def _check_output(path: str, option: str = "--json") -> None:
    """Refuse an output path that cannot be written before spending time on the run."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise UsageError(f"argument {option}: {path} is a directory")
    if not os.path.isdir(folder):
        raise UsageError(f"argument {option}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise UsageError(f"argument {option}: {path} is not writable")


def _dump_json(doc: Dict[str, Any]) -> str:
    """Indented JSON, with each length histogram on one line."""
    hists: List[str] = []
    for r in doc["results"]:
        hists.append(json.dumps(r["length_hist"]))
        r["length_hist"] = f"@length_hist{len(hists) - 1}@"
    text = json.dumps(doc, indent=2, allow_nan=False)
    for i, h in enumerate(hists):
        text = text.replace(f'"@length_hist{i}@"', h)
    return text + "\n"


def _run_simulate(args: argparse.Namespace) -> int:
    names = game_names() if args.game == "all" else [args.game]
    if args.json is not None:
        _check_output(args.json)
    games: List[Tuple[str, Game[Any, Any]]] = []
    skipped: List[Dict[str, str]] = []
    params = _params(args)
    for name in names:
        unknown = sorted(set(params) - set(_registry_defaults(name)))
        if args.game == "all" and unknown:
            skipped.append({"game": name, "reason": f"it has no parameter {', '.join(unknown)}"})
            continue
        game = _load(name, None if args.game == "all" else args.players, args.engine, params)
        if args.game == "all" and args.players is not None and args.players != game.num_players:
            lo, hi = type(game).min_players, type(game).max_players
            if not lo <= args.players <= hi:
                reason = f"it is for {lo} to {hi} players"
                skipped.append({"game": name, "reason": reason})
                continue
            game = _load(name, args.players, args.engine, params)
        games.append((name, game))
    if not games and params and not args.players:
        raise UsageError(f"argument --param: no game has the parameter(s) {', '.join(sorted(params))}")
    if not games:
        raise UsageError(f"argument --players: no game allows {args.players} players (with these parameters)")
    for note in skipped:
        print(f"{note['game']}: skipped, {note['reason']}", flush=True)
    report: List[Dict[str, Any]] = []
    for name, game in games:
        n = args.games if args.games is not None else DEFAULT_GAMES[game.engine]
        display = Progress(f"{name} ({game.num_players}p, {game.engine})", n, every=LOG_EVERY)
        start = time.perf_counter()
        try:
            with display:
                summary = simulate(game, n, seed=args.seed, threads=args.threads, progress=display, aggregate=True)
        except KeyboardInterrupt:
            sys.stdout.flush()
            sys.stderr.write(f"interrupted after {_games(display.done)} of {name}\n")
            return EXIT_INTERRUPTED
        figures = _figures(name, game, args.seed, args.threads, summary, time.perf_counter() - start)
        report.append(figures)
        print(_table(figures, _readings_text(game)), flush=True)
        if summary.n_games:
            print(_legend(game), flush=True)
    if args.json is not None:
        doc = {
            "mousehole": __version__,
            "command": "simulate",
            "seed": args.seed,
            "threads": args.threads,
            "results": report,
            "skipped": skipped,
        }
        try:
            with open(args.json, "w", encoding="utf-8") as fh:
                fh.write(_dump_json(doc))
        except OSError as e:
            sys.stderr.write(f"{PROG} simulate: error: cannot write {args.json}: {e.strerror}\n")
            return 1
    return EXIT_OK


# --------------------------------------------------------------------------------------
# show


def _add_show(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "show",
        help="print a position after some moves",
        description="Print the position of a new game (seeded) after the given moves, each "
        "written in the game's readable notation (as --legal lists them).",
    )
    _add_game_options(p, allow_all=False)
    p.add_argument(
        "--seed",
        type=_seed_arg,
        default=None,
        metavar="S",
        help="seed of the deal, from 0 to 2**64-1 (default: a fresh secret seed from the operating "
        "system; the seed used is printed)",
    )
    p.add_argument(
        "--moves", default="", metavar='"M1; M2; ..."', help="moves to play first, separated by ';' (default: none)"
    )
    p.add_argument(
        "--legal", action="store_true", default=False, help="also list the legal moves of the position (default: off)"
    )
    return p


def _run_show(args: argparse.Namespace) -> int:
    game = _load(args.game, args.players, args.engine, _params(args))
    seed = args.seed if args.seed is not None else _fresh_seed()
    state = game.new_state(seed=seed)
    moves = [m.strip() for m in args.moves.split(";") if m.strip()]
    played: List[str] = []
    for i, text in enumerate(moves, 1):
        if state.is_terminal():
            raise UsageError(f"argument --moves: move {i} ({shorten(text)}): the game is already over")
        seat = state.current_player
        try:
            action = state.parse_action(text)
        except (ValueError, TypeError, NotImplementedError) as e:
            raise UsageError(f"argument --moves: move {i} ({shorten(text)}): {clip(str(e), 300)}") from None
        state.apply_action(action)
        text = _escape(text)
        played.append(f"{i}. seat {seat}: {text}" if seat >= 0 else f"{i}. chance: {text}")
    print(
        f"{args.game}, {game.num_players} players{_readings_text(game)}, {game.engine} engine, seed {seed}; "
        f"after {len(played)} move{'s' if len(played) != 1 else ''}"
    )
    for line in played:
        print(f"  {line}")
    print()
    print(state)
    if state.is_terminal():
        print(f"game over: scores {state.scores()}, winners {state.winners()}")
    elif args.legal:
        legal = [state.describe(int(a)) for a in state.legal_actions()]
        who = "chance" if state.current_player < 0 else f"seat {state.current_player}"
        print(f"legal moves of {who} ({len(legal)}):")
        for text in legal:
            print(f"  {text}")
    return EXIT_OK


# --------------------------------------------------------------------------------------
# bots (play and arena)


def _bot_specs(text: str) -> List[str]:
    specs = [s.strip() for s in text.split(",")]
    if not text.strip() or any(not s for s in specs):
        raise argparse.ArgumentTypeError(
            f"expected bot specs separated by commas (e.g. mcts:200,random), got {shorten(text)}"
        )
    return specs


#: ``play --level``: the bot spec of each difficulty (docs/bots.md places them on the ladder)
LEVELS = {"easy": "greedy", "medium": "ismcts", "hard": "strong"}
#: ``play --level``'s seconds per move for its search bots when ``--time`` is not given
LEVEL_SECONDS = 1.0
#: the most seconds per move ``--time`` may ask for: the bots' own cap (``bots.MAX_SECONDS``)
MAX_MOVE_SECONDS = MAX_SECONDS


def _seconds_arg(text: str) -> float:
    """``--time``: seconds per move, a number above 0 and at most a day."""
    stripped = text.strip()
    try:
        v = float(stripped) if len(stripped) <= 40 and "_" not in stripped else math.nan
    except ValueError:
        v = math.nan
    if not 0.0 < v <= MAX_MOVE_SECONDS:  # (False for a NaN)
        raise argparse.ArgumentTypeError(
            f"expected seconds per move, a number above 0 and at most "
            f"{MAX_MOVE_SECONDS:g}, got {_shown(repr(text), 60)}"
        )
    return v


def _timed(specs: Sequence[str], seconds: Optional[float]) -> List[str]:
    """``--time``: every search bot given without a budget gets ``seconds`` per move
    (``mcts`` becomes ``mcts:0.5s``); the other specs stay as they are."""
    from .bots import spec_with_time

    if seconds is None:
        return list(specs)
    return [spec_with_time(s, seconds) for s in specs]


def _check_spec(spec: str, i: int) -> None:
    """A usage error naming the spec unless it makes a bot."""
    from .arena import _build

    try:
        _build(spec, 0)
    except (ValueError, TypeError, ImportError) as e:
        raise UsageError(f"argument --bots: bot {i + 1} ({shorten(spec)}): {e}") from None


# --------------------------------------------------------------------------------------
# play


def _real_text(text: str) -> float:
    """``text`` as a number: a float of at most 40 characters without ``_``, else NaN."""
    stripped = text.strip()
    if len(stripped) > 40 or "_" in stripped:
        return math.nan
    try:
        return float(stripped)
    except ValueError:
        return math.nan


def _pause_arg(text: str) -> float:
    """``--pause``: seconds, a number from 0 to :data:`mousehole._play.MAX_PAUSE`."""
    v = _real_text(text)
    if not 0.0 <= v <= MAX_PAUSE:  # (False for a NaN)
        raise argparse.ArgumentTypeError(
            f"expected seconds, a number from 0 to {MAX_PAUSE:g}, got {_shown(repr(text), 60)}"
        )
    return v


def _add_play(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "play",
        help="play a game against bots in the terminal",
        description="Play one game against bots: type your moves in the game's readable notation "
        "('moves' lists the legal ones), 'help' for the game's rules and your legal moves, "
        "'quit' to leave. Before each of your moves the position is shown as your seat sees it "
        "(what the game hides from you stays hidden), with a legend; the bots' moves are printed "
        "as they play. A move that is your only legal one is played for you (see --forced). Once "
        "your result can no longer change, the game stops and says why (see --watch). At the end "
        "it says why the game ended and how every seat's score is made up.",
    )
    _add_game_options(p, allow_all=False)
    p.add_argument(
        "--seat", type=_int_value, default=0, metavar="K", help="your seat, from 0 to players - 1 (default: 0)"
    )
    p.add_argument(
        "--bots",
        type=_bot_specs,
        default=None,
        metavar="SPEC,...",
        help=f"the bots of the other seats in seat order, separated by commas: {_SPECS_TEXT} "
        "(e.g. strong:1s); a single spec plays every other seat (default: random)",
    )
    p.add_argument(
        "--level",
        choices=sorted(LEVELS),
        default=None,
        help="play every other seat at a difficulty instead of --bots: easy (greedy), medium "
        f"(ismcts), hard (strong, the strongest bot), {LEVEL_SECONDS:g} s a move unless --time "
        "says otherwise (default: none)",
    )
    p.add_argument(
        "--time",
        type=_seconds_arg,
        default=None,
        metavar="SECONDS",
        help="seconds per move of the search bots given without a budget (e.g. --bots mcts "
        "--time 0.5) (default: their 1000 iterations)",
    )
    p.add_argument(
        "--forced",
        choices=FORCED_CHOICES,
        default="play",
        help="a move that is your only legal one: 'play' plays it for you and shows it, pausing "
        "--pause seconds (Enter goes on at once); 'ask' asks you as for any move, and an empty "
        "line (Enter) plays it (default: play)",
    )
    p.add_argument(
        "--pause",
        type=_pause_arg,
        default=FORCED_PAUSE,
        metavar="SECONDS",
        help=f"how long a move played for you stays on screen before the game goes on, from 0 to "
        f"{MAX_PAUSE:g}; only when standard input is a terminal (default: {FORCED_PAUSE:g})",
    )
    p.add_argument(
        "--watch",
        action="store_true",
        help="play on to the end when your result can no longer change (default: the game stops "
        "there and says why, with the scores as they stand)",
    )
    p.add_argument(
        "--seed",
        type=_seed_arg,
        default=None,
        metavar="S",
        help="seed of the deal, the dice and the bots, from 0 to 2**64-1 (default: a fresh secret "
        "seed from the operating system, printed when the game ends and kept in the record)",
    )
    p.add_argument(
        "--name",
        type=_name_arg,
        default="you",
        metavar="NAME",
        help=f"your name in the game record, 1 to {MAX_NAME} characters (default: you)",
    )
    _add_file_option(
        p, "--record", "write the game record (mousehole.records JSON) to FILE at the end, finished, stopped or left"
    )
    return p


def _write_record(path: str, state: Any, seats: List[str]) -> None:
    from .records import dumps

    with open(path, "w", encoding="utf-8") as fh:
        fh.write(dumps(state, seats=seats, indent=1) + "\n")
    print(f"record written to {_escape(path)}")


def _play_specs(bots: Sequence[str], n: int, seat: int) -> Dict[int, str]:
    """``play --bots``: the bot spec of every seat but the person's (one spec for all, or one
    a seat in seat order), each checked."""
    specs: List[str] = list(bots)
    if len(specs) == 1:
        specs = specs * (n - 1)
    if len(specs) != n - 1:
        raise UsageError(
            f"argument --bots: {n} players: give {n - 1} bots (the other seats, in seat order) "
            f"or one for every other seat, got {len(specs)}"
        )
    for i, spec in enumerate(specs):
        _check_spec(spec, i)
    return dict(zip([s for s in range(n) if s != seat], specs))


def _run_play(args: argparse.Namespace) -> int:
    from ._play import PlayOptions, play
    from ._rng import Rng, derive
    from .arena import _build, _chance

    game = _load(args.game, args.players, args.engine, _params(args))
    n = game.num_players
    seat = args.seat
    if not 0 <= seat < n:
        raise UsageError(f"argument --seat: must be from 0 to {n - 1} ({n} players), got {seat}")
    if args.level is not None and args.bots is not None:
        raise UsageError("argument --level: not allowed with --bots (a level chooses the bots)")
    if args.level is not None:
        specs = _timed([LEVELS[args.level]], LEVEL_SECONDS if args.time is None else args.time)
    else:
        specs = _timed(["random"] if args.bots is None else args.bots, args.time)
    spec_of = _play_specs(specs, n, seat)
    others = sorted(spec_of)
    names = [args.name if s == seat else spec_of[s] for s in range(n)]
    if args.record is not None:
        _check_output(args.record, "--record")
    # A seed the person could know would show them the hidden cards (``show --seed``):
    # without --seed, a fresh one from the OS, revealed when the game ends.
    secret = args.seed is None
    seed = _fresh_seed() if secret else int(args.seed)
    bots = {s: _build(spec_of[s], derive(seed, 2 + s)) for s in others}
    rolls = Rng(derive(seed, 1))
    state = game.new_state(seed=seed)
    seats = ", ".join(f"seat {s}: {spec_of[s]}" for s in others)
    dealt = "a secret seed (printed at the end)" if secret else f"seed {seed}"
    print(
        f"{args.game}, {n} players{_readings_text(game)}, {game.engine} engine, {dealt}; you are seat {seat}; {seats}"
    )
    print(
        "type your move in the game's notation; 'moves' lists your legal moves, 'help' explains the game, 'quit' leaves"
    )
    if args.forced == "play":
        print(
            "a move that is your only legal one is played for you (Enter skips the pause; --forced ask asks "
            "you instead)",
            flush=True,
        )
    labels = ["you" if s == seat else spec_of[s] for s in range(n)]
    options = PlayOptions(seat=seat, labels=labels, forced=args.forced, pause=args.pause, watch=args.watch)
    outcome = play(state, bots, lambda st: _chance(st, rolls), options)
    if secret:
        print(f"the seed of this game was {seed}")
    if args.record is not None:
        _write_record(args.record, state, names)
    return 1 if outcome == "eof" else EXIT_OK


# --------------------------------------------------------------------------------------
# replay


def _add_replay(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "replay",
        help="replay a game record, in the terminal or as an HTML page",
        description="Replay a game record (mousehole.records JSON, as 'play --record' and 'arena --records' "
        "write them; a file holding a list of records takes --index). The record is verified "
        "move by move first. Without --html the game is printed move by move; with --html OUT "
        "one self-contained HTML page is written (SVG frames, a slider, previous/next buttons "
        "and the arrow keys). A file that is not a record (too large, not UTF-8, not JSON, not "
        "the record format, a move that does not replay) is refused with one line (status 2).",
    )
    p.add_argument("file", metavar="FILE", help="the record, or a list of records ('-': standard input)")
    p.add_argument(
        "--index",
        type=_count,
        default=None,
        metavar="K",
        help="which record of a list of records, from 0; only for a list (default: 0, the first)",
    )
    _add_file_option(p, "--html", "write the replay page to OUT", metavar="OUT")
    p.add_argument(
        "--view",
        type=_int_value,
        default=None,
        metavar="SEAT",
        help="show the game as this seat saw it: positions and captions, in the text and on the "
        "page (default: everything)",
    )
    p.add_argument(
        "--diagrams",
        action="store_true",
        help="print the position after every move, not only at the end (default: off)",
    )
    _add_engine_option(p, "engine that replays the record (default: the default engine)")
    p.add_argument(
        "--max-bytes",
        type=_max_bytes_arg,
        default=MAX_FILE_BYTES,
        metavar="N",
        help=f"read at most N bytes of FILE, from 1 to 2**30; a larger file is refused "
        f"(default: {MAX_FILE_BYTES:,}, 64 MiB)",
    )
    return p


def _read_capped(path: str, cap: int) -> bytes:
    """At most ``cap + 1`` bytes of ``path`` (``-``: standard input): enough to tell that a
    file is too large, and an end to reading ``/dev/zero`` or an endless pipe."""
    if path == "-":
        return bytes(sys.stdin.buffer.read(cap + 1))
    with open(path, "rb") as fh:
        return bytes(fh.read(cap + 1))


def _run_replay(args: argparse.Namespace) -> int:
    from .records import MAX_DEPTH, RecordError, _parse, loads
    from .replay import html, text_lines

    name = "standard input" if args.file == "-" else _shown(args.file)
    try:
        data = _read_capped(args.file, args.max_bytes)
    except OSError as e:
        raise UsageError(f"argument FILE: cannot read {name}: {e.strerror or e}") from None
    if len(data) > args.max_bytes:
        raise UsageError(
            f"argument FILE: {name} is larger than {args.max_bytes:,} bytes (--max-bytes raises the limit)"
        )
    listed = data.lstrip(b" \t\r\n")[:1] == b"["  # a list of records: one level more
    try:
        doc = _parse(data, max_bytes=args.max_bytes, max_depth=MAX_DEPTH + listed, what="the file")
    except RecordError as e:
        raise UsageError(f"argument FILE: {name}: {e}") from None
    if isinstance(doc, list):
        index = 0 if args.index is None else args.index
        if not 0 <= index < len(doc):
            raise UsageError(f"argument --index: {name} holds {len(doc)} records (a list), got {index}")
        text = json.dumps(doc[index], ensure_ascii=False)
        where = f"{name}, record {index}"
    else:
        if args.index is not None:
            raise UsageError(f"argument --index: {name} holds one record, not a list of records")
        text = data.decode("utf-8")
        where = name
    try:
        record = loads(text, engine=args.engine)
    except RecordError as e:
        raise UsageError(f"argument FILE: {where}: {e}") from None
    n = len(record.seats)
    if args.view is not None and not 0 <= args.view < n:
        raise UsageError(f"argument --view: must be from 0 to {n - 1} ({n} players), got {args.view}")
    if args.html is not None:
        _check_output(args.html, "--html")
    # The record's free text (seat names, the date) is shown with its control characters
    # escaped: a name cannot clear the terminal or forge a line of the replay.
    shown = dataclasses.replace(
        record,
        seats=tuple(_escape(s) for s in record.seats),
        date=None if record.date is None else _escape(record.date),
    )
    # Everything is made before anything is written, so that a refusal is one line alone.
    try:
        if args.html is not None:
            page = html(shown, for_player=args.view, engine=args.engine)
        else:
            lines = list(text_lines(shown, diagrams=args.diagrams, for_player=args.view, engine=args.engine))
    except (MouseholeError, ValueError, TypeError) as e:
        text = str(e).strip()
        raise UsageError(f"cannot replay {where}: {text.splitlines()[0] if text else type(e).__name__}") from None
    if args.html is not None:
        try:
            with open(args.html, "w", encoding="utf-8") as fh:
                fh.write(page)
        except OSError as e:
            sys.stderr.write(f"{PROG} replay: error: cannot write {_shown(args.html)}: {e.strerror or e}\n")
            return 1
        print(f"{_escape(args.html)}: {len(record.actions) + 1} frames")
        return EXIT_OK
    for line in lines:
        # record fields (seat names, the date, meta) reach the terminal escaped, line by line
        print(_escape(line, keep_newlines=True))
    return EXIT_OK


# --------------------------------------------------------------------------------------
# arena


def _add_arena(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "arena",
        help="play a seat-rotated tournament between bots and print the results table",
        description="Play seeded games between bots (mousehole.arena.play), rotating the seats every game, "
        "and print per bot the wins, the win rate of decided games with its 95% interval, the "
        "mean score with its 95% interval and the openskill ratings. The games run here, on "
        "a pool of worker processes (--workers) or on a Dask cluster (--dask); the results "
        "are the same for the same seed. Ctrl-C stops (exit status 130).",
    )
    _add_game_options(p, allow_all=False)
    players = next(a for a in p._actions if a.dest == "players")
    players.help = "number of players (default: the number of bots)"
    p.add_argument(
        "--bots",
        type=_bot_specs,
        required=True,
        metavar="SPEC,SPEC,...",
        help=f"one bot per seat of the rotation, separated by commas: {_SPECS_TEXT} "
        "(e.g. mcts:0.1s); their number is the player count unless --players says it "
        "(default: none, required)",
    )
    p.add_argument(
        "--time",
        type=_seconds_arg,
        default=None,
        metavar="SECONDS",
        help="seconds per move of the search bots given without a budget (mcts becomes "
        "mcts:SECONDSs); the table shows the time every bot used (default: their 1000 "
        "iterations)",
    )
    p.add_argument(
        "--games", type=_games_arg, default=100, metavar="N", help="number of games, from 1 to 2**53 (default: 100)"
    )
    p.add_argument(
        "--seed",
        type=_seed_arg,
        default=None,
        metavar="S",
        help="seed of the tournament, from 0 to 2**64-1: the same seed gives the same games "
        "(default: a fresh seed from the operating system; the table shows the seed used)",
    )
    p.add_argument(
        "--workers",
        type=_workers_arg,
        default=None,
        metavar="K",
        help=f"worker processes playing games, from 1 to {MAX_WORKERS}; 1 plays them in this process (default: 1)",
    )
    p.add_argument(
        "--dask",
        default=None,
        metavar="ADDRESS",
        help="run the games on the Dask cluster whose scheduler is at ADDRESS, e.g. "
        "tcp://10.0.0.5:8786 (needs dask[distributed]) (default: none)",
    )
    _add_file_option(p, "--json", "also write the figures as JSON to FILE")
    _add_file_option(p, "--records", "also write every game's record (seed, seats, actions, returns) as JSON to FILE")
    return p


def _ignore_sigint() -> None:  # worker processes: Ctrl-C is the parent's to handle
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _arena_game(args: argparse.Namespace, specs: List[str]) -> Game[Any, Any]:
    """``arena``'s game: as many players as bots (``--players``, when given, must agree),
    each bot spec checked."""
    players = args.players if args.players is not None else len(specs)
    if args.players is not None and args.players != len(specs):
        raise UsageError(f"argument --bots: {args.players} players need {args.players} bots, got {len(specs)}")
    if args.players is None:
        cls = type(load(args.game, engine="python"))
        if not cls.min_players <= players <= cls.max_players:
            raise UsageError(
                f"argument --bots: {args.game} is for {cls.min_players} to {cls.max_players} players, "
                f"one bot each; got {players} bot{'s' if players != 1 else ''}"
            )
    game = _load(args.game, players, args.engine, _params(args))
    for i, spec in enumerate(specs):
        _check_spec(spec, i)
    return game


def _arena_executor(args: argparse.Namespace) -> Tuple[Any, Any, Any]:
    """``(executor, client, pool)``: a Dask client's executor (``--dask``), a pool of worker
    processes (``--workers``), or none of them (this process)."""
    if args.dask is not None:
        import importlib

        try:
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise UsageError(f"argument --dask: needs dask[distributed]: {install_hint('dask')}") from None
        try:
            client = distributed.Client(args.dask, timeout=10)
        except (OSError, TimeoutError, ValueError) as e:
            raise UsageError(f"argument --dask: cannot reach the scheduler at {args.dask}: {e}") from None
        return client.get_executor(), client, None
    if args.workers is not None and args.workers > 1:
        import concurrent.futures

        pool = concurrent.futures.ProcessPoolExecutor(args.workers, initializer=_ignore_sigint)
        return pool, None, pool
    return None, None, None


def _end_pool(pool: Any) -> None:
    """End an interrupted pool's workers (they ignore SIGINT; this command started them)."""
    import concurrent.futures
    import multiprocessing
    import threading

    # Ending the workers breaks the pool; its manager thread then tries to fail the
    # futures already cancelled and CPython (3.9-3.12) prints an InvalidStateError
    # from that thread. Nothing is lost: keep stderr to the one line the caller writes.
    hook = threading.excepthook
    threading.excepthook = lambda a: None if isinstance(a.exc_value, concurrent.futures.InvalidStateError) else hook(a)
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown forgets it
    pool.shutdown(wait=False, cancel_futures=True)
    for child in multiprocessing.active_children():
        child.terminate()
    # At exit, CPython (3.9-3.13) wakes each pool's manager thread through a pipe
    # that the thread closes as it ends, with no lock between the two: a manager
    # still ending then can make the exit print "OSError: Bad file descriptor".
    # So the manager ends first (it does once it sees its workers gone).
    if manager is not None:
        manager.join(timeout=10)


def _write_arena_outputs(args: argparse.Namespace, result: Any, seconds: float) -> int:
    """``--json`` and ``--records``: 0, or 1 with a message when a file cannot be written."""
    try:
        if args.json is not None:
            doc = {"mousehole": __version__, "command": "arena", "seconds": seconds, **result.to_dict()}
            with open(args.json, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(doc, indent=2, allow_nan=False) + "\n")
        if args.records is not None:
            with open(args.records, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(result.records, allow_nan=False) + "\n")
    except OSError as e:
        sys.stderr.write(f"{PROG} arena: error: cannot write {e.filename}: {e.strerror}\n")
        return 1
    return EXIT_OK


def _run_arena(args: argparse.Namespace) -> int:
    from .arena import play

    specs: List[str] = _timed(args.bots, args.time)
    game = _arena_game(args, specs)
    if args.dask is not None and args.workers is not None:
        raise UsageError("argument --workers: not allowed with --dask (the cluster has its workers)")
    for path, opt in ((args.json, "--json"), (args.records, "--records")):
        if path is not None:
            _check_output(path, opt)
    executor, client, pool = _arena_executor(args)
    seed = args.seed if args.seed is not None else _fresh_seed()
    where = (
        f"Dask at {_escape(args.dask)}"
        if client is not None
        else f"{args.workers} worker processes"
        if pool is not None
        else "this process"
    )
    display = Progress(f"{args.game} ({game.num_players}p, {' vs '.join(specs)})", args.games, every=LOG_EVERY)
    start = time.perf_counter()
    try:
        with display:
            result = play(
                game, specs, args.games, seed, executor=executor, progress=display, records=args.records is not None
            )
    except KeyboardInterrupt:
        if pool is not None:
            _end_pool(pool)
        sys.stdout.flush()
        sys.stderr.write(f"interrupted after {_games(display.done)} of {args.games:,}\n")
        return EXIT_INTERRUPTED
    finally:
        if client is not None:
            client.close()
    if pool is not None:
        pool.shutdown()
    seconds = time.perf_counter() - start
    print(result.table())
    readings = _readings_text(game)
    print(
        f"  {_games(args.games)}{' with ' + readings.strip()[1:-1] if readings else ''} in {seconds:.2f} s on {where}",
        flush=True,
    )
    return _write_arena_outputs(args, result, seconds)


# --------------------------------------------------------------------------------------
# rules


def _add_rules(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "rules",
        help="list a game's readings of its rules (parameters) with their sources",
        description="Print the game's readings: where the printed rules allow more than one "
        "reading, a parameter (--param NAME=VALUE on simulate, show, play and arena; a "
        "keyword of mousehole.load) with its values, the sentence of the original text it "
        "rests on and its translation, and why the default was chosen; then the game's "
        "other parameters.",
    )
    _add_game_argument(p, allow_all=False)
    return p


def _wrap(text: str, indent: str, width: int = 96) -> List[str]:
    import textwrap

    return textwrap.wrap(_escape(text), width=width, initial_indent=indent, subsequent_indent=indent) or [indent]


def rules_text(name: str) -> str:
    """What ``mousehole rules NAME`` prints: the game's readings table in plain text."""
    cls = type(load(name, engine="python"))
    lines = [
        f'{cls.title}: readings of the rules (parameters of mousehole.load("{name}", ...); '
        "on the command line --param NAME=VALUE)"
    ]
    if not cls.READINGS:
        lines.append("  (none: the text leaves no open question that changes play)")
    for r in cls.READINGS:
        lines += ["", f"{r.param}  ({', '.join(r.rules)})"]
        width = max(len(v) for v in r.values)
        for v, meaning in zip(r.values, r.meaning):
            tag = "(default) " if v == r.default else ""
            lines += _wrap(f"{v:<{width}}  {tag}{meaning}", "  ")
        lines += _wrap(f"original: {r.source}", "  ")
        lines += _wrap(f"translation: {r.translation}", "  ")
        lines += _wrap(f"why the default: {r.why_default}", "  ")
    readings = {r.param for r in cls.READINGS}
    other = [f"{k}={v!r}" for k, v in cls.DEFAULTS.items() if k not in readings]
    lines += [
        "",
        "other parameters (defaults): " + ", ".join(other),
        f"({cls.min_players} to {cls.max_players} players; None: the rules' own value for the player count)",
    ]
    return "\n".join(lines)


def _run_rules(args: argparse.Namespace) -> int:
    print(rules_text(args.game))
    return EXIT_OK


# --------------------------------------------------------------------------------------
# the parser and main


#: subcommand name -> (adds its parser, runs it)
def _bench_parser(sub: Any) -> argparse.ArgumentParser:
    from . import bench

    return bench.add_parser(sub)


def _bench_run(args: argparse.Namespace) -> int:
    from . import bench

    return bench.run(args)


def _serve_parser(sub: Any) -> argparse.ArgumentParser:  # (the serve extra: mousehole.serve)
    from .serve import cli as serve_cli

    return serve_cli.add_parser(sub)


def _serve_run(args: argparse.Namespace) -> int:
    from .serve import cli as serve_cli

    return serve_cli.run(args)


COMMANDS: Dict[str, Tuple[Callable[[Any], argparse.ArgumentParser], Callable[[argparse.Namespace], int]]] = {
    "simulate": (_add_simulate, _run_simulate),
    "show": (_add_show, _run_show),
    "play": (_add_play, _run_play),
    "arena": (_add_arena, _run_arena),
    "replay": (_add_replay, _run_replay),
    "rules": (_add_rules, _run_rules),
    "bench": (_bench_parser, _bench_run),
    "serve": (_serve_parser, _serve_run),
}


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="mousehole: exact, fast rules engines for M, Cheese Rescue, "
        "Kater Kasimir and Maus au Chocolat. Engines available here: "
        f"{', '.join(available_engines())}.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for add, run in COMMANDS.values():
        p = add(sub)
        p.set_defaults(run=run, parser=p)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; return the exit status (``sys.exit(main())``)."""
    try:
        parser = build_parser()
        args = parser.parse_args(list(argv) if argv is not None else None)
        try:
            status: int = args.run(args)
        except UsageError as e:
            args.parser.error(str(e))
            return EXIT_USAGE  # not reached: error() exits
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # e.g. `mousehole show m --legal | head`
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
