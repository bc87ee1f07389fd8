"""``mousehole bench``: the benchmarks users run, in one command (also ``benchmarks/run.py``).

    mousehole bench                               # every game, both engines, every player count
    mousehole bench --quick                       # a smoke run: small sizes, a few seconds per game
    mousehole bench --games m --players 4 --json m.json
    mousehole bench --compare old.json            # and the ratio of every figure to an earlier run

What it measures, per game (``docs/benchmarks.md`` says how, and lists the goals to read the
figures against; the command reports measured figures and ratios, never pass or fail):

* **calls**: nanoseconds per call from Python on mid-game states (half-way through seeded
  random games), best of several repeats, both engines: ``clone()``, ``apply_action()`` with
  an ``int`` and with a ``numpy.int64``, ``is_chance_node()``, ``current_player``,
  ``new_state()``, ``legal_actions()``, ``observation(p)`` and ``legal_action_mask()`` (fresh,
  and into ``out``), ``to_dict()``, ``state_from_dict()``, ``determinize_view()``;
* **loops**: random steps per second of a plain Python loop, and ``simulate``'s games per
  second and nanoseconds per action;
* **C ratio**: ``simulate`` against a plain-C uniform-random player of the same game with the
  same action model (``benchmarks/limits/``, compiled here with the wheel's flags), run
  alternately in the same process for several rounds, as the ratio of their speeds per action
  in CPU time (of the best round of each, and the median of the rounds' ratios), with a
  fingerprint check: the same mean game length and
  seat-0 score within 4 standard errors. At every player count asked for;
* **threads**: ``simulate(threads=2)`` against ``threads=1``, and a control: the same
  single-threaded ``simulate`` in two independent processes at once; the speedup is reported
  relative to what the machine gave the control.

Exit status: 0 done, 2 bad usage (one line on stderr), 130 interrupted (Ctrl-C). Every wheel
ships the C loops' sources (``mousehole/limits``), so an installed package finds them;
``MOUSEHOLE_LIMITS`` points at another folder. The C ratio is skipped with one line (never an
error) only when no C compiler works (or the sources were removed).
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import math
import os
import platform
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

__all__ = [
    "add_arguments",
    "add_parser",
    "run",
    "measure",
    "format_table",
    "compare_rows",
    "machine",
    "c_sources",
    "build_c_loops",
    "run_c_loop",
    "fingerprint",
    "C_LOOPS",
]

EXIT_OK, EXIT_USAGE, EXIT_INTERRUPTED = 0, 2, 130

#: the games that have a C loop: game id -> source file in ``benchmarks/limits/``
C_LOOPS = {"cheese_rescue": "cheese_rescue.c", "m": "m.c", "maus_au_chocolat": "maus_au_chocolat.c"}
#: the readings a C loop plays where they are not the game's defaults: Maus au Chocolat's loop
#: keeps a set's highest printed cards (``kept_card="highest_printed"``, the default until
#: issue 41), M's loop draws after the scoring (``draw_timing="after_scoring"``, the default
#: until issue 41), so ``simulate`` is compared with each under that reading
C_LOOP_PARAMS: Dict[str, Dict[str, str]] = {
    "maus_au_chocolat": {"kept_card": "highest_printed"},
    "m": {"draw_timing": "after_scoring"},
}
#: 4 standard errors: the fingerprint tolerance
FINGERPRINT_SE = 4.0
#: the player count of the per-call table when the game allows it (every game's default)
MAIN_PLAYERS = 4

#: simulate / C games per round, by game (full size; --quick divides by QUICK_DIV); a game not
#: listed (a new one) plays SIM_GAMES_DEFAULT, so every registered game is benchmarked
SIM_GAMES = {"cheese_rescue": 20000, "m": 6000, "maus_au_chocolat": 4000, "kasimir": 6000}
SIM_GAMES_DEFAULT = 6000
QUICK_DIV = 20


def sim_games(name: str) -> int:
    """The simulate / C games per round of game ``name`` at full size (``SIM_GAMES``)."""
    return SIM_GAMES.get(name, SIM_GAMES_DEFAULT)


# The bounds of the options (docs/api.md, Bounds): each refused with one line, never run.
#: ``--players`` names player counts from 1 to this (every game allows at most 6)
MAX_PLAYERS = 16
#: ``--sim-games`` is at most this (500 times the largest default: about a minute a round)
MAX_SIM_GAMES = 10_000_000
#: ``--rounds`` is at most this
MAX_ROUNDS = 100
#: ``--compare`` reads at most this many bytes of its file (a run's JSON is about 30 KB)
MAX_COMPARE_BYTES = 16 * 2**20
#: names that left this module: name -> (value, what to use instead). The performance goals
#: are written in ``docs/benchmarks.md``; ``mousehole bench`` reports the figures alone.
_DEPRECATED: Dict[str, Tuple[Any, str]] = {
    "TARGET_RATIO": (
        {"cheese_rescue": 1.0, "m": 0.8, "maus_au_chocolat": 0.7},
        "the simulate / C-loop goals are listed in docs/benchmarks.md",
    ),
    "CALL_TARGETS": (
        {
            "clone_ns": 100.0,
            "apply_action_np_extra_ns": 10.0,
            "is_chance_node_ns": 25.0,
            "current_player_ns": 25.0,
            "new_state_ns": 300.0,
            "legal_actions_ns": 110.0,
        },
        "the per-call goals are listed in docs/benchmarks.md",
    ),
}


def __getattr__(name: str) -> Any:
    """The deprecated names of :data:`_DEPRECATED`, with a DeprecationWarning (a fresh copy
    each time, so no caller can change another's)."""
    if name in _DEPRECATED:
        import warnings

        value, instead = _DEPRECATED[name]
        warnings.warn(
            f"mousehole.bench.{name} is deprecated and will be removed: {instead}; "
            "mousehole bench reports measured figures without targets",
            DeprecationWarning,
            stacklevel=2,
        )
        return dict(value)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --------------------------------------------------------------------------------------
# options


def _games_arg(text: str) -> List[str]:
    from . import game_names
    from ._values import shorten

    names = game_names()
    out: List[str] = []
    for part in text.split(","):
        part = part.strip()
        if part == "all":
            out.extend(names)
        elif part in names:
            out.append(part)
        else:
            raise argparse.ArgumentTypeError(f"unknown game {shorten(part, 40)}; choose from {', '.join(names)}, all")
    return out


def _int_text(text: str, what: str) -> int:
    """``text`` as an int (:func:`mousehole._values.int_text`: ASCII digits, one sign), else
    the argparse error naming ``what`` and quoting a bounded prefix."""
    from ._values import int_text

    try:
        return int_text(text, what)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _players_arg(text: str) -> List[int]:
    """Player counts: ``4``, ``2,3``, ``2-6``, each from 1 to :data:`MAX_PLAYERS`."""
    from ._values import shorten

    what = "player counts such as 4, 2,3 or 2-6"
    if len(text) > 200:
        raise argparse.ArgumentTypeError(f"expected {what} (at most 200 characters), got {len(text):,} characters")
    out: List[int] = []
    for part in text.split(","):
        lo_text, dash, hi_text = part.strip().partition("-")
        lo = _int_text(lo_text, what) if lo_text.strip() else -1
        hi = _int_text(hi_text, what) if dash else lo
        if dash and not hi_text.strip():
            raise argparse.ArgumentTypeError(f"expected {what}, got {shorten(text, 40)}")
        for n in (lo, hi):
            if not 1 <= n <= MAX_PLAYERS:
                raise argparse.ArgumentTypeError(f"player counts are from 1 to {MAX_PLAYERS}, got {shorten(text, 40)}")
        out.extend(range(lo, hi + 1))
    if not out:
        raise argparse.ArgumentTypeError(f"expected {what}, got {shorten(text, 40)}")
    return out


def _ranged(lo: int, hi: int) -> Callable[[str], int]:
    """An integer option from ``lo`` to ``hi``."""

    def check(text: str) -> int:
        v = _int_text(text, "an integer")
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"must be from {lo} to {hi:,}, got {v:,}")
        return v

    return check


