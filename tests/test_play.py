"""``mousehole play`` that respects the player (issue 39, item 3).

* A forced move (one legal move) is played for the person, shown, with a pause that Enter
  skips (``--forced play``, the default) or offered at the prompt, where Enter plays it
  (``--forced ask``); an empty line with several legal moves says what to type. The pause
  waits only on a terminal, and never after a bot's move.
* The game stops when the person's result can no longer change (``Game.settled``, sound:
  random continuations agree with it; read from the person's view only), says why, and
  ``--watch`` plays on to the end.
* The end names why the game ended in words (``Game.end_reason``, which the pictures' footers
  show too) and each seat's score breakdown (``Game.score_breakdown``, public facts only).
* Every game's text board has a legend; ``help`` explains the game's rules
  (``Game.play_help``): Maus au Chocolat's helpers and the pick order, which its board shows.
* A move's line names its seat once (``seat 0 (you) bids ...``).

Most tests call ``mousehole.cli.main`` in-process with a scripted person on stdin; one runs
``python -m mousehole play`` in a pseudo-terminal, as a person at a terminal meets it.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

import pytest

import mousehole
from gamecases import profile, scale
from mousehole import _play, cli
from mousehole._rng import Rng, derive
from test_cli import run

GAMES = mousehole.game_names()


class _Person(io.StringIO):
    """stdin of a person who, at each prompt, asks for the legal moves ('moves') and types the
    first one listed; at a prompt that offers the only move it presses Enter. It remembers
    every line typed and every prompt answered."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out = out
        self.typed: List[str] = []
        self.prompts: List[str] = []

    def readline(self, *args: Any) -> str:  # type: ignore[override]
        text = self.out.getvalue()
        self.prompts.append(text[text.rfind("\n") + 1 :])
        if self.prompts[-1].endswith("Enter plays it> "):
            line = ""
        elif not self.typed or self.typed[-1] != "moves":
            line = "moves"
        else:
            line = text[text.rindex("your legal moves (") :].splitlines()[1].strip()
        self.typed.append(line)
        return line + "\n"


def _play_in_process(monkeypatch: Any, argv: List[str]) -> Tuple[int, str, _Person]:
    """``cli.main(argv)`` with :class:`_Person` on stdin: the status, the output, the person."""
    out = io.StringIO()
    person = _Person(out)
    with monkeypatch.context() as patch, contextlib.redirect_stdout(out):
        patch.setattr(sys, "stdin", person)
        return cli.main(argv), out.getvalue(), person


def _play_kasimir(
    monkeypatch: Any, tmp_path: Any, engine: str, players: int, seed: int, *options: str
) -> Tuple[str, _Person, List[int], List[int]]:
    """A whole game of Kater Kasimir against random bots, the person at seat 0: the output,
    the person, and the legal move counts at its decisions and at the bots' (the record's)."""
    path = tmp_path / "game.json"
    argv = [
        "play",
        "kasimir",
        "--players",
        str(players),
        "--bots",
        "random",
        "--seed",
        str(seed),
        "--engine",
        engine,
        "--watch",
        "--record",
        str(path),
        *options,
    ]
    status, out, person = _play_in_process(monkeypatch, argv)
    assert status == 0, out
    mine, theirs, state = _record_decisions(path, engine, 0)
    assert state.is_terminal()
    return out, person, mine, theirs


def _record_decisions(path: Any, engine: str, seat: int) -> Tuple[List[int], List[int], Any]:
    """From a game record: the number of legal moves at each of ``seat``'s decisions and at
    each of the other seats' decisions, and the final state."""
    from mousehole import records

    rec = records.loads(path.read_text(encoding="utf-8"), engine=engine)
    state = rec.initial_state(engine=engine)
    mine, theirs = [], []
    for a in rec.actions:
        if not state.is_chance_node():
            (mine if state.current_player == seat else theirs).append(len(state.legal_actions()))
        state.apply_action(a)
    return mine, theirs, state


# --------------------------------------------------------------------------------------
# forced moves and the prompt


