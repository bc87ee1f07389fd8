"""The ``mousehole`` command line (issue 9 item 5): subcommands, defaults in --help, one-line
usage errors with status 2, the simulate table and JSON, show with moves, Ctrl-C (130).

Most tests call ``mousehole.cli.main`` in-process; a few run ``python -m mousehole`` (the
same entry point as the ``mousehole`` script) to check what a shell sees.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from typing import Any, List

import pytest

import mousehole
from conftest import interruptible
from mousehole import cli
from mousehole._rng import Rng
from mousehole._simulate import simulate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMPILED = mousehole.default_engine() == "compiled"


def run(capsys: Any, *argv: str) -> Any:
    """main(argv) in-process: (status, stdout, stderr); SystemExit is turned into a status."""
    try:
        status = cli.main(list(argv))
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


def _subcommand_parsers() -> List[Any]:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return [parser] + [sub.choices[name] for name in cli.COMMANDS]


# --------------------------------------------------------------------------------------
# help and entry points


@pytest.mark.parametrize("command", [[], ["simulate"], ["show"], ["play"], ["arena"]])
def test_help_shows_every_option_with_its_default(capsys: Any, command: List[str]) -> None:
    status, out, err = run(capsys, *command, "--help")
    assert status == 0 and err == ""
    flat = " ".join(out.split())
    parser = cli.build_parser() if not command else _subcommand_parsers()[1 + list(cli.COMMANDS).index(command[0])]
    options = [a for a in parser._actions if a.dest not in ("help", "version", "command")]
    assert options or not command
    for action in options:
        assert action.help and "(default: " in action.help, action.dest
        assert " ".join(action.help.split()) in flat, action.dest
    if command == ["simulate"]:
        assert "(default: 100,000 with the compiled engine, 200 with the python engine)" in flat
        assert "(default: 1)" in flat
    if not command:
        assert all(name in out for name in ("simulate", "show", "play", "arena"))
    if command == ["arena"]:
        assert "number of players (default: the number of bots)" in flat
    if command in (["play"], ["arena"]):  # every spec the parser takes, node budget included
        from mousehole.bots import SPECS

        assert all(spec in flat for spec in SPECS) and ":nodes=NODES" in flat


def test_default_game_counts_suit_the_engine() -> None:
    assert cli.DEFAULT_GAMES == {"compiled": 100_000, "python": 200}


@pytest.mark.parametrize("engine", mousehole.available_engines())
def test_simulate_uses_the_engine_default_count(capsys: Any, engine: str) -> None:
    status, out, err = run(capsys, "simulate", "kasimir", "--engine", engine)  # ~1 s on either engine
    n = cli.DEFAULT_GAMES[engine]
    assert status == 0, err
    assert f"kasimir: 4 players, {engine} engine, seed 1: {n:,} games in " in out


def test_python_m_and_the_console_script_are_the_same_main() -> None:
    text = open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8").read()
    scripts = re.search(r"^\[project\.scripts\]\n(.*?)(?:\n\[|\Z)", text, re.S | re.M)
    assert scripts and re.search(r'^mousehole = "mousehole\.cli:main"$', scripts.group(1), re.M)
    assert re.search(r'^cli = \["rich>=13"\]$', text, re.M), "rich is the optional [cli] extra"
    main_py = open(os.path.join(os.path.dirname(cli.__file__), "__main__.py"), encoding="utf-8").read()
    assert "from .cli import main" in main_py and "sys.exit(main())" in main_py
    done = subprocess.run([sys.executable, "-m", "mousehole", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == f"mousehole {mousehole.__version__}"


def test_import_mousehole_loads_neither_the_cli_nor_rich() -> None:
    code = "import sys, mousehole; print([m for m in ('mousehole.cli', 'argparse', 'rich') if m in sys.modules])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# --------------------------------------------------------------------------------------
# bad values


BAD = [
    ([], "required: COMMAND"),
    (["frobnicate"], "invalid choice"),
    (["simulate"], "required: GAME"),
    (["simulate", "chess"], "unknown game 'chess'"),
    (["simulate", "m", "--players", "9"], "players must be an int from 2 to 6, got 9"),
    (["simulate", "kasimir", "--players", "6"], "players must be an int from 2 to 4, got 6"),
    (["simulate", "all", "--players", "9"], "no game allows 9 players"),
    (["simulate", "m", "--players", "two"], "argument --players: expected an integer"),
    (["simulate", "m", "--games", "-1"], "argument --games: must be from 0"),
    (["simulate", "m", "--games", "1e5"], "argument --games: expected an integer"),
    (["simulate", "m", "--threads", "0"], "argument --threads: must be from 1 to 256, got 0"),
    (["simulate", "m", "--threads", "20000"], "argument --threads: must be from 1 to 256, got 20000"),
    (["simulate", "m", "--seed", "-1"], "argument --seed: must be from 0 to 2**64-1, got -1"),
    (["simulate", "m", "--seed", str(2**64)], "argument --seed: must be from 0 to 2**64-1, got 18446744073709551616"),
    (
        ["simulate", "m", "--seed", "9" * 5000],
        "argument --seed: expected an integer of at most 40 characters, got 5,000 characters",
    ),
    (["show", "m", "--seed", "-5"], "argument --seed: must be from 0 to 2**64-1, got -5"),
    (["play", "m", "--seed", "1.5"], "argument --seed: expected an integer, got '1.5'"),
    (["play", "m", "--name", ""], "argument --name: must be 1 to 200 characters, got 0"),
    (["play", "m", "--name", "x" * 201], "argument --name: must be 1 to 200 characters, got 201"),
    (["show", "m", "--players", "1" * 100], "argument --players: expected an integer of at most 40 characters"),
    (["simulate", "m", "--seed", "x"], "argument --seed: expected an integer"),
    (["simulate", "m", "--engine", "fast"], "argument --engine: invalid choice"),
    (["simulate", "m", "--json", os.path.join(os.sep, "no", "such", "folder", "x.json")], "does not exist"),
    (["simulate", "m", "--frobnicate"], "unrecognized arguments"),
    (["show", "all"], "unknown game 'all'"),
    (["show", "m", "--players", "1"], "players must be an int from 2 to 6, got 1"),
    (["show", "cheese_rescue", "--moves", "teleport"], "argument --moves: move 1 ('teleport')"),
    (["show", "cheese_rescue", "--moves", "dog@0,0"], "argument --moves: move 1 ('dog@0,0')"),
    (["play", "m", "--players", "3", "--seat", "3"], "argument --seat: must be from 0 to 2 (3 players), got 3"),
    (["play", "m", "--players", "3", "--bots", "random,random,random"], "give 2 bots (the other seats"),
    (["play", "m", "--bots", "random,,greedy"], "argument --bots: expected bot specs separated by commas"),
    (["play", "m", "--bots", "mcts:many"], "argument --bots: bot 1 ('mcts:many'): bad bot spec 'mcts:many'"),
    (["play", "chess"], "unknown game 'chess'"),
    (["arena", "m"], "the following arguments are required: --bots"),
    (["arena", "m", "--bots", "random"], "argument --bots: m is for 2 to 6 players, one bot each; got 1 bot"),
    (["arena", "kasimir", "--bots", "random,random,random,random,random"], "kasimir is for 2 to 4 players"),
    (["arena", "kasimir", "--bots", "random,random", "--players", "5"], "argument --bots: 5 players need 5 bots"),
    (["arena", "kasimir", "--bots", "random", "--players", "1"], "players must be an int from 2 to 4, got 1"),
    (["arena", "m", "--bots", "random,random", "--players", "3"], "3 players need 3 bots, got 2"),
    (["arena", "kasimir", "--bots", "random,wizard"], "argument --bots: bot 2 ('wizard'): unknown bot spec"),
    (["arena", "m", "--bots", "random,random", "--games", "0"], "argument --games: must be from 1 to 2**53, got 0"),
    (["arena", "m", "--bots", "random,random", "--workers", "0"], "argument --workers: must be from 1 to 256, got 0"),
    (["arena", "m", "--bots", "random,random", "--workers", "257"], "argument --workers: must be from 1 to 256"),
    (["arena", "m", "--bots", "random,random", "--seed", "-1"], "argument --seed: must be from 0 to 2**64-1"),
    (
        ["arena", "m", "--bots", "random,random", "--workers", "2", "--dask", "tcp://127.0.0.1:1"],
        "argument --workers: not allowed with --dask",
    ),
    (
        ["arena", "m", "--bots", "random,random", "--records", os.path.join(os.sep, "no", "such", "dir", "r.json")],
        "argument --records: the folder",
    ),
]


@pytest.mark.parametrize("argv, message", BAD)
def test_bad_values_exit_2_with_one_line(capsys: Any, argv: List[str], message: str) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert len(err.splitlines()) == 1 and err.endswith("\n"), err
    assert err.startswith("mousehole") and ": error: " in err and message in err, err
    assert "Traceback" not in err


def test_an_illegal_move_in_a_legal_notation_is_a_usage_error(capsys: Any) -> None:
    state = mousehole.load("cheese_rescue", players=2).new_state(seed=4)
    first = state.describe(int(state.legal_actions()[0]))
    state.apply_action(int(state.legal_actions()[0]))
    legal = {state.describe(int(a)) for a in state.legal_actions()}
    taken = first  # the same card on the same cell again: no longer legal
    assert taken not in legal
    status, out, err = run(
        capsys, "show", "cheese_rescue", "--players", "2", "--seed", "4", "--moves", f"{first}; {taken}"
    )
    assert status == 2 and len(err.splitlines()) == 1 and f"move 2 ({taken!r})" in err, err


def test_a_shell_sees_status_2_and_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mousehole", "simulate", "all", "--players", "6", "--games", "-5"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "mousehole simulate: error: argument --games: must be from 0 to 2**53, got -5 (see mousehole simulate --help)"
    ]


# --------------------------------------------------------------------------------------
# simulate


def _no_nan(text: str) -> None:
    assert not re.search(r"\bnan\b|\binf\b", text, re.I), text


def test_simulate_all_with_six_players_skips_and_tabulates(capsys: Any, tmp_path: Any) -> None:
    n = 300 if COMPILED else 3
    path = tmp_path / "out.json"
    status, out, err = run(
        capsys,
        "simulate",
        "all",
        "--players",
        "6",
        "--games",
        str(n),
        "--seed",
        "2",
        "--threads",
        "2",
        "--json",
        str(path),
    )
    assert status == 0, err
    assert "cheese_rescue: skipped, it is for 2 to 4 players" in out
    assert "kasimir: skipped, it is for 2 to 4 players" in out
    _no_nan(out)
    doc = json.loads(path.read_text(), parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    assert [r["game"] for r in doc["results"]] == ["m", "maus_au_chocolat"]
    assert [s["game"] for s in doc["skipped"]] == ["cheese_rescue", "kasimir"]
    for r in doc["results"]:
        s = simulate(mousehole.load(r["game"], players=6), n, seed=2, aggregate=True)
        assert r["n_games"] == n and r["players"] == 6 and r["seed"] == 2
        assert r["length_hist"] == list(s.length_hist) and r["truncated"] == s.truncated
        assert r["mean_length"] == s.mean_length
        head = f"{r['game']}: 6 players, {r['engine']} engine, seed 2: {n:,} games in "
        assert head in out
        block = out[out.index(head) :].split("\n")
        assert block[1].split() == ["seat", "mean", "score", "std", "error", "win", "rate", "95%", "interval"]
        for p, seat in enumerate(r["seats"]):
            assert seat["mean_score"] == s.mean_score[p] and seat["score_stderr"] == s.score_stderr[p]
            assert seat["wins"] == s.wins[p] and seat["win_rate"] == s.win_rates()[p]
            assert seat["win_rate_95"] == list(s.win_intervals()[p])
            lo, hi = seat["win_rate_95"]
            row = block[2 + p].split()
            assert row == [
                str(p),
                f"{s.mean_score[p]:.3f}",
                f"{s.score_stderr[p]:.3f}",
                f"{s.win_rates()[p]:.4f}",
                f"{lo:.4f}-{hi:.4f}",
            ]
        assert block[8].startswith(f"  mean length {s.mean_length:.2f} actions")
        assert r["games_per_second"] > 0


def test_simulate_zero_games_prints_no_nan(capsys: Any, tmp_path: Any) -> None:
    path = tmp_path / "zero.json"
    status, out, err = run(capsys, "simulate", "all", "--games", "0", "--json", str(path))
    assert status == 0, err
    _no_nan(out)
    assert out.count(": 0 games in ") == 4
    doc = json.loads(path.read_text(), parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    assert all(r["n_games"] == 0 and r["length_hist"] == [] for r in doc["results"])


def test_progress_without_a_terminal_is_plain_lines(capsys: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(cli, "LOG_EVERY", 0.0)
    n = 20_000 if COMPILED else 20
    status, out, err = run(capsys, "simulate", "maus_au_chocolat", "--games", str(n))
    assert status == 0
    lines = err.splitlines()
    assert lines[0] == f"maus_au_chocolat (4p, {mousehole.default_engine()}): {n:,} games started"
    assert all(re.fullmatch(r"maus_au_chocolat \(4p, \w+\): [\d,]+/[\d,]+ games \(\d+%\)", x) for x in lines[1:])
    assert len(lines) >= 2, "periodic lines while the run goes on"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("with_rich", [True, False])
def test_progress_on_a_terminal(monkeypatch: Any, capsys: Any, with_rich: bool) -> None:
    """A rich bar when rich imports, else one line rewritten in place; either way the table
    goes to stdout and the progress display is cleared at the end."""
    if with_rich:
        import rich  # noqa: F401  (the test extra installs it)
    else:
        for module in ("rich", "rich.console", "rich.progress"):
            monkeypatch.setitem(sys.modules, module, None)  # import -> ImportError
    term = _Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    n = 50_000 if COMPILED else 40
    assert cli.main(["simulate", "kasimir", "--games", str(n)]) == 0
    shown = term.getvalue()
    assert "started" not in shown
    if with_rich:
        assert "kasimir (4p" in shown and "games" in shown
    else:
        assert re.search(r"\rkasimir \(4p, \w+\): [\d,]+/[\d,]+ games \(\d+%\), [\d,]+ games/s", shown)
        assert shown.endswith("\r\x1b[K")
    assert f"{n:,} games in " in capsys.readouterr().out


@pytest.mark.sigint
def test_ctrl_c_exits_130_with_one_line() -> None:
    child = interruptible(
        [sys.executable, "-m", "mousehole", "simulate", "m", "--players", "6", "--games", "100000000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stderr is not None
        first = child.stderr.readline()
        assert first.endswith("100,000,000 games started\n"), first
        time.sleep(0.5)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
        latency = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    print(f"\nCLI Ctrl-C: exit after {latency * 1000:.1f} ms")
    assert child.returncode == 130
    assert out == ""
    assert re.fullmatch(r"interrupted after [\d,]+ games? of m\n", err), err
    assert latency < 2.0


# --------------------------------------------------------------------------------------
# show


@pytest.mark.parametrize("name", mousehole.game_names())
def test_show_plays_the_moves_given_in_readable_notation(capsys: Any, engine: str, name: str) -> None:
    game = mousehole.load(name, engine=engine)
    state = game.new_state(seed=3)
    rng = Rng(17)
    texts = []
    for _ in range(6):
        legal = state.legal_actions()
        a = int(legal[rng.below(len(legal))])
        texts.append(state.describe(a))
        state.apply_action(a)
    status, out, err = run(
        capsys, "show", name, "--seed", "3", "--engine", engine, "--moves", "; ".join(texts), "--legal"
    )
    assert status == 0, err
    assert out.startswith(f"{name}, 4 players, {engine} engine, seed 3; after 6 moves\n")
    for i, text in enumerate(texts, 1):
        assert re.search(rf"^  {i}\. (seat \d|chance): {re.escape(text)}$", out, re.M), text
    assert str(state) in out
    legal = [state.describe(int(a)) for a in state.legal_actions()]
    listing = out[out.index("legal moves of ") :].splitlines()
    assert listing[1:] == [f"  {t}" for t in legal]


def test_show_a_finished_game(capsys: Any) -> None:
    state = mousehole.load("cheese_rescue", players=2).new_state(seed=9)
    texts = []
    while not state.is_terminal():
        a = int(state.legal_actions()[-1])
        texts.append(state.describe(a))
        state.apply_action(a)
    status, out, err = run(
        capsys, "show", "cheese_rescue", "--players", "2", "--seed", "9", "--moves", ";".join(texts), "--legal"
    )
    assert status == 0, err
    assert f"game over: scores {state.scores()}, winners {state.winners()}" in out
    status, out, err = run(
        capsys, "show", "cheese_rescue", "--players", "2", "--seed", "9", "--moves", ";".join(texts + [texts[-1]])
    )
    assert status == 2 and "the game is already over" in err and len(err.splitlines()) == 1


# --------------------------------------------------------------------------------------
# play


class _Person(io.StringIO):
    """stdin of a person who types 'help' at each prompt, then the first legal move listed
    (read from what the command printed); it remembers every line typed."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out = out
        self.seen = 0
        self.typed: List[str] = []

    def readline(self, *args: Any) -> str:  # type: ignore[override]
        new = self.out.getvalue()[self.seen :]
        self.seen = len(self.out.getvalue())
        if not self.typed or self.typed[-1] != "help":
            line = "help"
        else:
            line = new.split("your legal moves (")[1].splitlines()[1].strip()
        self.typed.append(line)
        return line + "\n"