_sim_games_arg = _ranged(1, MAX_SIM_GAMES)
_rounds_arg = _ranged(1, MAX_ROUNDS)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``mousehole bench`` (and ``benchmarks/run.py``)."""
    from .cli import _add_engine_option, _add_file_option

    parser.add_argument(
        "--games",
        nargs="+",
        type=_games_arg,
        default=None,
        metavar="GAME",
        help="game ids, separated by spaces or commas, or 'all' (default: all)",
    )
    parser.add_argument(
        "--players",
        nargs="+",
        type=_players_arg,
        default=None,
        metavar="N",
        help=f"player counts from 1 to {MAX_PLAYERS}, e.g. 4, '2 3', 2,3 or 2-6; counts a game "
        "does not allow are "
        "skipped for it (default: every count each game allows for the C ratio and "
        f"simulate; the per-call table at {MAIN_PLAYERS})",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        default=False,
        help="small sizes: a smoke run of a few seconds per game (default: off)",
    )
    _add_file_option(parser, "--json", "also write every figure as JSON to FILE")
    _add_file_option(
        parser,
        "--compare",
        "also print the ratio of every figure to those of an earlier run's JSON "
        f"(at most {MAX_COMPARE_BYTES // 2**20} MiB)",
        metavar="OLD.json",
    )
    parser.add_argument(
        "--no-c",
        dest="no_c",
        action="store_true",
        default=False,
        help="skip the C loops (and so the C ratio) (default: off)",
    )
    parser.add_argument(
        "--no-threads",
        dest="no_threads",
        action="store_true",
        default=False,
        help="skip the threads measurement (default: off)",
    )
    _add_engine_option(parser, "measure the calls and loops of one engine only (default: every engine available)")
    parser.add_argument(
        "--sim-games",
        dest="sim_games",
        type=_sim_games_arg,
        default=None,
        metavar="N",
        help=f"games per simulate / C round, 1 to {MAX_SIM_GAMES:,} (default: by game, "
        + ", ".join(f"{k} {v:,}" for k, v in SIM_GAMES.items())
        + f", others {SIM_GAMES_DEFAULT:,}"
        + f"; divided by {QUICK_DIV} with --quick)",
    )
    parser.add_argument(
        "--rounds",
        type=_rounds_arg,
        default=None,
        metavar="R",
        help=f"rounds of the C ratio and the threads measurement, best of each, 1 to {MAX_ROUNDS} "
        "(default: 5; 2 with --quick)",
    )


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """The ``bench`` subcommand of ``mousehole`` (``cli.COMMANDS``): its parser, with
    :func:`add_arguments`; :func:`run` runs it."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "bench",
        help="benchmark the engines: calls, loops, simulate against plain C, threads",
        description="Measure, per game: ns per call from Python on mid-game states (both engines), the "
        "Python loop, simulate, the ratio of simulate to a plain-C player of the same game "
        "(compiled here with the wheel's flags; with a fingerprint check), and threads=2 "
        "against a two-process control; print the tables of measured figures and ratios. "
        "See docs/benchmarks.md.",
    )
    add_arguments(p)
    return p


# --------------------------------------------------------------------------------------
# the machine


def _git_commit() -> Optional[str]:
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    text = out.stdout.strip()
    return text if out.returncode == 0 and text else None


def machine() -> Dict[str, Any]:
    """What the figures were measured on."""
    from . import __version__, available_engines

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "mousehole": __version__,
        "engines": available_engines(),
        "numpy": np.__version__,
        "commit": _git_commit(),
        "date": time.strftime("%Y-%m-%d"),
    }


# --------------------------------------------------------------------------------------
# the C loops


def c_sources() -> Optional[str]:
    """The folder of the C loops: ``$MOUSEHOLE_LIMITS``, else ``benchmarks/limits`` of the
    source checkout this package runs from (an editable install), else the copy every wheel
    ships (``mousehole/limits``), else ``benchmarks/limits`` of the current directory; None
    when not found."""
    env = os.environ.get("MOUSEHOLE_LIMITS")
    candidates = [env] if env else []
    here = os.path.dirname(os.path.abspath(__file__))
    candidates.append(os.path.join(here, "..", "..", "benchmarks", "limits"))
    candidates.append(os.path.join(here, "limits"))
    candidates.append(os.path.join(os.getcwd(), "benchmarks", "limits"))
    for folder in candidates:
        if folder and all(os.path.isfile(os.path.join(folder, f)) for f in C_LOOPS.values()):
            return os.path.normpath(folder)
    return None