@pytest.mark.parametrize("name", GAMES)
def test_a_forced_move_is_played_for_the_person(monkeypatch: Any, tmp_path: Any, engine: str, name: str) -> None:
    """By default (``--forced play``) the person is asked only where there is a choice: every
    decision with one legal move is played for them and shown with a note; the moves the
    command printed are the record's."""
    path = tmp_path / "game.json"
    argv = [
        "play",
        name,
        "--players",
        "2",
        "--seat",
        "1",
        "--bots",
        "random",
        "--seed",
        "6",
        "--engine",
        engine,
        "--watch",
        "--record",
        str(path),
    ]
    status, out, person = _play_in_process(monkeypatch, argv)
    assert status == 0, out
    mine, _, state = _record_decisions(path, engine, 1)
    assert state.is_terminal()
    forced = sum(1 for k in mine if k == 1)
    assert out.count("  (your only legal move, played for you)\n") == forced
    # each decision with a choice: 'moves', then the move (two prompts); no other prompt
    assert len(person.prompts) == 2 * sum(1 for k in mine if k > 1)
    assert all(p == "seat 1, your move> " for p in person.prompts)
    if name == "kasimir":
        assert forced > 0  # (the first move from the pantry, at least: the test checks something)


def test_forced_ask_offers_the_only_move_and_enter_plays_it(monkeypatch: Any, tmp_path: Any, engine: str) -> None:
    out, person, mine, _ = _play_kasimir(monkeypatch, tmp_path, engine, 2, 6, "--forced", "ask")
    offered = [p for p in person.prompts if p.endswith("Enter plays it> ")]
    assert len(offered) == sum(1 for k in mine if k == 1) > 0
    assert all(re.fullmatch(r"seat 0, your only move is .+; Enter plays it> ", p) for p in offered)
    assert "played for you" not in out and "a move that is your only legal one" not in out


