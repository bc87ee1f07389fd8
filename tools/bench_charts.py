"""Draw the benchmark charts of docs/benchmarks.md from ``benchmarks/results/*.json``.

    python tools/bench_charts.py                       # every result file -> docs/figures/bench/
    python tools/bench_charts.py --out /tmp/charts benchmarks/results/strength-2026-11-26.json

Two kinds of file are understood; anything else is skipped with one line on stderr:

* a run of ``mousehole bench --json`` (or of the earlier ``benchmarks/run.py``, which has
  the same ``games/<game>/<engine>/<figure>`` paths but no ``c_ratio``, ``threads`` or date).
  For a file ``NAME.json`` it writes

  - ``NAME-calls-<game>.png``: nanoseconds per call from Python, compiled engine against the
    reference, on a log scale (one chart per game, every call both engines measured);
  - ``NAME-simulate.png``: ``simulate`` games per second of each game (both engines, and two
    threads when measured), and, when the run has the C loops, the ratio of ``simulate`` to
    the plain-C player at every player count (beside each game's target where the run
    recorded one: runs from before ``mousehole bench`` stopped carrying targets, which
    ``docs/benchmarks.md`` now lists);

* a strength table of ``benchmarks/strength.py`` (``strength-*.json``): ``NAME.png``, the win
  rate of each bot against each opponent over the decided games, with its 95% interval, one
  panel per game, beside the share of wins an even player would get (1 / players).

Every chart is titled with the machine and the date of its run (from the file's ``machine``
entry, or the date in the file name for the earlier runs that lack it). The output is
deterministic: fixed sizes, matplotlib's default style whatever the local configuration,
no software or date stamp in the PNG, so a second run over the same files writes the same
bytes on the same matplotlib.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

import mousehole  # noqa: E402
from mousehole import _api  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
OUT = ROOT / "docs" / "figures" / "bench"

#: the game ids in the order the charts show them (the registry's), and their titles
GAME_NAMES = {name: _api._REGISTRY[name].title for name in mousehole.game_names()}
#: the per-call figures, in the order of the charts (those a run lacks are left out)
CALLS = [
    ("clone_ns", "clone()"),
    ("apply_action_ns", "apply_action(int)"),
    ("apply_action_np_ns", "apply_action(np.int64)"),
    ("is_chance_node_ns", "is_chance_node()"),
    ("current_player_ns", "current_player"),
    ("new_state_ns", "new_state(seed)"),
    ("legal_actions_ns", "legal_actions()"),
    ("legal_action_mask_ns", "legal_action_mask()"),
    ("legal_action_mask_out_ns", "legal_action_mask(out=)"),
    ("observation_ns", "observation(p)"),
    ("observation_out_ns", "observation(p, out=)"),
    ("to_dict_ns", "to_dict()"),
    ("state_from_dict_ns", "state_from_dict()"),
    ("determinize_view_ns", "determinize_view()"),
]
ENGINES = [("compiled", "compiled", "#8c510a"), ("python", "reference (pure Python)", "#80cdc1")]
#: PNG settings that keep repeated runs byte-identical
PNG = {"dpi": 100, "metadata": {"Software": None}}


class Unreadable(Exception):
    """A result file this script does not understand (the message says why)."""


def _order(names: Sequence[str]) -> List[str]:
    known = [g for g in GAME_NAMES if g in names]
    return known + sorted(g for g in names if g not in GAME_NAMES)


def _name(game: str) -> str:
    return GAME_NAMES.get(game, game)


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def subtitle(data: Dict[str, Any], path: Path) -> str:
    """The machine and date of a run, for the charts' titles (a run merged from parts, whose
    ``machine`` is a list with one entry a part, names each machine with the parts it played)."""
    m = data.get("machine")
    if isinstance(m, list) and m and all(isinstance(x, dict) for x in m):
        return _machines_subtitle(m)
    m = m if isinstance(m, dict) else {}
    date = m.get("date")
    if not isinstance(date, str):
        found = re.search(r"\d{4}-\d{2}-\d{2}", path.name)
        date = found.group(0) if found else "date not recorded"
    parts = []
    if m.get("cpu"):
        cores = f", {m['cores']} cores" if m.get("cores") else ""
        parts.append(f"{m['cpu']}{cores}")
    if m.get("python"):
        parts.append(f"Python {m['python']}")
    parts.append(date)
    if m.get("commit"):
        parts.append(f"commit {m['commit']}")
    if data.get("quick"):
        parts.append("quick run")
    return ", ".join(str(p) for p in parts)


def kind(data: Any) -> str:
    """``"bench"``, ``"strength"``, ``"readings"``, or raises :class:`Unreadable`."""
    if not isinstance(data, dict):
        raise Unreadable("not a JSON object")
    if data.get("kind") == "readings":
        res = data.get("results")
        if (
            isinstance(res, list)
            and res
            and all(
                isinstance(r, dict)
                and "game" in r
                and isinstance(r.get("random"), dict)
                and _is_number(r["random"].get("first_seat_win_rate"))
                for r in res
            )
        ):
            return "readings"
        raise Unreadable("'results' is not a list of readings lines (game, random.first_seat_win_rate)")
    rows = data.get("rows")
    if isinstance(rows, list):
        if rows and all(
            isinstance(r, dict) and _is_number(r.get("win_rate")) and "game" in r and "bot" in r for r in rows
        ):
            return "strength"
        raise Unreadable("'rows' is not a list of strength results (game, bot, win_rate)")
    games = data.get("games")
    if isinstance(games, dict) and games:
        for entry in games.values():
            if isinstance(entry, dict) and any(
                isinstance(entry.get(e), dict) and any(_is_number(entry[e].get(k)) for k, _ in CALLS)
                for e, _, _ in ENGINES
            ):
                return "bench"
        raise Unreadable("'games' holds no per-call figures (games/<game>/compiled|python/<call>_ns)")
    raise Unreadable("neither a benchmark run ('games') nor a strength table ('rows')")


# --------------------------------------------------------------------------------------
# drawing


def _save(fig: Figure, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", **PNG)  # type: ignore[arg-type]
    plt.close(fig)
    return path


def _fmt_ns(x: float) -> str:
    if x >= 1e6:
        return f"{x / 1e6:.3g} ms"
    if x >= 1e3:
        return f"{x / 1e3:.3g} us"
    return f"{x:.3g} ns"


def _fmt_rate(x: float) -> str:
    if x >= 1e6:
        return f"{x / 1e6:.3g} M"
    if x >= 1e3:
        return f"{x / 1e3:.3g} k"
    return f"{x:.3g}"


def calls_chart(game: str, entry: Dict[str, Any], sub: str, path: Path) -> Optional[Path]:
    """Nanoseconds per call, both engines, log scale (None when the game has no figure)."""
    engines = [(e, label, colour) for e, label, colour in ENGINES if isinstance(entry.get(e), dict)]
    rows = [
        (key, label)
        for key, label in CALLS
        if any(_is_number(entry[e].get(key)) and entry[e][key] > 0 for e, _, _ in engines)
    ]
    if not rows:
        return None
    height = 1.3 + 0.42 * len(rows) * max(1, len(engines)) / 2 + 0.3
    fig = plt.figure(figsize=(8.0, round(height, 1)))
    ax = fig.add_subplot(1, 1, 1)
    bar = 0.8 / len(engines)
    top = 1.0
    for j, (e, label, colour) in enumerate(engines):
        ys, xs = [], []
        for i, (key, _) in enumerate(rows):
            v = entry[e].get(key)
            if _is_number(v) and v > 0:
                ys.append(i + (j - (len(engines) - 1) / 2) * bar)
                xs.append(float(v))
        ax.barh(ys, xs, height=bar * 0.95, color=colour, label=label)
        for y, x in zip(ys, xs):
            ax.text(x * 1.08, y, _fmt_ns(x), va="center", fontsize=7)
        top = max([top] + xs)
    ax.set_xscale("log")
    ax.set_xlim(1.0, top * 30)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([label for _, label in rows])
    ax.invert_yaxis()
    ax.set_xlabel("nanoseconds per call from Python (log scale; lower is faster)")
    players = entry.get("players")
    who = f", {players} players" if isinstance(players, int) else ""
    ax.set_title(f"{_name(game)}{who}: one call on mid-game states\n{sub}", fontsize=10)
    ax.grid(axis="x", which="major", alpha=0.3)
    fig.legend(loc="lower center", ncol=len(engines), fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.35 / fig.get_figheight(), 1, 1))
    return _save(fig, path)


def simulate_chart(data: Dict[str, Any], sub: str, path: Path) -> Optional[Path]:
    """``simulate`` games per second per game; the C-loop ratios (beside their targets
    where the run recorded them)."""
    games = _order([g for g, e in data["games"].items() if isinstance(e, dict)])
    series = [
        ("compiled", "simulate_games_per_s", "compiled, 1 thread", "#8c510a"),
        ("compiled", "simulate_games_per_s_2_threads", "compiled, 2 threads", "#d8b365"),
        ("python", "simulate_games_per_s", "reference (pure Python)", "#80cdc1"),
    ]
    threads: Dict[str, Any] = data["threads"] if isinstance(data.get("threads"), dict) else {}

    def value(game: str, engine: str, key: str) -> Optional[float]:
        e = data["games"][game].get(engine)
        v: Any = e.get(key) if isinstance(e, dict) else None
        if v is None and key == "simulate_games_per_s_2_threads":
            t = threads.get(game)
            v = t.get("games_per_s_2_threads") if isinstance(t, dict) else None
        return float(v) if _is_number(v) and v > 0 else None

    series = [s for s in series if any(value(g, s[0], s[1]) is not None for g in games)]
    if not series:
        return None
    ratios: Dict[str, Any] = data["c_ratio"] if isinstance(data.get("c_ratio"), dict) else {}
    ratio_games = [
        g
        for g in _order(list(ratios))
        if isinstance(ratios[g], dict)
        and any(isinstance(e, dict) and _is_number(e.get("ratio")) for e in ratios[g].values())
    ]
    wide = bool(ratio_games)
    fig = plt.figure(figsize=(13.0 if wide else 8.0, 4.8))
    ax = fig.add_subplot(1, 2, 1) if wide else fig.add_subplot(1, 1, 1)
    bar = 0.8 / len(series)
    top = 1.0
    for j, (engine, key, label, colour) in enumerate(series):
        xs, hs = [], []
        for i, g in enumerate(games):
            v = value(g, engine, key)
            if v is not None:
                xs.append(i + (j - (len(series) - 1) / 2) * bar)
                hs.append(v)
        ax.bar(xs, hs, width=bar * 0.95, color=colour, label=label)
        for x, h in zip(xs, hs):
            ax.text(x, h * 1.1, _fmt_rate(h), ha="center", va="bottom", fontsize=7, rotation=90)
        top = max([top] + hs)
    ax.set_yscale("log")
    ax.set_ylim(1.0, top * 40)
    ax.set_xticks(range(len(games)))
    ax.set_xticklabels([_name(g) for g in games])
    players = data.get("players")
    who = f" ({players} players)" if isinstance(players, int) else ""
    ax.set_ylabel("random games per second (log scale)")
    ax.set_title(f"simulate: whole random games{who}", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper right", fontsize=8)
    if wide:
        rx = fig.add_subplot(1, 2, 2)
        counts = sorted({int(n) for g in ratio_games for n in ratios[g] if str(n).isdigit()})
        colours = plt.get_cmap("viridis")
        bar = 0.8 / max(1, len(counts))
        for j, n in enumerate(counts):
            xs, hs = [], []
            for i, g in enumerate(ratio_games):
                e = ratios[g].get(str(n))
                if isinstance(e, dict) and _is_number(e.get("ratio")):
                    xs.append(i + (j - (len(counts) - 1) / 2) * bar)
                    hs.append(float(e["ratio"]))
            rx.bar(xs, hs, width=bar * 0.95, color=colours(j / max(1, len(counts) - 1) * 0.85), label=f"{n} players")
        ticks = []
        for i, g in enumerate(ratio_games):
            target = next(
                (e.get("target") for e in ratios[g].values() if isinstance(e, dict) and _is_number(e.get("target"))),
                None,
            )
            ticks.append(_name(g) if target is None else f"{_name(g)}\n(target {target:g})")
            if target is not None:
                rx.plot(
                    [i - 0.45, i + 0.45],
                    [target, target],
                    color="#b2182b",
                    linestyle="--",
                    linewidth=1.5,
                    label="target" if i == 0 else None,
                )
        rx.axhline(1.0, color="gray", linewidth=0.8)
        rx.set_xticks(range(len(ratio_games)))
        rx.set_xticklabels(ticks)
        rx.set_ylim(0, 1.35)
        rx.set_ylabel("C loop ns per action / simulate ns per action")
        rx.set_title("simulate against a plain-C random player (1.0: as fast)", fontsize=10)
        rx.grid(axis="y", alpha=0.3)
        handles, labels = rx.get_legend_handles_labels()
        rx.legend(handles, labels, loc="upper right", fontsize=8, ncol=2)
    fig.suptitle(sub, fontsize=9)
    fig.tight_layout()
    return _save(fig, path)


def _machines_subtitle(machines: List[Dict[str, Any]]) -> str:
    """``"parts 1-4: Intel Xeon, 2 cores, 2026-11-28; parts 5-8: AMD EPYC, 2 cores, 2026-11-29"``."""
    groups: Dict[str, List[int]] = {}
    for i, m in enumerate(machines):
        where = ", ".join(
            str(x) for x in (m.get("cpu"), f"{m['cores']} cores" if m.get("cores") else None, m.get("date")) if x
        )
        groups.setdefault(where or "machine not recorded", []).append(i + 1)
    if len(groups) == 1:
        (where,) = groups
        return f"{len(machines)} parts: {where}"
    return "; ".join(f"parts {_spans(ks)}: {where}" for where, ks in groups.items())


def _spans(ks: List[int]) -> str:
    """``[1, 2, 3, 5]`` -> ``"1-3, 5"``."""
    out: List[str] = []
    start = prev = ks[0]
    for k in ks[1:] + [0]:
        if k != prev + 1:
            out.append(str(start) if start == prev else f"{start}-{prev}")
            start = k
        prev = k
    return ", ".join(out)


def strength_chart(data: Dict[str, Any], sub: str, path: Path) -> Path:
    """Win rates with 95% intervals, one panel per game."""
    rows = [r for r in data["rows"] if isinstance(r, dict)]
    games = _order(sorted({str(r["game"]) for r in rows}))
    cols = 2 if len(games) > 1 else 1
    lines = (len(games) + cols - 1) // cols
    fig = plt.figure(figsize=(12.0 if cols == 2 else 7.0, 3.9 * lines + 0.6))
    bots = list(dict.fromkeys(str(r["bot"]) for r in rows))
    palette = ["#01665e", "#8c510a", "#5ab4ac", "#d8b365", "#762a83", "#1b7837"]
    colour = {b: palette[i % len(palette)] for i, b in enumerate(bots)}
    for k, g in enumerate(games):
        ax = fig.add_subplot(lines, cols, k + 1)
        mine = [r for r in rows if str(r["game"]) == g]
        groups = sorted(
            {(int(r.get("players", 0)), str(r.get("opponent", "?"))) for r in mine},
            key=lambda t: (t[0], t[1] != "random", t[1]),
        )
        bar = 0.8 / len(bots)
        for j, b in enumerate(bots):
            xs, hs, lo, hi = [], [], [], []
            for i, grp in enumerate(groups):
                r = next(
                    (
                        r
                        for r in mine
                        if str(r["bot"]) == b and (int(r.get("players", 0)), str(r.get("opponent", "?"))) == grp
                    ),
                    None,
                )
                if r is None:
                    continue
                w = float(r["win_rate"])
                xs.append(i + (j - (len(bots) - 1) / 2) * bar)
                hs.append(w)
                ci = r.get("win_rate_95")
                if isinstance(ci, list) and len(ci) == 2 and all(_is_number(c) for c in ci):
                    lo.append(max(0.0, w - float(ci[0])))
                    hi.append(max(0.0, float(ci[1]) - w))
                else:
                    lo.append(0.0)
                    hi.append(0.0)
            ax.bar(
                xs,
                hs,
                width=bar * 0.95,
                color=colour[b],
                label=b,
                yerr=[lo, hi],
                capsize=3,
                error_kw={"elinewidth": 1, "ecolor": "black"},
            )
        for i, grp in enumerate(groups):
            share = next(
                (
                    r.get("even_share")
                    for r in mine
                    if (int(r.get("players", 0)), str(r.get("opponent", "?"))) == grp
                    and _is_number(r.get("even_share"))
                ),
                None,
            )
            if share is not None:
                ax.plot(
                    [i - 0.45, i + 0.45],
                    [share, share],
                    color="gray",
                    linestyle=":",
                    linewidth=1.5,
                    label="even share" if i == 0 else None,
                )
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels([f"{n} players\nvs {opp}" for n, opp in groups], fontsize=8)
        ax.set_ylim(0, 1.05)
        ax.set_ylabel("win rate of the search bot")
        ax.set_title(_name(g), fontsize=10)
        ax.grid(axis="y", alpha=0.3)
    # the legend from the colours, not from one panel's bars: a bot with no line in the first
    # game (Kater Kasimir's oracle) drew no bar there, whose handle had a default colour
    handles: List[Any] = [Patch(color=colour[b]) for b in bots]
    labels = list(bots)
    if any(_is_number(r.get("even_share")) for r in rows):
        handles.insert(0, Line2D([], [], color="gray", linestyle=":", linewidth=1.5))
        labels.insert(0, "even share")
    what = []
    if _is_number(data.get("iterations")):
        what.append(f"{data['iterations']} iterations a move")
    if _is_number(data.get("games_per_line")):
        what.append(f"{data['games_per_line']} games a bar")
    head = (
        "Search bots: one seat against players - 1 copies of the opponent, win rate over the decided games "
        "(95% Wilson interval)"
    )
    fig.suptitle(head + (f"; {', '.join(what)}" if what else "") + f"\n{sub}", fontsize=10)
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.5 / fig.get_figheight(), 1, 1))
    return _save(fig, path)


def ladder_chart(data: Dict[str, Any], sub: str, path: Path) -> Optional[Path]:
    """The rating ladder of ``benchmarks/strength.py`` (its ``ladders``): per game, every bot's
    openskill mu with the interval mu +- 2 sigma, strongest on top; None without a ladder."""
    ladders = [x for x in data.get("ladders") or [] if isinstance(x, dict) and isinstance(x.get("ratings"), list)]
    ladders = [
        x
        for x in ladders
        if x["ratings"]
        and all(isinstance(r, dict) and _is_number(r.get("mu")) and _is_number(r.get("sigma")) for r in x["ratings"])
    ]
    if not ladders:
        return None
    by_game = {str(x["game"]): x for x in ladders}
    games = _order(list(by_game))
    cols = 2 if len(games) > 1 else 1
    lines = (len(games) + cols - 1) // cols
    fig = plt.figure(figsize=(12.0 if cols == 2 else 7.0, 3.2 * lines + 0.8))
    for k, game in enumerate(games):
        ax = fig.add_subplot(lines, cols, k + 1)
        rated = sorted(by_game[game]["ratings"], key=lambda r: float(r["mu"]))
        ys = list(range(len(rated)))
        mus = [float(r["mu"]) for r in rated]
        err = [2.0 * float(r["sigma"]) for r in rated]
        ax.errorbar(mus, ys, xerr=err, fmt="o", color="#01665e", ecolor="#5ab4ac", capsize=3)
        ax.set_yticks(ys)
        ax.set_yticklabels([str(r["bot"]) for r in rated])
        ax.set_title(f"{_name(game)} (2 players, {by_game[game].get('games_per_pair', '?')} games a pair)")
        ax.set_xlabel("openskill mu, bars: mu +- 2 sigma")
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle("Rating ladder: round robin at a fixed time per move\n" + sub, fontsize=10)
    fig.tight_layout()
    return _save(fig, path)


def readings_chart(data: Dict[str, Any], sub: str, path: Path) -> Path:
    """Per game: the first seat's win rate (random games, with 95% intervals) and the mean game
    length, of every reading beside the default, by player count."""
    res = [r for r in data["results"] if isinstance(r, dict)]
    games = _order(sorted({str(r["game"]) for r in res}))
    fig = plt.figure(figsize=(12.0, 3.4 * len(games) + 0.8))
    palette = ["#444444", "#01665e", "#8c510a", "#5ab4ac", "#d8b365", "#762a83", "#1b7837", "#c51b7d", "#4d9221"]
    for k, g in enumerate(games):
        mine = [r for r in res if str(r["game"]) == g]
        counts = sorted({int(r["players"]) for r in mine})
        keys = list(dict.fromkeys("default" if r.get("param") is None else f"{r['param']}={r['value']}" for r in mine))
        bar = 0.84 / len(keys)
        # the default in grey beside the readings; alone (a --defaults-only run), in colour
        colours = palette if len(keys) > 1 else palette[1:]
        for col, (field, label) in enumerate(
            (("first_seat_win_rate", "first seat's win rate"), ("mean_length", "mean length (actions)"))
        ):
            ax = fig.add_subplot(len(games), 2, 2 * k + col + 1)
            for j, key in enumerate(keys):
                xs, hs, lo, hi = [], [], [], []
                for i, n in enumerate(counts):
                    r = next(
                        (
                            r
                            for r in mine
                            if int(r["players"]) == n
                            and key == ("default" if r.get("param") is None else f"{r['param']}={r['value']}")
                        ),
                        None,
                    )
                    if r is None:
                        continue
                    v = float(r["random"][field])
                    ci = r["random"].get("first_seat_win_95" if col == 0 else "mean_length_95")
                    xs.append(i + (j - (len(keys) - 1) / 2) * bar)
                    hs.append(v)
                    ok = isinstance(ci, list) and len(ci) == 2 and all(_is_number(c) for c in ci)
                    lo.append(max(0.0, v - float(ci[0])) if ok else 0.0)
                    hi.append(max(0.0, float(ci[1]) - v) if ok else 0.0)
                ax.bar(
                    xs,
                    hs,
                    width=bar * 0.95,
                    color=colours[j % len(colours)],
                    label=key,
                    yerr=[lo, hi],
                    capsize=2,
                    error_kw={"elinewidth": 0.8, "ecolor": "black"},
                )
            ax.set_xticks(range(len(counts)))
            ax.set_xticklabels([f"{n} players" for n in counts], fontsize=8)
            ax.set_ylabel(label, fontsize=8)
            ax.set_title(f"{_name(g)}: {label}", fontsize=9)
            ax.grid(axis="y", alpha=0.3)
            if col == 0:
                ax.set_ylim(0, 1.05)
            else:  # the lengths grow with the player count: room at the upper left
                ax.legend(fontsize=7, frameon=True, framealpha=0.85, loc="upper left")
    found = data.get("settings")
    st: Dict[str, Any] = found if isinstance(found, dict) else {}
    games_a_bar = f"{st['games']:,} random games a bar" if _is_number(st.get("games")) else "random games"
    fig.suptitle(f"What each reading changes: {games_a_bar} (95% intervals)\n{sub}", fontsize=10)
    fig.tight_layout()
    return _save(fig, path)


# --------------------------------------------------------------------------------------
# the script


def chart_file(path: Path, out: Path) -> List[Path]:
    """The charts of one result file (raises :class:`Unreadable`)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise Unreadable(f"not readable JSON ({e})") from e
    what = kind(data)
    sub = subtitle(data, path)
    stem = path.stem
    written: List[Path] = []
    with matplotlib.rc_context(matplotlib.rcParamsDefault):
        matplotlib.rcParams["svg.hashsalt"] = "mousehole"
        if what == "strength":
            written.append(strength_chart(data, sub, out / f"{stem}.png"))
            ladder = ladder_chart(data, sub, out / f"{stem}-ladder.png")
            if ladder is not None:
                written.append(ladder)
            return written
        if what == "readings":
            written.append(readings_chart(data, sub, out / f"{stem}.png"))
            return written
        for game in _order([g for g, e in data["games"].items() if isinstance(e, dict)]):
            p = calls_chart(game, data["games"][game], sub, out / f"{stem}-calls-{game}.png")
            if p is not None:
                written.append(p)
        p = simulate_chart(data, sub, out / f"{stem}-simulate.png")
        if p is not None:
            written.append(p)
    return written


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "files", nargs="*", type=Path, help=f"result files (default: every {RESULTS.relative_to(ROOT)}/*.json)"
    )
    ap.add_argument("--out", type=Path, default=OUT, help=f"folder of the PNGs (default: {OUT.relative_to(ROOT)})")
    args = ap.parse_args(argv)
    files = list(args.files) or sorted(RESULTS.glob("*.json"))
    if not files:
        print("bench_charts: no result files", file=sys.stderr)
        return 1
    total = 0
    for f in files:
        try:
            written = chart_file(f, args.out)
        except Unreadable as e:
            print(f"bench_charts: skipped {f}: {e}", file=sys.stderr)
            continue
        for p in written:
            print(p)
        total += len(written)
    return 0 if total else 1


if __name__ == "__main__":
    sys.exit(main())