def _play_in_process(monkeypatch: Any, argv: List[str]) -> Any:
    out = io.StringIO()
    person = _Person(out)
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", person)
    status = cli.main(argv)
    monkeypatch.undo()
    return status, out.getvalue(), person.typed


@pytest.mark.parametrize("name", mousehole.game_names())
def test_play_a_whole_game_against_bots(monkeypatch: Any, engine: str, name: str, tmp_path: Any) -> None:
    from mousehole import records

    players = 2 if name != "m" else 3
    path = tmp_path / "game.json"
    argv = [
        "play",
        name,
        "--players",
        str(players),
        "--seat",
        "1",
        "--bots",
        "random" if name != "m" else "greedy,random",
        "--seed",
        "4",
        "--engine",
        engine,
        "--record",
        str(path),
        "--watch",
    ]
    status, out, typed = _play_in_process(monkeypatch, argv)
    assert status == 0, out
    lines = out.splitlines()
    others = ", ".join(f"seat {s}: {b}" for s, b in zip([0, 2], ["random"] if name != "m" else ["greedy", "random"]))
    assert lines[0] == f"{name}, {players} players, {engine} engine, seed 4; you are seat 1; {others}"
    assert lines[-1] == f"record written to {path}"
    # the moves the command printed are the record's moves (a bot's face-down bid in Maus au
    # Chocolat excepted: MC-7), and the record replays to the end the command announced; a
    # move's line names its seat once ("seat 1 (you): 12+5", "seat 1 (you) bids ...")
    rec = records.loads(path.read_text(encoding="utf-8"), engine=engine)
    moves = [
        (who, f"{who.split(' (')[0]} {rest}" if sep == " " else rest)
        for who, sep, rest in re.findall(
            r"^(seat \d \((?:you|greedy|random)\)|chance)(: | )(.+)$", out[: out.index("game over")], re.M
        )
        if rest != "cannot move and skips the turn"
    ]  # (a skipped turn, KK-10: no action)
    assert len(moves) == len(rec.actions), out
    mine = iter(t for t in typed if t != "help")
    state = rec.initial_state(engine=engine)
    for (who, text), a, move in zip(moves, rec.actions, rec.moves):
        if who != "chance":
            assert int(who.split()[1]) == state.current_player
            if who.endswith("(you)"):  # typed, or the only legal move, played for the person
                assert text == (next(mine) if len(state.legal_actions()) > 1 else move) == move
        if who.endswith("(you)") or who == "chance":
            assert text == move
            assert state.parse_action(text) == a
        else:  # another seat's move as seat 1 sees it (MC-7, M-9, M-22)
            assert text == state.describe(a, for_player=1)
            if state.game.INFORMATION == "perfect":  # nothing to hide: the move's own notation
                assert text == move
        state.apply_action(a)
    assert state.is_terminal()
    verdict = "you won" if state.winners() == [1] else "you share the win" if 1 in state.winners() else "you lost"
    assert lines[-2].endswith(f": {verdict}")
    end = lines.index(f"game over after {len(state.history)} actions: {state.game.end_reason(state)}")
    assert lines[end + 1] == f"scores: {type(state.game).SCORE}"
    kind = ["you" if p == 1 else "greedy" if p == 0 and name == "m" else "random" for p in range(players)]
    assert lines[end + 2 : end + 2 + players] == [
        f"  seat {p} ({kind[p]}): {b}" for p, b in enumerate(state.game.score_breakdown(state))
    ]
    assert out.count("seat 1, your move> ") == len(typed)
    # the help listings are the legal moves, in the game's notation
    assert re.search(r"your legal moves \(\d+\):\n  \S", out)