def test_an_empty_line_is_no_move(capsys: Any, monkeypatch: Any) -> None:
    """Enter with several legal moves re-prompts with a hint (it did nothing before)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n\nquit\n"))
    status, out, err = run(capsys, "play", "cheese_rescue", "--players", "2", "--seed", "3")
    assert status == 0 and err == ""
    n = len(mousehole.load("cheese_rescue", players=2).new_state(seed=3).legal_actions())
    hint = (
        f"an empty line is no move: type one of your {n} legal moves ('moves' lists them, 'help' explains the game)\n"
    )
    assert out.count(hint) == 2 and out.count("seat 0, your move> ") == 3


class _TerminalPipe(io.TextIOWrapper):
    """A pipe that says it is a terminal (what :func:`_play.pause` waits on)."""

    def isatty(self) -> bool:
        return True


def test_pause_waits_for_enter_on_a_terminal_only() -> None:
    r, w = os.pipe()
    stdin = _TerminalPipe(io.open(r, "rb", buffering=0), encoding="utf-8")  # (unbuffered: select sees it all)
    real = sys.stdin
    try:
        sys.stdin = stdin
        assert _play.pause(0.05) is None  # nothing typed: the time runs out
        os.write(w, b"\n")
        assert _play.pause(60) == "\n"  # Enter ends the pause (60 s would end it otherwise)
        os.write(w, b"quit\n")
        assert _play.pause(60) == "quit\n"
        os.close(w)
        assert _play.pause(60) == ""  # the end of the input
        assert _play.pause(0) is None
        sys.stdin = io.StringIO("next move\n")  # not a terminal: never waited for, nothing read
        assert _play.pause(60) is None and sys.stdin.readline() == "next move\n"
    finally:
        sys.stdin = real
        stdin.close()


def test_only_the_persons_forced_moves_pause(monkeypatch: Any, tmp_path: Any, engine: str) -> None:
    """On a terminal a move played for the person waits ``--pause`` seconds (Enter skips it);
    the bots' moves, forced or not, add no wait of the terminal loop."""
    calls: List[float] = []

    def pause(seconds: float) -> Optional[str]:
        calls.append(seconds)
        return None

    monkeypatch.setattr(_play, "pause", pause)
    monkeypatch.setattr(_play, "_is_terminal_input", lambda: True)
    out, _, mine, theirs = _play_kasimir(monkeypatch, tmp_path, engine, 3, 2, "--pause", "0.25")
    assert calls == [0.25] * sum(1 for k in mine if k == 1)
    assert out.count("  (your only legal move, played for you; Enter goes on)\n") == len(calls) > 0
    assert sum(1 for k in theirs if k == 1) > 0  # the bots had forced moves: none of them paused


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals (the pty module) are POSIX only")
def test_in_a_terminal_enter_skips_the_pause() -> None:
    """``python -m mousehole play`` in a pseudo-terminal with a 60 s pause: each time a move is
    played for the person, Enter goes on at once, and the whole session (ended with 'quit')
    takes far less than one pause would."""
    import pty
    import select as select_module

    primary, secondary = pty.openpty()
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mousehole",
            "play",
            "kasimir",
            "--players",
            "2",
            "--bots",
            "random",
            "--seed",
            "6",
            "--pause",
            "60",
        ],
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        close_fds=True,
    )
    os.close(secondary)
    seen, skipped, start = b"", 0, time.monotonic()
    try:
        while time.monotonic() - start < 45:
            ready, _, _ = select_module.select([primary], [], [], 1.0)
            if not ready:
                continue
            try:
                chunk = os.read(primary, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
            if seen.endswith(b"Enter goes on)\r\n"):
                skipped += 1
                os.write(primary, b"\n")
            elif seen.endswith(b"your move> "):
                os.write(primary, b"quit\n")
        status = child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
        os.close(primary)
    text = seen.decode("utf-8", "replace")
    assert status == 0, text
    assert skipped > 0 and "you left the game" in text, text


def test_pause_and_forced_options(capsys: Any) -> None:
    for bad in ("-1", "61", "nan", "soon"):
        status, out, err = run(capsys, "play", "m", "--pause", bad)
        assert status == 2 and out == "" and "argument --pause: expected seconds, a number from 0 to 60" in err, err
    status, out, err = run(capsys, "play", "m", "--forced", "always")
    assert status == 2 and "argument --forced: invalid choice: 'always'" in err
    status, out, err = run(capsys, "play", "--help")
    flat = " ".join(out.split())
    assert "--forced {play,ask}" in flat and "(default: play)" in flat
    assert f"(default: {_play.FORCED_PAUSE:g})" in flat and "--watch" in flat


# --------------------------------------------------------------------------------------
# a settled result


#: per game, parameters whose settled rule differs (readings, a short game) and player counts
SETTLED_CASES = [
    ("kasimir", {}, 2),
    ("kasimir", {"elimination": "skip_turns"}, 3),
    ("kasimir", {"elimination": "skip_turns", "all_eliminated": "last_out_wins"}, 2),
    ("cheese_rescue", {}, 2),
    ("cheese_rescue", {"play_area": "centred_on_start"}, 4),
    ("maus_au_chocolat", {}, 3),
    ("maus_au_chocolat", {"target": 12}, 3),
    ("m", {}, 2),
]


def test_the_settled_cases_cover_every_game() -> None:
    assert {name for name, _, _ in SETTLED_CASES} == set(GAMES)


def _finish(state: Any, seed: int) -> Any:
    """A copy of ``state`` played to the end with uniformly random moves."""
    s = state.clone()
    rng = Rng(seed)
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply_action(int(legal[rng.below(len(legal))]))
    return s


@pytest.mark.parametrize(
    "name, params, players",
    SETTLED_CASES,
    ids=[f"{n}-{p}p" + "".join(f"-{v}" for v in kw.values()) for n, kw, p in SETTLED_CASES],
)
def test_settled_is_sound_and_read_from_the_view(engine: str, name: str, params: Dict[str, Any], players: int) -> None:
    """Where ``settled(state, p)`` says seat p has won (lost), every random continuation ends
    with p among the winners (not among them); it is the same for every state p cannot tell
    from this one; and it is declared where the rules allow (M: never before the end)."""
    game = mousehole.load(name, players=players, engine=engine, **params)
    claims = 0
    for seed in range(scale(12)):
        s = game.new_state(seed=seed)
        rng = Rng(derive(seed, 3))
        while not s.is_terminal():
            for p in range(players):
                said = game.settled(s, p)
                if said is None:
                    continue
                won, why = said
                assert isinstance(won, bool) and why and re.search(r"\((?:[A-Z]+-\d+|max_turns)", why), why
                claims += 1
                if claims % 5 == 1:  # a sample of the claims, two continuations each
                    for k in range(2):
                        end = _finish(s, 1000 * seed + k)
                        assert (p in end.winners()) == won, (seed, len(s.history), p, why, end.winners())
                    for j in range(2):
                        assert game.settled(s.determinize(p, j), p) == said
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.below(len(legal))]))
        for p in range(players):
            assert game.settled(s, p) == (p in s.winners(), "the game is over")
    assert (claims > 0) == (name != "m"), claims