def _compiler() -> Tuple[List[str], List[str]]:
    """The C compiler and flags of the wheel's build: sysconfig's CC and CFLAGS, plus -O3
    (setup.py's), no -march. ``$CC`` overrides the compiler."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or ""
    cmd = shlex.split(cc) if cc else []
    if not cmd or shutil.which(cmd[0]) is None:
        for name in ("cc", "gcc", "clang"):
            if shutil.which(name):
                cmd = [name]
                break
        else:
            return [], []
    flags = [
        f
        for f in shlex.split(sysconfig.get_config_var("CFLAGS") or "")
        if not f.startswith(("-W", "-g", "-flto", "-ffat-lto", "-fprofile", "-fuse-linker-plugin", "-O"))
    ]
    return cmd, flags + ["-O3"]


def build_c_loops(
    folder: str, cache: Optional[str] = None, *, sources: Optional[Dict[str, str]] = None
) -> Tuple[Dict[str, str], str]:
    """Compile the C loops of ``folder`` (cached by a hash of the sources, the compiler and
    the flags in a temporary folder). Returns ``({game: executable}, note)``; the dict is
    empty when no compiler works, and ``note`` says why in one line. ``sources`` (name ->
    file of ``folder``) compiles other programs of the folder instead of :data:`C_LOOPS`
    (``benchmarks/bench_vector.py`` builds ``rows.c`` so)."""
    cc, flags = _compiler()
    if not cc:
        return {}, "C ratio skipped: no C compiler found (set CC)"
    h = hashlib.sha256()
    h.update(repr((cc, flags, sys.platform)).encode())
    for f in sorted(os.listdir(folder)):
        if f.endswith((".c", ".h")):
            with open(os.path.join(folder, f), "rb") as fh:
                h.update(f.encode() + b"\0" + fh.read())
    out_dir = os.path.join(cache or tempfile.gettempdir(), f"mousehole-limits-{h.hexdigest()[:16]}")
    os.makedirs(out_dir, exist_ok=True)
    exe_suffix = ".exe" if sys.platform == "win32" else ""
    built: Dict[str, str] = {}
    for game, src in (C_LOOPS if sources is None else sources).items():
        exe = os.path.join(out_dir, game + exe_suffix)
        if not os.path.exists(exe):
            tmp = f"{exe}.{os.getpid()}.tmp{exe_suffix}"
            cmd = cc + flags + ["-o", tmp, os.path.join(folder, src), "-lm"]
            try:
                res = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            except (OSError, subprocess.SubprocessError) as e:
                return {}, f"C ratio skipped: the C compiler {cc[0]} does not run ({e})"
            if res.returncode != 0:
                first = (res.stderr.strip().splitlines() or ["no message"])[0]
                return {}, f"C ratio skipped: {' '.join(cc)} cannot compile {src}: {first}"
            os.replace(tmp, exe)
        built[game] = exe
    return built, f"C loops: {' '.join(cc + flags)} ({out_dir})"


def run_c_loop(exe: str, players: int, games: int, seed: int) -> Dict[str, Any]:
    """One run of a C loop: its JSON line as a dict."""
    res = subprocess.run([exe, str(players), str(games), str(seed)], capture_output=True, text=True, timeout=3600)
    if res.returncode != 0:
        raise RuntimeError(f"{exe} {players} {games} {seed} failed ({res.returncode}): {res.stderr.strip()}")
    out: Dict[str, Any] = json.loads(res.stdout)
    return out


# --------------------------------------------------------------------------------------
# statistics


class _Pool:
    """Sums of a sample (count, sum, sum of squares) and its mean and standard error."""

    def __init__(self) -> None:
        self.n, self.s, self.q = 0, 0.0, 0.0

    def add_values(self, x: "np.ndarray[Any, Any]") -> None:
        v = x.astype(np.float64)
        self.n += int(v.size)
        self.s += float(v.sum())
        self.q += float((v * v).sum())

    def add_summary(self, n: int, mean: float, se: float) -> None:
        """A sample given by its size, mean and standard error (sample variance)."""
        var = se * se * n
        self.n += n
        self.s += mean * n
        self.q += (n - 1) * var + n * mean * mean

    @property
    def mean(self) -> float:
        return self.s / self.n if self.n else 0.0

    @property
    def se(self) -> float:
        if self.n < 2:
            return 0.0
        var = (self.q - self.s * self.s / self.n) / (self.n - 1)
        return math.sqrt(max(var, 0.0) / self.n)


def fingerprint(a_mean: float, a_se: float, b_mean: float, b_se: float) -> Tuple[float, bool]:
    """The distance between two means in combined standard errors, and whether it is within
    FINGERPRINT_SE (two exactly equal means pass whatever their errors; a difference with
    zero error fails)."""
    diff = abs(a_mean - b_mean)
    se = math.sqrt(a_se * a_se + b_se * b_se)
    if diff <= 1e-9 * max(1.0, abs(a_mean)):
        return 0.0, True
    if se == 0.0:
        return float("inf"), False
    z = diff / se
    return z, z <= FINGERPRINT_SE


# --------------------------------------------------------------------------------------
# timing


def best_ns(fn: Callable[[], int], repeat: int) -> float:
    """Best-of-``repeat`` nanoseconds per operation; ``fn`` returns its operation count."""
    best = float("inf")
    for _ in range(repeat):
        gc.disable()
        try:
            t = time.perf_counter_ns()
            ops = fn()
            dt = time.perf_counter_ns() - t
        finally:
            gc.enable()
        best = min(best, dt / max(ops, 1))
    return best


def best_ns_interleaved(fns: Dict[str, Callable[[], int]], repeat: int) -> Dict[str, float]:
    """``best_ns`` of several loops, their repeats interleaved (A, B, C, A, B, C, ...): a
    slow spell of a shared machine then costs each loop one repeat, not all of one loop's."""
    best = {k: float("inf") for k in fns}
    for _ in range(repeat):
        for k, fn in fns.items():
            best[k] = min(best[k], best_ns(fn, 1))
    return best