def test_play_by_piping_stdin_prints_what_an_interactive_game_prints(monkeypatch: Any) -> None:
    argv = ["play", "cheese_rescue", "--players", "2", "--seat", "0", "--bots", "greedy", "--seed", "2"]
    status, out, typed = _play_in_process(monkeypatch, argv)
    assert status == 0
    done = subprocess.run(
        [sys.executable, "-m", "mousehole", *argv],
        input="".join(t + "\n" for t in typed),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == out


def test_play_reprompts_on_bad_input_and_quits(capsys: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\nteleport\ndog@0,0\nQUIT\n"))
    status, out, err = run(capsys, "play", "cheese_rescue", "--players", "2")
    assert status == 0 and err == ""
    assert out.count("seat 0, your move> ") == 4
    assert "not a move you can play now: not a Cheese Rescue move: 'teleport'" in out
    assert re.search(r"not a move you can play now: CR-\d+: .*; type 'moves' for the legal moves", out)
    # no --seed: a fresh secret one, named only once the game is left
    assert out.startswith("cheese_rescue, 2 players, ") and "a secret seed (printed at the end); you are seat 0" in out
    left, seed_line = out.rstrip().splitlines()[-2:]
    assert left == "you left the game"
    seed = int(re.fullmatch(r"the seed of this game was (\d+)", seed_line).group(1))  # type: ignore[union-attr]
    assert 0 <= seed < 2**64 and str(seed) not in out[: out.index("you left the game")]


def test_play_at_the_end_of_the_input_leaves_with_status_1() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mousehole", "play", "kasimir", "--players", "2"],
        input="help\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stderr == "end of input: the game is left unfinished\n"
    assert "your legal moves (" in done.stdout


@pytest.mark.parametrize("name", mousehole.game_names())
def test_play_shows_only_what_the_seat_sees(engine: str, name: str) -> None:
    """The position shown to seat K depends on K's view alone: the same text for the true
    state and for any state K cannot tell apart from it (a determinization of its view)."""
    game = mousehole.load(name, players=3, engine=engine)
    state = game.new_state(seed=8)
    rng = Rng(5)
    for step in range(30):
        if state.is_terminal():
            break
        if step % 5 == 0:
            for seat in range(3):
                text = cli._view_text(state, seat)
                assert "rng" not in text
                for j in range(3):
                    assert cli._view_text(state.determinize(seat, j), seat) == text, (name, step, seat)
        legal = state.legal_actions()
        state.apply_action(int(legal[rng.below(len(legal))]))


# --------------------------------------------------------------------------------------
# arena


def test_arena_prints_the_table_and_writes_json(capsys: Any, tmp_path: Any) -> None:
    from mousehole.arena import play

    figures, records = tmp_path / "arena.json", tmp_path / "records.json"
    n = 6 if COMPILED else 2
    status, out, err = run(
        capsys,
        "arena",
        "m",
        "--bots",
        "greedy,random,random",
        "--games",
        str(n),
        "--seed",
        "3",
        "--json",
        str(figures),
        "--records",
        str(records),
    )
    assert status == 0, err
    expected = play(mousehole.load("m", players=3), ["greedy", "random", "random"], n, seed=3, records=True)
    assert out.startswith(expected.table(times=False) + "\n")  # then the time each bot used
    assert re.search(rf"^  {n} games in [\d.]+ s on this process$", out, re.M)
    doc = json.loads(figures.read_text())

    def untimed(bots: Any) -> Any:
        return [{k: v for k, v in b.items() if k not in ("seconds", "seconds_per_move")} for b in bots]

    assert doc["command"] == "arena" and untimed(doc["bots"]) == untimed(expected.to_dict()["bots"])
    assert all(b["moves"] > 0 and b["seconds"] > 0 for b in doc["bots"])
    assert doc["ratings"] == expected.to_dict()["ratings"]
    assert json.loads(records.read_text()) == expected.records
    assert err.splitlines()[0] == f"m (3p, greedy vs random vs random): {n} games started"


def test_arena_on_worker_processes_gives_the_same_table(capsys: Any) -> None:
    argv = ["arena", "kasimir", "--bots", "random,greedy", "--games", "8", "--seed", "5"]
    status, here, err = run(capsys, *argv)
    assert status == 0, err
    status, pooled, err = run(capsys, *argv, "--workers", "2")
    assert status == 0, err
    # the same table but for its last lines: the time each bot used (3 lines) and the run's
    assert pooled.splitlines()[:-4] == here.splitlines()[:-4]
    assert pooled.splitlines()[-4] == here.splitlines()[-4] and "time used" in here.splitlines()[-4]
    assert pooled.splitlines()[-1].endswith("on 2 worker processes")


def _arena_ctrl_c(env: Any = None) -> Any:
    """``mousehole arena`` on 2 worker processes, interrupted by SIGINT one second after its
    first line: its exit status, stdout, stderr and the seconds it took to exit."""
    child = interruptible(
        [
            sys.executable,
            "-m",
            "mousehole",
            "arena",
            "m",
            "--bots",
            "mcts:3000,mcts:3000",
            "--games",
            "100000",
            "--workers",
            "2",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert child.stderr is not None
        first = child.stderr.readline()
        assert first.endswith("100,000 games started\n"), first
        time.sleep(1.0)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
        latency = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return child.returncode, out, err, latency


@pytest.mark.sigint
def test_arena_ctrl_c_exits_130_with_one_line() -> None:
    status, out, err, latency = _arena_ctrl_c()
    assert status == 130, err
    assert out == ""
    assert re.fullmatch(r"interrupted after [\d,]+ games? of 100,000\n", err), err
    assert latency < 10.0


#: a ``sitecustomize`` that widens a window of CPython's process pools: at exit, the wake-up
#: of a pool's manager thread checks that its pipe is open, then writes to it, while the
#: manager, if still ending, closes the pipe. A pause between the two makes a manager still
#: ending at exit close the pipe in between every time.
_SLOW_WAKEUP = """
import time
from concurrent.futures import process

def _wakeup(self):
    if not self._closed:
        time.sleep(0.3)
        self._writer.send_bytes(b"")

process._ThreadWakeup.wakeup = _wakeup
"""


@pytest.mark.sigint
def test_arena_ctrl_c_waits_for_the_pool_manager(tmp_path: Any) -> None:
    """After Ctrl-C the command lets the pool's manager thread end before it exits, so that
    CPython's exit hook cannot race it and print "OSError: Bad file descriptor" (seen once in
    a CI run) after the one line: with the window widened, the line stays alone."""
    (tmp_path / "sitecustomize.py").write_text(_SLOW_WAKEUP)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    status, out, err, _ = _arena_ctrl_c(env)
    assert status == 130, err
    assert out == ""
    assert re.fullmatch(r"interrupted after [\d,]+ games? of 100,000\n", err), err


def test_play_does_not_name_a_bots_face_down_bid(monkeypatch: Any) -> None:
    """MC-7: the bots' bids are laid face down; the person must not read them before bidding."""
    argv = ["play", "maus_au_chocolat", "--players", "3", "--seat", "2", "--bots", "random", "--seed", "3"]
    status, out, typed = _play_in_process(monkeypatch, argv)
    assert status == 0, out
    first_prompt = out.index("seat 2, your move> ")
    before = out[:first_prompt]
    assert re.search(r"seat [01] \(random\) bids face down", before)
    assert not re.search(r"seat [01] \(random\) bids (?!face down)", before)


@pytest.mark.parametrize(
    "args, message",
    [
        (["show", "m", "--param", "max_turns"], "expected NAME=VALUE"),
        (["show", "m", "--param", "=5"], "expected NAME=VALUE"),
        (["show", "m", "--param", "players=3"], "use --players"),
        (["show", "m", "--param", "engine=python"], "use --engine"),
        (["show", "m", "--param", "max_turns=5", "--param", "max_turns=6"], "max_turns is given twice"),
        (["show", "m", "--param", "no_such=1"], "unknown parameter(s) no_such"),
        (["simulate", "m", "--param", "max_turns=-1"], "max_turns must be"),
        (["simulate", "all", "--param", "no_such=1"], "no game has the parameter(s) no_such"),
        (["show", "m", "--param", "x=" + "1" * 20_000], "at most 10,000 characters"),
    ],
)
def test_param_errors_are_one_line(capsys: Any, args: List[str], message: str) -> None:
    status, _, err = run(capsys, *args)
    assert status == 2, err
    assert message in err and len(err.splitlines()) == 1, err


def test_param_values_are_json_or_text(capsys: Any) -> None:
    """``--param max_turns=7`` is the int 7 (JSON); a simulate of every game skips the games
    without the parameter and says so."""
    status, out, err = run(capsys, "simulate", "m", "--games", "30", "--param", "max_turns=7")
    assert status == 0 and "longest 7)" in out, err
    status, out, err = run(capsys, "simulate", "all", "--games", "5", "--param", "explicit_chance=true")
    assert status == 0, err
    assert "m: skipped, it has no parameter explicit_chance" in out
    assert "kasimir: 4 players" in out


@pytest.mark.parametrize("name", mousehole.game_names())
def test_rules_prints_the_readings_and_the_other_parameters(capsys: Any, name: str) -> None:
    status, out, err = run(capsys, "rules", name)
    assert status == 0, err
    cls = type(mousehole.load(name, engine="python"))
    assert out.startswith(f"{cls.title}: readings of the rules")
    assert "other parameters (defaults): players=4" in out


@pytest.mark.parametrize("name", mousehole.game_names())
def test_simulate_table_has_a_legend(capsys: Any, name: str) -> None:
    """Under the table: what a score is in the game (``Game.SCORE``) and why the win rates
    may add up to more than 1 (shared wins) or add up to 1 (one winner a game)."""
    status, out, err = run(capsys, "simulate", name, "--games", "50")
    assert status == 0, err
    cls = type(mousehole.load(name, engine="python"))
    assert cls.SCORE and f"  score: {cls.SCORE}\n" in out
    line = next(x for x in out.splitlines() if x.startswith("  win rate: "))
    assert ("add up to 1" in line) == cls.SINGLE_WINNER and ("more than 1" in line) != cls.SINGLE_WINNER


# --------------------------------------------------------------------------------------
# time per move and levels (issue 26)


def test_play_level_and_time_choose_the_bots(capsys: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    status, out, err = run(
        capsys, "play", "kasimir", "--players", "3", "--seat", "2", "--level", "hard", "--time", "0.01", "--seed", "5"
    )
    assert status == 0, err
    assert out.splitlines()[0].endswith("you are seat 2; seat 0: strong:0.01s, seat 1: strong:0.01s")
    for level, spec in (("easy", "greedy"), ("medium", f"ismcts:{cli.LEVEL_SECONDS!r}s")):
        monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
        status, out, err = run(
            capsys, "play", "cheese_rescue", "--players", "2", "--seat", "1", "--level", level, "--seed", "5"
        )
        assert status == 0, err
        assert out.splitlines()[0].endswith(f"you are seat 1; seat 0: {spec}")
    # --time gives a budget to the search bots named without one, and to no other
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    status, out, err = run(
        capsys,
        "play",
        "m",
        "--players",
        "4",
        "--seat",
        "0",
        "--bots",
        "mcts,greedy,ismcts:7",
        "--time",
        "0.5",
        "--seed",
        "5",
    )
    assert status == 0, err
    assert out.splitlines()[0].endswith("seat 1: mcts:0.5s, seat 2: greedy, seat 3: ismcts:7")


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--level", "expert"], "invalid choice: 'expert'"),
        (["--level", "easy", "--bots", "random"], "--level: not allowed with --bots"),
        (["--time", "0"], "--time: expected seconds per move"),
        (["--time", "-1"], "--time: expected seconds per move"),
        (["--time", "nan"], "--time: expected seconds per move"),
        (["--time", "1e9"], "--time: expected seconds per move"),
        (["--time", "fast"], "--time: expected seconds per move"),
    ],
)
def test_play_refuses_bad_levels_and_times(capsys: Any, argv: List[str], words: str) -> None:
    status, out, err = run(capsys, "play", "cheese_rescue", "--players", "2", "--seed", "1", *argv)
    assert status == 2 and words in err, err
    assert out == ""


def test_arena_time_budgets_and_times_used(capsys: Any, tmp_path: Any) -> None:
    figures = tmp_path / "arena.json"
    status, out, err = run(
        capsys,
        "arena",
        "kasimir",
        "--bots",
        "strong,greedy",
        "--time",
        "0.002",
        "--games",
        "2",
        "--seed",
        "3",
        "--json",
        str(figures),
    )
    assert status == 0, err
    assert "kasimir (2p, strong:0.002s vs greedy)" in err or "strong:0.002s" in out
    lines = out.splitlines()
    head = next(i for i, x in enumerate(lines) if x.strip().startswith("time used"))
    assert lines[head].split()[2:] == ["moves", "seconds", "ms/move"]
    rows = {x.split()[0]: x.split()[1:] for x in lines[head + 1 : head + 3]}
    assert set(rows) == {"strong:0.002s", "greedy"} and all(int(r[0]) > 0 for r in rows.values())
    doc = json.loads(figures.read_text())
    strong = next(b for b in doc["bots"] if b["name"] == "strong:0.002s")
    assert strong["moves"] == int(rows["strong:0.002s"][0]) and strong["seconds"] > 0
    assert strong["seconds_per_move"] == pytest.approx(strong["seconds"] / strong["moves"])
    status, out, err = run(capsys, "arena", "kasimir", "--bots", "strong,greedy", "--time", "0", "--games", "2")
    assert status == 2 and "--time: expected seconds per move" in err