def test_settled_refuses_bad_arguments() -> None:
    game = mousehole.load("kasimir", players=2)
    state = game.new_state(seed=1)
    for seat in (2, -1, True, "0"):
        with pytest.raises((ValueError, TypeError)):
            game.settled(state, seat)  # type: ignore[arg-type]
    other = mousehole.load("m", players=2).new_state(seed=1)
    for method in (lambda s: game.settled(s, 0), game.end_reason, game.score_breakdown, lambda s: game.play_help(s, 0)):
        with pytest.raises(TypeError, match="takes a state of this game"):
            method(other)
    with pytest.raises(ValueError, match="the game is not over"):
        game.end_reason(state)


def _settled_state(name: str, players: int, engine: str, seat: int) -> Any:
    """A state of a seeded random game in which ``seat``'s result is settled before the end."""
    game = mousehole.load(name, players=players, engine=engine)
    for seed in range(200):
        s = game.new_state(seed=seed)
        rng = Rng(seed)
        while not s.is_terminal():
            if game.settled(s, seat) is not None:
                return s
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.below(len(legal))]))
    raise AssertionError("no settled state in 200 games")


def test_the_game_stops_when_the_result_is_settled(capsys: Any, engine: str) -> None:
    """Kater Kasimir: once seat 0 cannot win any more (or cannot lose), no bot plays on."""
    state = _settled_state("kasimir", 3, engine, 0)
    won, why = state.game.settled(state, 0)
    before = list(state.history)

    class NoBot:
        def step(self, s: Any) -> int:
            raise AssertionError("a bot was asked to play after the result was settled")

    opts = _play.PlayOptions(seat=0, labels=["you", "random", "random"])
    assert _play.play(state, {1: NoBot(), 2: NoBot()}, lambda s: 0, opts) == "settled"
    assert state.history == before
    out = capsys.readouterr().out
    lines = out.splitlines()
    at = lines.index(f"your result is settled after {len(before)} actions: {why}")
    assert lines[at + 1] == f"scores as they stand: {type(state.game).SCORE}"
    assert lines[at + 2 : at + 5] == [
        f"  seat {p} ({opts.labels[p]}): {b}" for p, b in enumerate(state.game.score_breakdown(state))
    ]
    verdict = "you win whatever is played now" if won else "you can no longer win"
    assert lines[at + 5] == f"{verdict}; the game stops here ('--watch' plays it to the end)"


def test_watch_plays_on_to_the_end(monkeypatch: Any, engine: str) -> None:
    from mousehole.arena import _build

    state = _settled_state("kasimir", 3, engine, 0)
    why = state.game.settled(state, 0)[1]
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", _Person(out))
    opts = _play.PlayOptions(seat=0, labels=["you", "random", "random"], watch=True)
    bots = {p: _build("random", p) for p in (1, 2)}
    assert _play.play(state, bots, lambda s: 0, opts) == "over"
    monkeypatch.undo()
    assert state.is_terminal()
    text = out.getvalue()
    assert text.startswith(f"your result is settled: {why}; watching to the end\n")
    assert text.count("your result is settled") == 1 and "game over after" in text


def test_play_command_stops_at_a_settled_result(capsys: Any, monkeypatch: Any, tmp_path: Any) -> None:
    """The command line: the game stops, the seed is revealed and the record holds the game
    as far as it went (unfinished)."""
    from mousehole import records

    for seed in range(40):
        path = tmp_path / f"game{seed}.json"
        argv = ["play", "kasimir", "--players", "3", "--bots", "random", "--seed", str(seed), "--record", str(path)]
        status, out, _ = _play_in_process(monkeypatch, argv)
        assert status == 0, out
        if "your result is settled after" in out:
            break
    else:
        raise AssertionError("no game of 40 stopped at a settled result")
    assert "the game stops here ('--watch' plays it to the end)" in out and "game over after" not in out
    assert out.rstrip().endswith(f"record written to {path}")
    assert not records.loads(path.read_text(encoding="utf-8")).result["terminal"]


# --------------------------------------------------------------------------------------
# the end: why, and every seat's score


def _random_end(name: str, players: int, engine: str, seed: int, **params: Any) -> Any:
    return _finish(mousehole.load(name, players=players, engine=engine, **params).new_state(seed=seed), seed)