def midgame_states(game: Any, count: int, seed: int) -> List[Any]:
    """``count`` states, each halfway through a seeded random game (never terminal). Played
    on the compiled engine when it is available and loaded into ``game`` from their dicts."""
    from . import available_engines, load
    from ._rng import Rng

    player = game
    if game.engine != "compiled" and "compiled" in available_engines():
        player = load(game.name, engine="compiled", **game.params)
    out: List[Any] = []
    rng = Rng(seed)
    i = 0
    while len(out) < count:
        s = player.new_state(seed + i)
        trace: List[Any] = []
        while not s.is_terminal():
            trace.append(s.clone())
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.below(len(legal))]))
        if trace:
            mid = trace[len(trace) // 2]
            out.append(mid if player is game else game.state_from_dict(mid.to_dict()))
        i += 1
    return out


def _sizes(engine: str, quick: bool) -> Dict[str, int]:
    fast = engine == "compiled"
    return {
        "states": (40 if fast else 10) if quick else (200 if fast else 30),
        "repeat": 3 if quick else (15 if fast else 7),
        "inner": (10 if fast else 1) if quick else (50 if fast else 2),
        "loop_games": (20 if fast else 1) if quick else (400 if fast else 4),
        "sim_games": (200 if fast else 1) if quick else (20000 if fast else 10),
    }


def _call_loops(game: Any, states: List[Any], inner: int) -> Dict[str, Callable[[], int]]:
    """The loops of the calls timed together (``best_ns_interleaved``), by figure, in the
    order they take turns: each makes its call ``inner`` times on every state
    (``new_state_ns``: as many seeds) and returns the number of calls; ``loop_ns`` is the
    same loop with no call."""
    light = _light_loops(states, inner)
    heavy = _heavy_loops(game, states, inner)
    order = ("loop_ns", "legal_actions_ns", "clone_ns", "is_chance_node_ns", "current_player_ns", "new_state_ns")
    both = {**light, **heavy}
    return {k: both[k] for k in order}


def _light_loops(states: List[Any], inner: int) -> Dict[str, Callable[[], int]]:
    """The empty loop, ``current_player`` and ``is_chance_node()`` (see :func:`_call_loops`)."""
    n = len(states)

    def loop_only() -> int:
        for _ in range(inner):
            for _s in states:
                pass
        return inner * n

    def attr_loop() -> int:
        for _ in range(inner):
            for s in states:
                _ = s.current_player
        return inner * n

    def chance_loop() -> int:
        for _ in range(inner):
            for s in states:
                s.is_chance_node()
        return inner * n

    return {"loop_ns": loop_only, "current_player_ns": attr_loop, "is_chance_node_ns": chance_loop}


def _heavy_loops(game: Any, states: List[Any], inner: int) -> Dict[str, Callable[[], int]]:
    """``legal_actions()``, ``clone()`` and ``new_state(seed)`` (see :func:`_call_loops`)."""
    n = len(states)
    seeds = list(range(n))
    new_state = game.new_state

    def legal_loop() -> int:
        for _ in range(inner):
            for s in states:
                s.legal_actions()
        return inner * n

    def clone_loop() -> int:
        for _ in range(inner):
            for s in states:
                s.clone()
        return inner * n

    def new_loop() -> int:
        for _ in range(inner):
            for i in seeds:
                new_state(i)
        return inner * n

    return {"legal_actions_ns": legal_loop, "clone_ns": clone_loop, "new_state_ns": new_loop}


def _apply_ns(states: List[Any], actions: Sequence[Any], inner: int, reps: int) -> float:
    """Best ns of ``apply_action(a)``, one action per state on fresh copies made outside the
    timed region."""
    best = float("inf")
    pairs_n = len(actions)
    for _ in range(reps):
        for _ in range(max(1, inner // 4)):
            copies = [s.clone() for s in states]
            calls = [c.apply_action for c in copies]
            gc.disable()
            try:
                t = time.perf_counter_ns()
                for f, a in zip(calls, actions):
                    f(a)
                dt = time.perf_counter_ns() - t
            finally:
                gc.enable()
            best = min(best, dt / pairs_n)
    return best


def _apply_figures(states: List[Any], inner: int, reps: int) -> Dict[str, float]:
    """``apply_action`` with each state's first legal action as an ``int`` and as a
    ``numpy.int64``, and their difference."""
    legal0 = [s.legal_actions()[0] for s in states]
    r = {
        "apply_action_ns": _apply_ns(states, [int(a) for a in legal0], inner, reps),
        "apply_action_np_ns": _apply_ns(states, [np.int64(a) for a in legal0], inner, reps),
    }
    # The two are timed separately, so their difference carries both timings' noise: a
    # difference below zero means "too small to measure", reported as the floor 0.
    r["apply_action_np_extra_ns"] = max(0.0, r["apply_action_np_ns"] - r["apply_action_ns"])
    return r


def _view_figures(game: Any, states: List[Any], inner: int, reps: int) -> Dict[str, float]:
    """``observation(p)`` for the seat to move and ``legal_action_mask()``, fresh and into
    ``out``, and the observation's cost in clones (``clone_ns`` is added by the caller's
    ``observation_per_clone``)."""
    n = len(states)
    obs_buf = np.empty(game.observation_shape, dtype=np.float32)
    mask_buf = np.empty(game.num_actions, dtype=np.bool_)
    pairs = list(zip(states, [max(s.current_player, 0) for s in states]))

    # written out as plain loops, as the clone and legal-action loops are, so that
    # ``observation_per_clone`` compares calls timed alike (a lambda per call would add a
    # Python function call, about 50 ns, to the observation's side only)
    def obs_loop() -> int:
        for _ in range(inner):
            for s, p in pairs:
                s.observation(p)
        return inner * n

    def obs_out_loop() -> int:
        for _ in range(inner):
            for s, p in pairs:
                s.observation(p, out=obs_buf)
        return inner * n

    def mask_loop() -> int:
        for _ in range(inner):
            for s in states:
                s.legal_action_mask()
        return inner * n

    def mask_out_loop() -> int:
        for _ in range(inner):
            for s in states:
                s.legal_action_mask(out=mask_buf)
        return inner * n

    return {
        "observation_ns": best_ns(obs_loop, reps),
        "observation_out_ns": best_ns(obs_out_loop, reps),
        "legal_action_mask_ns": best_ns(mask_loop, reps),
        "legal_action_mask_out_ns": best_ns(mask_out_loop, reps),
    }


def _dict_figures(game: Any, states: List[Any], inner: int, reps: int) -> Dict[str, float]:
    """``to_dict()``, ``state_from_dict()`` and ``determinize_view()`` (of the view of the
    seat to move)."""
    few = max(1, inner // 10)
    dicts = [s.to_dict() for s in states]
    views = [s.to_dict(for_player=max(s.current_player, 0)) for s in states]

    def one_to_dict(s: Any) -> Any:
        return s.to_dict()

    def to_dict_loop() -> int:
        # a function call per state, as this figure has always been timed
        for _ in range(few):
            for s in states:
                one_to_dict(s)
        return few * len(states)

    return {
        "to_dict_ns": best_ns(to_dict_loop, reps),
        "state_from_dict_ns": best_ns(lambda: sum(1 for d in dicts if game.state_from_dict(d)), reps),
        "determinize_view_ns": best_ns(lambda: sum(1 for v in views if game.determinize_view(v, 1)), reps),
    }


def _python_loop_steps_per_s(game: Any, games: int) -> float:
    """Random steps per second from a plain Python loop (what a bot author writes)."""
    randrange = random.Random(1).randrange
    steps = 0
    t = time.perf_counter()
    for i in range(games):
        s = game.new_state(i)
        while not s.is_terminal():
            legal_a = s.legal_actions()
            s.apply_action(legal_a[randrange(len(legal_a))])
            steps += 1
    return steps / (time.perf_counter() - t)


def _simulate_figures(game: Any, games: int) -> Dict[str, float]:
    """Whole random games through ``simulate`` on one thread: games and actions per second
    (wall clock), ns per action (CPU time) and the mean game length."""
    from . import simulate

    t = time.perf_counter()
    c = time.process_time()
    res = simulate(game, games, seed=7)
    cpu = time.process_time() - c
    dt = time.perf_counter() - t
    actions = float(res.lengths.sum())
    return {
        "simulate_games_per_s": games / dt,
        "simulate_actions_per_s": actions / dt,
        "simulate_ns_per_action": cpu * 1e9 / actions if actions else 0.0,
        "mean_game_length": actions / games,
    }


def bench_calls(name: str, engine: str, players: int, quick: bool) -> Dict[str, float]:
    """The per-call figures and the loops of one engine (docs/benchmarks.md)."""
    from . import load

    game = load(name, players=players, engine=engine)
    z = _sizes(engine, quick)
    states = midgame_states(game, z["states"], seed=1)
    inner, reps = z["inner"], z["repeat"]
    r: Dict[str, float] = {}
    r.update(best_ns_interleaved(_call_loops(game, states, inner), reps))
    r.update(_apply_figures(states, inner, reps))
    r.update(_view_figures(game, states, inner, reps))
    r["observation_per_clone"] = r["observation_ns"] / r["clone_ns"]
    r.update(_dict_figures(game, states, inner, reps))
    r["python_loop_steps_per_s"] = _python_loop_steps_per_s(game, z["loop_games"])
    r.update(_simulate_figures(game, z["sim_games"]))
    return r


# --------------------------------------------------------------------------------------
# simulate against the C loop


class _OneCpu:
    """Pins this process, and the processes it starts, to one of its CPUs for the duration
    (where the platform allows it: Linux), so that both halves of a round run on the same
    core: on a VM whose cores run at different speeds a round's ratio otherwise compares
    two cores. ``cpu`` is the CPU used, or None where nothing was pinned."""

    def __enter__(self) -> "_OneCpu":
        self.cpu: Optional[int] = None
        self._saved: Optional[Any] = None
        get = getattr(os, "sched_getaffinity", None)
        set_ = getattr(os, "sched_setaffinity", None)
        if get is None or set_ is None:
            return self
        try:
            self._saved = get(0)
            self.cpu = min(self._saved)
            set_(0, {self.cpu})
        except (OSError, ValueError):
            self.cpu = None
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._saved is not None:
            try:
                os.sched_setaffinity(0, self._saved)
            except OSError:
                pass


def c_ratio(name: str, players: int, exe: Optional[str], games: int, rounds: int) -> Dict[str, Any]:
    """``simulate`` and the C loop of the same game, alternately, ``rounds`` times, both on
    one CPU (``_OneCpu``): best ns per action (CPU time) of each, their ratio, the median over
    the rounds of each round's ratio (``ratio_median``: a round's two runs share the machine's
    state of the moment) and the fingerprint (pooled over the rounds). Without ``exe``, the
    simulate figures alone."""
    with _OneCpu() as pin:
        entry = _c_ratio(name, players, exe, games, rounds)
    entry["pinned_cpu"] = pin.cpu
    return entry


def _c_ratio(name: str, players: int, exe: Optional[str], games: int, rounds: int) -> Dict[str, Any]:
    from . import load, simulate

    game = load(name, players=players, engine="compiled", **C_LOOP_PARAMS.get(name, {}))
    sim_best, c_best = float("inf"), float("inf")
    sim_wall_best = float("inf")
    sim_rounds: List[float] = []
    c_rounds: List[float] = []
    sim_len, sim_score, c_len, c_score = _Pool(), _Pool(), _Pool(), _Pool()
    simulate(game, max(10, games // 20), seed=0)  # warm-up
    for r in range(rounds):
        seed = 1000 + r
        t = time.perf_counter()
        c = time.process_time()
        res = simulate(game, games, seed=seed)
        cpu = time.process_time() - c
        wall = time.perf_counter() - t
        actions = int(res.lengths.sum())
        sim_best = min(sim_best, cpu * 1e9 / actions)
        sim_rounds.append(cpu * 1e9 / actions)
        sim_wall_best = min(sim_wall_best, wall * 1e9 / actions)
        sim_len.add_values(res.lengths)
        sim_score.add_values(res.scores[:, 0])
        if exe is not None:
            out = run_c_loop(exe, players, games, seed)
            c_best = min(c_best, float(out["ns_per_action"]))
            c_rounds.append(float(out["ns_per_action"]))
            c_len.add_summary(int(out["games"]), float(out["mean_length"]), float(out["length_stderr"]))
            c_score.add_summary(int(out["games"]), float(out["mean_score0"]), float(out["score0_stderr"]))
    entry: Dict[str, Any] = {
        "players": players,
        "games_per_round": games,
        "rounds": rounds,
        "simulate_ns_per_action": sim_best,
        "simulate_wall_ns_per_action": sim_wall_best,
        "simulate_mean_length": sim_len.mean,
        "simulate_length_stderr": sim_len.se,
        "simulate_mean_score0": sim_score.mean,
        "simulate_score0_stderr": sim_score.se,
    }
    if exe is not None:
        zl, okl = fingerprint(sim_len.mean, sim_len.se, c_len.mean, c_len.se)
        zs, oks = fingerprint(sim_score.mean, sim_score.se, c_score.mean, c_score.se)
        entry.update(
            {
                "c_ns_per_action": c_best,
                "ratio": c_best / sim_best,
                "round_ratios": [c / sim for c, sim in zip(c_rounds, sim_rounds)],
                "ratio_median": statistics.median(c / sim for c, sim in zip(c_rounds, sim_rounds)),
                "c_mean_length": c_len.mean,
                "c_length_stderr": c_len.se,
                "c_mean_score0": c_score.mean,
                "c_score0_stderr": c_score.se,
                "length_z": zl if math.isfinite(zl) else None,
                "score0_z": zs if math.isfinite(zs) else None,
                "fingerprint_ok": okl and oks,
            }
        )
    return entry


# --------------------------------------------------------------------------------------
# threads


_CONTROL = r"""
import json, sys, time
import mousehole
name, players, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
game = mousehole.load(name, players=players, engine="compiled")
mousehole.simulate(game, max(10, games // 20), seed=0)
print("ready", flush=True)
sys.stdin.readline()
t = time.perf_counter()
mousehole.simulate(game, games, seed=seed)
print(json.dumps({"seconds": time.perf_counter() - t}), flush=True)
"""


def _control(name: str, players: int, games: int, seed: int) -> float:
    """Two processes playing ``games`` single-threaded games each, started together: their
    summed games per second."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _CONTROL, name, str(players), str(games), str(seed + k)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for k in range(2)
    ]
    try:
        for p in procs:
            assert p.stdout is not None
            if p.stdout.readline().strip() != "ready":
                raise RuntimeError("the control process did not start")
        for p in procs:
            assert p.stdin is not None
            p.stdin.write("go\n")
            p.stdin.flush()
        rate = 0.0
        for p in procs:
            assert p.stdout is not None
            rate += games / float(json.loads(p.stdout.readline())["seconds"])
        for p in procs:
            p.wait(timeout=60)
        return rate
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()


def bench_threads(name: str, players: int, games: int, rounds: int, seconds: float = 0.3) -> Dict[str, Any]:
    """``simulate`` on 1 and 2 threads and the two-process control, ``rounds`` times
    alternately, best games per second of each (wall clock); at least ``games`` games per
    thread, and enough for about ``seconds`` of work."""
    from . import load, simulate

    game = load(name, players=players, engine="compiled")
    simulate(game, max(10, games // 20), seed=0)
    t = time.perf_counter()
    simulate(game, games, seed=0)
    # at least ``seconds`` of work per run (thread start-up is then negligible)
    games = max(games, int(games * seconds / max(time.perf_counter() - t, 1e-6)))
    one = two = control = 0.0
    for r in range(rounds):
        t = time.perf_counter()
        simulate(game, games, seed=r)
        one = max(one, games / (time.perf_counter() - t))
        t = time.perf_counter()
        simulate(game, 2 * games, seed=r, threads=2)
        two = max(two, 2 * games / (time.perf_counter() - t))
        control = max(control, _control(name, players, games, r))
    threads_speedup = two / one
    control_speedup = control / one
    return {
        "players": players,
        "games": games,
        "rounds": rounds,
        "games_per_s_1_thread": one,
        "games_per_s_2_threads": two,
        "control_games_per_s_2_processes": control,
        "threads_speedup": threads_speedup,
        "control_speedup": control_speedup,
        "relative_to_control": threads_speedup / control_speedup,
    }


# --------------------------------------------------------------------------------------
# the whole run


def _allowed(name: str) -> Tuple[int, int]:
    from . import load

    g = type(load(name, engine="python"))
    return int(g.min_players), int(g.max_players)


def _plan(args: argparse.Namespace) -> Tuple[List[str], Dict[str, List[int]], Dict[str, int]]:
    """The games, the player counts of each (C ratio), and the player count of each one's
    per-call table. Raises ValueError (a usage error) when nothing is left to measure."""
    from . import game_names

    games = [g for group in (args.games or [game_names()]) for g in group]
    games = list(dict.fromkeys(games))
    asked = None if args.players is None else sorted(set(n for group in args.players for n in group))
    counts: Dict[str, List[int]] = {}
    main: Dict[str, int] = {}
    for name in games:
        lo, hi = _allowed(name)
        ok = list(range(lo, hi + 1)) if asked is None else [n for n in asked if lo <= n <= hi]
        if not ok:
            continue
        counts[name] = ok
        main[name] = MAIN_PLAYERS if MAIN_PLAYERS in ok else ok[0]
    if not counts:
        raise ValueError(f"argument --players: no game of {', '.join(games)} allows {asked}")
    return list(counts), counts, main


def measure(
    args: argparse.Namespace,
    extra: Optional[Callable[[str, bool], Dict[str, Any]]] = None,
    log: Callable[[str], None] = lambda text: None,
) -> Dict[str, Any]:
    """Every figure of one run, as a JSON-ready dict (``docs/benchmarks.md`` lists the keys).
    ``extra(game, quick)`` adds game-specific figures under ``games/<game>/extra``."""
    from . import available_engines

    names, counts, main = _plan(args)
    quick = bool(args.quick)
    rounds = args.rounds or (2 if quick else 5)
    engines = [e for e in available_engines() if args.engine in (None, e)]
    results: Dict[str, Any] = {
        "machine": machine(),
        "quick": quick,
        "games": {},
        "c_ratio": {},
        "threads": {},
        "notes": [],
    }
    primary = sorted(set(main.values()))
    results["players"] = primary[0] if len(primary) == 1 else {k: v for k, v in main.items()}
    # calls and loops
    for name in names:
        entry: Dict[str, Any] = {"players": main[name]}
        for engine in engines:
            log(f"[{name}: {engine}, {main[name]} players: calls and loops]")
            entry[engine] = bench_calls(name, engine, main[name], quick)
        if "compiled" in entry and "python" in entry:
            c, p = entry["compiled"], entry["python"]
            entry["speedup"] = {
                "whole_games": c["simulate_games_per_s"] / p["simulate_games_per_s"],
                "python_loop": c["python_loop_steps_per_s"] / p["python_loop_steps_per_s"],
                "apply_action": p["apply_action_ns"] / c["apply_action_ns"],
                "legal_actions": p["legal_actions_ns"] / c["legal_actions_ns"],
            }
        if extra is not None:
            more = extra(name, quick)
            if more:
                entry["extra"] = more
        results["games"][name] = entry
    if "compiled" not in available_engines():
        results["notes"].append("C ratio and threads skipped: no compiled engine here")
        return results
    # simulate against the C loops
    exes: Dict[str, str] = {}
    if args.no_c:
        results["notes"].append("C ratio skipped (--no-c)")
    elif any(n in C_LOOPS for n in names):
        folder = c_sources()
        if folder is None:
            results["notes"].append(
                "C ratio skipped: the C loops' sources (benchmarks/limits of the source "
                "checkout) are not here; set MOUSEHOLE_LIMITS to their folder"
            )
        else:
            exes, note = build_c_loops(folder)
            results["notes"].append(note)
    for name in names:
        per: Dict[str, Any] = {}
        size = args.sim_games or max(10, sim_games(name) // (QUICK_DIV if quick else 1))
        for n in counts[name]:
            log(f"[{name}: {n} players: simulate" + (" and the C loop]" if name in exes else "]"))
            per[str(n)] = c_ratio(name, n, exes.get(name), size, rounds)
        results["c_ratio"][name] = per
    # threads
    if args.no_threads:
        results["notes"].append("threads skipped (--no-threads)")
    else:
        for name in names:
            size = 2 * (args.sim_games or max(10, sim_games(name) // (QUICK_DIV if quick else 1)))
            log(f"[{name}: {main[name]} players: threads]")
            results["threads"][name] = bench_threads(name, main[name], size, rounds, 0.05 if quick else 0.3)
    return results


# --------------------------------------------------------------------------------------
# printing


def format_table(results: Dict[str, Any]) -> str:
    """The figures of ``measure`` as text tables."""
    from ._api import ENGINES

    m = results["machine"]
    lines = [
        f"mousehole {m['mousehole']} (commit {m.get('commit') or '?'}) on {m['cpu']} ({m['cores']} cores), "
        f"Python {m['python']}{' (quick)' if results['quick'] else ''}",
        "",
    ]
    lines.append("Calls from Python, ns per call (mid-game states); loops")
    head = (
        f"{'game':<17}{'players':>7} {'engine':<9}{'clone':>8}{'apply':>8}{'apply np':>9}{'chance?':>8}"
        f"{'current':>8}{'new':>8}{'legal':>8}{'obs':>8}{'mask':>8}{'loop':>6}"
        f"{'py steps/s':>12}{'sim games/s':>13}{'sim ns/act':>11}"
    )
    lines.append(head)
    for name, entry in results["games"].items():
        for engine in ENGINES:
            r = entry.get(engine)
            if r is None:
                continue
            lines.append(
                f"{name:<17}{entry['players']:>7} {engine:<9}{r['clone_ns']:>8.0f}{r['apply_action_ns']:>8.0f}"
                f"{r['apply_action_np_ns']:>9.0f}{r['is_chance_node_ns']:>8.0f}{r['current_player_ns']:>8.0f}"
                f"{r['new_state_ns']:>8.0f}{r['legal_actions_ns']:>8.0f}{r['observation_ns']:>8.0f}"
                f"{r['legal_action_mask_ns']:>8.0f}{r['loop_ns']:>6.0f}{r['python_loop_steps_per_s']:>12,.0f}"
                f"{r['simulate_games_per_s']:>13,.0f}{r['simulate_ns_per_action']:>11.1f}"
            )
        for key, val in entry.get("extra", {}).items():
            lines.append(f"{'':<17}{key}: {val:,.1f}" if isinstance(val, (int, float)) else f"{'':<17}{key}: {val}")
    lines.append("  (loop: the same Python loop with no call, included in every figure)")
    if results["c_ratio"]:
        lines += [
            "",
            "simulate against the C loop (ns per action, CPU time, best of the rounds; median: the "
            "median of the rounds' ratios;",
            "fingerprint: |difference| in standard errors, length / seat-0 score)",
        ]
        lines.append(
            f"{'game':<17}{'players':>7}{'simulate':>10}{'C loop':>9}{'ratio':>7}{'median':>7}  "
            f"{'mean length sim / C':>24}{'seat 0 sim / C':>20}  fingerprint"
        )
        for name, per in results["c_ratio"].items():
            for n, e in per.items():
                if "c_ns_per_action" not in e:
                    lines.append(
                        f"{name:<17}{n:>7}{e['simulate_ns_per_action']:>10.1f}{'-':>9}{'-':>7}{'-':>7}  "
                        f"{e['simulate_mean_length']:>11.2f}{'':>13}{e['simulate_mean_score0']:>9.3f}"
                    )
                    continue
                z = "/".join("-" if v is None else f"{v:.1f}" for v in (e["length_z"], e["score0_z"]))
                lines.append(
                    f"{name:<17}{n:>7}{e['simulate_ns_per_action']:>10.1f}{e['c_ns_per_action']:>9.1f}"
                    f"{e['ratio']:>7.2f}{e.get('ratio_median', e['ratio']):>7.2f}  "
                    f"{e['simulate_mean_length']:>11.2f} / {e['c_mean_length']:<10.2f}"
                    f"{e['simulate_mean_score0']:>9.3f} / {e['c_mean_score0']:<8.3f}"
                    f"  {'ok' if e['fingerprint_ok'] else 'FAILED'} ({z})"
                )
    if results["threads"]:
        lines += ["", "Threads: simulate, games per second (wall clock, best of the rounds)"]
        lines.append(
            f"{'game':<17}{'players':>7}{'1 thread':>11}{'2 threads':>11}{'speedup':>9}"
            f"{'control':>11}{'speedup':>9}{'threads / control':>19}"
        )
        for name, e in results["threads"].items():
            lines.append(
                f"{name:<17}{e['players']:>7}{e['games_per_s_1_thread']:>11,.0f}"
                f"{e['games_per_s_2_threads']:>11,.0f}{e['threads_speedup']:>9.2f}"
                f"{e['control_games_per_s_2_processes']:>11,.0f}{e['control_speedup']:>9.2f}"
                f"{e['relative_to_control']:>19.2f}"
            )
        lines.append(
            "  (control: the single-threaded simulate in two processes at once; threads / control "
            "1.0 means the threads scale as far as the machine lets two processes)"
        )
    for note in results.get("notes", []):
        lines.append(note)
    return "\n".join(lines)


def _leaves(doc: Any, prefix: str = "") -> Dict[str, float]:
    """Every number of a result dict by its path (``games/m/compiled/clone_ns``)."""
    out: Dict[str, float] = {}
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.update(_leaves(v, f"{prefix}/{k}" if prefix else str(k)))
    elif isinstance(doc, (int, float)) and not isinstance(doc, bool) and math.isfinite(doc):
        out[prefix] = float(doc)
    return out


def compare_rows(new: Dict[str, Any], old: Dict[str, Any]) -> List[Tuple[str, float, float, float]]:
    """``(path, new, old, new / old)`` for every figure both runs have (the sections games,
    c_ratio and threads; not the machine nor the sizes)."""
    a = {k: v for s in ("games", "c_ratio", "threads") for k, v in _leaves(new.get(s, {}), s).items()}
    b = {k: v for s in ("games", "c_ratio", "threads") for k, v in _leaves(old.get(s, {}), s).items()}
    skip = ("/players", "/games_per_round", "/rounds", "/games", "/target")
    rows = []
    for path in sorted(set(a) & set(b)):
        if path.endswith(skip) or b[path] == 0:
            continue
        rows.append((path, a[path], b[path], a[path] / b[path]))
    return rows


def format_compare(rows: List[Tuple[str, float, float, float]], old_name: str) -> str:
    if not rows:
        return f"Compared with {old_name}: no figure in common"
    width = max(len(r[0]) for r in rows)
    lines = [
        f"Compared with {old_name} (new / old; for ns and seconds lower is faster, for rates and "
        "ratios higher is faster)",
        f"{'figure':<{width}}{'new':>14}{'old':>14}{'new/old':>9}",
    ]
    for path, a, b, q in rows:
        lines.append(f"{path:<{width}}{a:>14.4g}{b:>14.4g}{q:>9.3f}")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------
# the command


def _usage(message: str) -> int:
    sys.stderr.write(f"mousehole bench: error: {message} (see mousehole bench --help)\n")
    return EXIT_USAGE


def _clip_path(path: str) -> str:
    from ._values import clip

    return clip(path, 80)


def _read_compare(path: str) -> Any:
    """The JSON of an earlier run read from ``path`` (at most :data:`MAX_COMPARE_BYTES`
    bytes, nested at most ``_values.MAX_DEPTH`` deep, checked before parsing), or the
    message that says why not."""
    from ._values import read_json

    shown = _clip_path(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_COMPARE_BYTES + 1)  # (never more: /dev/zero, an endless pipe)
    except OSError as e:
        return f"argument --compare: cannot read {shown}: {e.strerror or e}"
    try:
        loaded = read_json(data, max_bytes=MAX_COMPARE_BYTES, what="a benchmark run's JSON")
    except ValueError as e:
        return f"argument --compare: {shown}: {e}"
    if not isinstance(loaded, dict) or not isinstance(loaded.get("games"), dict):
        return f"argument --compare: {shown} is not the JSON of a benchmark run"
    return loaded


def run(args: argparse.Namespace, extra: Optional[Callable[[str, bool], Dict[str, Any]]] = None) -> int:
    """Run ``mousehole bench`` with parsed options; returns the exit status."""
    old: Optional[Dict[str, Any]] = None
    if args.json is not None:
        folder = os.path.dirname(os.path.abspath(args.json))
        if os.path.isdir(args.json) or not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            return _usage(f"argument --json: cannot write {_clip_path(args.json)}")
    if args.compare is not None:
        loaded = _read_compare(args.compare)
        if isinstance(loaded, str):
            return _usage(loaded)
        old = loaded
    try:
        _plan(args)
    except ValueError as e:
        return _usage(str(e))
    try:
        results = measure(args, extra=extra, log=lambda text: print(text, file=sys.stderr, flush=True))
    except KeyboardInterrupt:
        sys.stdout.flush()
        sys.stderr.write("mousehole bench: interrupted\n")
        return EXIT_INTERRUPTED
    print(format_table(results), flush=True)
    if old is not None:
        print()
        print(format_compare(compare_rows(results, old), str(args.compare)), flush=True)
    if args.json is not None:
        try:
            with open(args.json, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(results, indent=2, sort_keys=True, allow_nan=False) + "\n")
        except OSError as e:
            sys.stderr.write(f"mousehole bench: error: cannot write {args.json}: {e.strerror}\n")
            return 1
    return EXIT_OK


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m mousehole.bench``: the same as ``mousehole bench``."""
    parser = argparse.ArgumentParser(
        prog="mousehole bench", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