def test_end_reasons_are_words_with_the_rule(engine: str) -> None:
    """M says which of its three endings it was, in words (the board said "game over
    (M-16)"); every game names its rule, and the turn limit says so."""
    seen: Dict[str, Any] = {}
    for seed in range(40):
        end = _random_end("m", 2, engine, seed)
        seen.setdefault(end.to_dict()["end"], end)
    assert set(seen) == {"M-16", "M-17", "M-18"}
    for rule, end in seen.items():
        words = end.game.end_reason(end)
        assert words.endswith(f"({rule})") and len(words.split()) >= 6, words
        assert f"game over: {words};" in str(end)  # the board too
    for name, rule in (("cheese_rescue", "CR-11"), ("kasimir", "KK-12"), ("maus_au_chocolat", "MC-24")):
        words = mousehole.load(name, players=2, engine=engine).end_reason(_random_end(name, 2, engine, 1))
        assert words.endswith(f"({rule})") and len(words.split()) >= 5, words
    for name in GAMES:
        short = _random_end(name, 2, engine, 1, max_turns=3)
        assert short.truncated and short.game.end_reason(short) == mousehole._api.TURN_LIMIT_REASON


@pytest.mark.parametrize("name", GAMES)
def test_the_pictures_show_the_same_end_reason(engine: str, name: str) -> None:
    """The replay's pictures and the terminal name the end with the same words (one source,
    ``Game.end_reason``)."""
    import html

    from mousehole.render import svg

    end = _random_end(name, 2, engine, 4)
    words = html.escape(end.game.end_reason(end), quote=False).encode("ascii", "xmlcharrefreplace").decode()
    assert f"Game over, {words}: " in svg(end) and f"Game over, {words}: " in svg(end, for_player=1)


@pytest.mark.parametrize("name", GAMES)
def test_score_breakdowns_add_up_and_are_public(engine: str, name: str) -> None:
    game = mousehole.load(name, players=3, engine=engine)
    checked = 0
    for seed in range(3):
        s = game.new_state(seed=seed)
        for step, a in enumerate(_walk(s, seed)):
            if step % 9 == 0 or s.is_terminal():
                lines = game.score_breakdown(s)
                assert len(lines) == 3
                for line, score in zip(lines, s.scores()):
                    assert re.search(rf" = {score}( VP)? \(", line), line
                    if name == "m":  # M-20: chips x 10, the colours' totals, added or taken away
                        assert _m_sum(line) == score, line
                for p in range(3):
                    for j in range(2):
                        assert game.score_breakdown(s.determinize(p, j)) == lines
                checked += 1
            if a is not None:
                s.apply_action(a)
    assert checked > 6


def _walk(s: Any, seed: int) -> Any:
    rng = Rng(seed)
    while not s.is_terminal():
        legal = s.legal_actions()
        yield int(legal[rng.below(len(legal))])
    yield None


def _m_sum(line: str) -> int:
    """An M breakdown line's arithmetic: ``2 chips (20) + blue 70 - green 30 = ...``."""
    left = line.split(" = ")[0]
    total = int(re.match(r"\d+ chips? \((\d+)\)", left).group(1))  # type: ignore[union-attr]
    for sign, value in re.findall(r" ([+-]) \w+ (\d+)", left):
        total += int(value) if sign == "+" else -int(value)
    return total


@pytest.mark.parametrize("name", GAMES)
def test_the_end_screen_says_why_and_breaks_the_scores_down(
    monkeypatch: Any, tmp_path: Any, engine: str, name: str
) -> None:
    path = tmp_path / "game.json"
    argv = [
        "play",
        name,
        "--players",
        "2",
        "--bots",
        "random",
        "--seed",
        "5",
        "--engine",
        engine,
        "--watch",
        "--record",
        str(path),
    ]
    status, out, _ = _play_in_process(monkeypatch, argv)
    assert status == 0, out
    _, _, state = _record_decisions(path, engine, 0)
    lines = out.splitlines()
    at = lines.index(f"game over after {len(state.history)} actions: {state.game.end_reason(state)}")
    labels = ["you", "random"]
    assert lines[at + 1 : at + 4] == [f"scores: {type(state.game).SCORE}"] + [
        f"  seat {p} ({labels[p]}): {b}" for p, b in enumerate(state.game.score_breakdown(state))
    ]
    winners = state.winners()
    verdict = "you won" if winners == [0] else "you share the win" if 0 in winners else "you lost"
    assert re.fullmatch(
        r"(seat \d \((you|random)\)( and seat \d \((you|random)\))? (wins|share the win)|"
        rf"nobody wins|all seats share the win): {verdict}",
        lines[at + 4],
    ), lines[at + 4]
    for p in winners:
        assert f"seat {p} ({labels[p]})" in lines[at + 4] or "all seats" in lines[at + 4]


# --------------------------------------------------------------------------------------
# legends, help, the order of play, one seat a line


@pytest.mark.parametrize("name", GAMES)
def test_every_text_board_has_a_legend(engine: str, name: str) -> None:
    game = mousehole.load(name, players=3, engine=engine)
    s = _random_end(name, 3, engine, 2)
    start = game.new_state(seed=2)
    for state in (start, s):
        for text in (str(state), _play.view_text(state, 1)):
            last = text.splitlines()[-1]
            assert last.startswith(("legend: ", "board: ")), text
    legend = str(start).splitlines()[-1]
    words = profile(name).legend_words  # (tests/gamecases.py)
    assert words, f"{name}: no legend_words in its profile"
    for w in words:
        assert w in legend, (w, legend)


def _cr_grid(text: str) -> Dict[Tuple[int, int], str]:
    """The cells of a Cheese Rescue board (row, col) -> what it shows ('' for blank)."""
    lines = text.splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.startswith("    ") and ln.split() and ln.split()[0].isdigit())
    cols = [int(c) for c in lines[head].split()]
    out = {}
    for ln in lines[head + 1 :]:
        if not re.match(r"^ {0,3}\d+( |$)", ln):
            break
        row = int(ln[:4])
        for k, col in enumerate(cols):
            out[(row, col)] = ln[4 + 4 * k : 8 + 4 * k].strip()
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cheese_rescue_board_dots_only_the_cells_a_card_may_still_go_to(engine: str, players: int) -> None:
    """CR-8: '.' marks an empty cell inside some N x N square that holds every card laid (and
    the fixed square, under play_area="centred_on_start"); other empty cells are blank, and
    every cell a card may go to now is a '.'."""
    game = mousehole.load("cheese_rescue", players=players, engine=engine)
    G, N = game.grid_size, game.square_size
    for seed in range(2):
        s = game.new_state(seed=seed)
        for a in _walk(s, seed):
            table = s.to_dict()["table"]
            cards = [(i // G, i % G) for i, c in enumerate(table) if c]
            grid = _cr_grid(str(s))
            for (r, c), shown in grid.items():
                if table[r * G + c]:
                    continue
                rows, cols = [r] + [x for x, _ in cards], [c] + [y for _, y in cards]
                fits = max(rows) - min(rows) < N and max(cols) - min(cols) < N
                assert (shown == ".") == fits, (seed, len(s.history), r, c, shown)
            for cell in {int(x) % game.num_cells for x in s.legal_actions()}:
                assert grid[divmod(cell, G)] == "."
            if a is not None:
                s.apply_action(a)


def test_maus_au_chocolat_board_shows_the_order_of_play(engine: str) -> None:
    game = mousehole.load("maus_au_chocolat", players=3, engine=engine)
    s = game.new_state(seed=4)
    shown = {"pick": 0, "combine": 0}
    for a in _walk(s, 4):
        d = s.to_dict()
        text = _play.view_text(s, 0)
        if d["phase"] == "pick":
            assert f"pick order (MC-8): seats {d['order'][0]}" in text
            assert f"{d['order'][d['turn']]} (picking, {d['picks_left']} left)" in text
            shown["pick"] += 1
        elif d["phase"] == "combine":
            assert f"combination order (MC-10): seats {d['order'][0]}" in text
            shown["combine"] += 1
        elif d["phase"] == "bid":
            assert " order (MC-" not in text
        if a is not None:
            s.apply_action(a)
    assert min(shown.values()) > 0


@pytest.mark.parametrize("name", GAMES)
def test_help_explains_the_game(capsys: Any, monkeypatch: Any, name: str) -> None:
    """``help`` prints the game's rules in a few lines, with their ids, then the commands and
    the legal moves; 'moves' the legal moves alone."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("help\nmoves\nquit\n"))
    status, out, err = run(capsys, "play", name, "--players", "2", "--seed", "7", "--forced", "ask")
    assert status == 0, err
    game = mousehole.load(name, players=2)
    state = game.new_state(seed=7)  # (seat 0 moves first in every game)
    rules = game.play_help(state, 0)
    prefix = profile(name).rule_prefix
    assert rules.startswith(game.title) and len(re.findall(rf"\({prefix}-\d+", rules)) >= 5
    assert max(len(line) for line in rules.splitlines()) <= 100
    legal = "\n".join(
        [f"your legal moves ({len(state.legal_actions())}):"]
        + [f"  {state.describe(int(a))}" for a in state.legal_actions()]
    )
    assert f"{rules}\ncommands: 'moves' lists your legal moves, 'help' prints this, 'quit' leaves\n{legal}\n" in out
    assert out.count(legal) == 2


def test_maus_au_chocolat_help_names_every_helper_and_the_pick_order() -> None:
    game = mousehole.load("maus_au_chocolat", players=3)
    s = game.new_state(seed=1)
    for p in range(3):
        text = game.play_help(s, p)
        for rank, helper in zip(
            range(7, 0, -1), ("Etienne", "Henri", "Mathieu", "Maurice", "Lilly", "Amélie", "Claude")
        ):
            assert re.search(rf"^  {rank} {helper}: \w", text, re.M), helper
        held = s.to_dict()["helpers"][p]
        assert f"You hold {('Etienne', 'Henri', 'Mathieu', 'Maurice', 'Lilly', 'Amélie', 'Claude')[held]}" in text
        assert "picks first" in text and "(MC-8)" in text and "helper order" in text
    optional = mousehole.load("maus_au_chocolat", players=3, henri_bonus="optional")
    assert "without Henri" in optional.play_help(optional.new_state(seed=1), 0)


def test_a_moves_line_names_its_seat_once(monkeypatch: Any) -> None:
    """Maus au Chocolat writes its moves with the seat ("seat 0 bids ..."): the line reads
    ``seat 0 (you) bids ...``, not ``seat 0 (you): seat 0 bids ...``."""
    argv = ["play", "maus_au_chocolat", "--players", "3", "--bots", "random", "--seed", "3"]
    status, out, _ = _play_in_process(monkeypatch, argv)
    assert status == 0
    assert not re.search(r"^seat (\d) \([^)]*\): seat \1 ", out, re.M)
    assert re.search(r"^seat 0 \(you\) bids \w", out, re.M)
    assert re.search(r"^seat [12] \(random\) bids face down", out, re.M)
    assert _play.move_line(1, "greedy", "pantry +2 -> space 2") == "seat 1 (greedy): pantry +2 -> space 2"
    assert _play.move_line(1, "greedy", "seat 12 bids x") == "seat 1 (greedy): seat 12 bids x"


@pytest.mark.parametrize("engine", mousehole.available_engines())
def test_kasimir_announces_every_skipped_turn(monkeypatch: Any, tmp_path: Any, engine: str) -> None:
    """KK-10, KK-11: a seat without a free mouse skips its turn, and the terminal says so,
    once per skipped turn and in order; each announced seat had no free mouse when it was
    passed over (read from the record, independently of ``Game.skipped_seats``)."""
    announced: List[str] = []
    expected: List[str] = []
    for seed in range(4):
        out, _, _, _ = _play_kasimir(monkeypatch, tmp_path, engine, 4, seed)
        announced += re.findall(r"^seat (\d) \(\w+\) cannot move and skips the turn$", out, re.M)
        from mousehole import records

        rec = records.loads((tmp_path / "game.json").read_text(encoding="utf-8"), engine=engine)
        state = rec.initial_state(engine=engine)
        mover: Optional[int] = None
        for a in rec.actions:
            if mover is not None and not state.is_chance_node():
                q = (mover + 1) % 4
                while q != state.current_player:  # clockwise from the mover to the seat due
                    assert state.free_starts(q) == [], (seed, q)
                    expected.append(str(q))
                    q = (q + 1) % 4
                mover = None
            if not state.is_chance_node():
                mover = state.current_player
            state.apply_action(a)
    assert expected, "no game of these seeds skipped a turn: the test would check nothing"
    assert announced == expected
