"""The ``mousehole`` command line under hostile input (issue 22, items 3-6): every bad file
and every bad argument is one line on stderr and exit status 2, never a traceback or a
hang; record fields and arguments reach the terminal with their control characters
escaped; play, show and arena deal from fresh secret seeds unless given one.

What a shell sees is tested through ``python -m mousehole`` in a child process with a
timeout (so that a hang or a crash fails one test); the hypothesis tests over generated
argument lists call ``mousehole.cli.main`` in-process, bounded and deterministic.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from typing import Any, List, Optional, Sequence, Tuple, Union

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mousehole
from mousehole import cli, records

ENGINES = mousehole.available_engines()
ENV = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="80")


def bounded(n: int) -> Any:
    return settings(
        max_examples=n, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
    )


def shell(
    *argv: Union[str, bytes], stdin: bytes = b"", timeout: float = 120, cwd: Any = None
) -> Tuple[int, bytes, bytes]:
    """``python -m mousehole ARGV`` as a shell runs it: (status, stdout, stderr) as bytes."""
    done = subprocess.run(
        [sys.executable, "-m", "mousehole", *argv], input=stdin, capture_output=True, timeout=timeout, env=ENV, cwd=cwd
    )
    return done.returncode, done.stdout, done.stderr


def one_line_error(status: int, out: bytes, err: bytes, message: str) -> str:
    """Check a usage error as a shell sees it; return the line."""
    text = err.decode("utf-8")
    assert status == 2, (status, text[-3000:])
    assert out == b"", out[:500]
    assert text.endswith("\n") and text.count("\n") == 1, text[-3000:]
    line = text[:-1]
    assert re.match(r"mousehole( \w+)?: error: ", line), line
    assert "Traceback" not in line and line.isprintable(), line
    assert message in line, line
    return line


def _record_data(
    name: str = "cheese_rescue", players: int = 2, seed: int = 3, steps: int = 6, seats: Optional[Sequence[str]] = None
) -> Any:
    state = mousehole.load(name, players=players, engine="python").new_state(seed)
    for _ in range(steps):
        state.apply_action(int(state.legal_actions()[0]))
    return json.loads(records.dumps(state, seats=seats, date=None))


@pytest.fixture(scope="module")
def good(tmp_path_factory: Any) -> str:
    path = tmp_path_factory.mktemp("records") / "good.json"
    path.write_text(json.dumps(_record_data()), encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------------------
# every kind of bad file, through a shell


def _text(d: Any) -> bytes:
    return json.dumps(d).encode("utf-8")


def _edited(edit: Any) -> bytes:
    d = _record_data()
    edit(d)
    return _text(d)


BAD_FILES: List[Tuple[str, bytes, str]] = [
    ("binary", bytes(range(256)) * 4, "not UTF-8 text: byte 0x80 at offset 128"),
    ("latin-1", '{"format": "mousehole.record", "seats": ["Zoë"]}'.encode("latin-1"), "not UTF-8 text: byte 0xeb"),
    ("NUL bytes", b"\x00" * 100, "not JSON: Expecting value (line 1, column 1)"),
    ("empty", b"", "not JSON: Expecting value (line 1, column 1)"),
    ("deep arrays", b"[" * 1_000_000 + b"]" * 1_000_000, "nested too deeply: arrays and objects at most 33 deep"),
    ("deep objects", b'{"a":' * 200_000 + b"1" + b"}" * 200_000, "nested too deeply"),
    ("lone surrogate", _edited(lambda d: d["seats"].__setitem__(0, "\udc80")), "seats[0]: lone surrogate"),
    ("duplicate key", b'{"seed": 1, ' + _text(_record_data())[1:], "duplicate key 'seed' in an object"),
    ("NaN", _text(_record_data()).replace(b'"seed": 3', b'"seed": NaN'), "NaN is not a JSON number"),
    (
        "huge max_turns",
        _text(_record_data()).replace(b'"max_turns": 1000', b'"max_turns": 1' + b"0" * 1000),
        "integer with more than 20 digits",
    ),
    (
        "max_turns out of range",
        _edited(lambda d: d["params"].update(max_turns=10**7)),
        "params.max_turns: must be from 1 to 1,000,000",
    ),
    ("terminal 1", _edited(lambda d: d["result"].update(terminal=1)), "result.terminal: must be true or false"),
    ("extra result key", _edited(lambda d: d["result"].update(extra=1)), "result: unknown key 'extra'"),
    ("float action", _edited(lambda d: d["actions"].__setitem__(0, 1.0)), "actions[0]: must be an integer"),
    (
        "too many actions",
        _edited(lambda d: d.update(actions=[1] * 100_001, moves=["x"] * 100_001)),
        "actions: too many items (100,001, at most 100,000)",
    ),
    ("illegal move", _edited(lambda d: d["actions"].__setitem__(1, d["actions"][0])), "move 2 ("),
    ("long bad game id", _edited(lambda d: d.update(game="chess" * 2000)), "game: unknown game id 'chesschess"),
    ("a number", b"42", "not a record: a record is a JSON object, got an integer"),
    ("list with a non-record", b"[1]", "record 0: not a record"),
]


@pytest.mark.parametrize("kind, data, message", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_a_bad_file_is_one_line_and_status_2(tmp_path: Any, kind: str, data: bytes, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    line = one_line_error(*shell("replay", str(path)), message)
    assert len(line) < 400, line
    # the same from standard input
    one_line_error(*shell("replay", "-", stdin=data), message)


def test_dev_zero_is_refused_not_read_without_end() -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero on this system")
    one_line_error(
        *shell("replay", "/dev/zero"),
        "argument FILE: /dev/zero is larger than 67,108,864 bytes (--max-bytes raises the limit)",
    )
    one_line_error(*shell("replay", "/dev/zero", "--max-bytes", "1000"), "larger than 1,000 bytes")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_an_endless_pipe_is_refused_not_read_without_end(tmp_path: Any) -> None:
    fifo = str(tmp_path / "endless")
    os.mkfifo(fifo)
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys\nf = open(sys.argv[1], 'wb')\n"
            "try:\n    while True:\n        f.write(b'[' * 65536)\nexcept OSError:\n    pass\n",
            fifo,
        ],
        stderr=subprocess.DEVNULL,
    )
    try:
        one_line_error(*shell("replay", fifo, "--max-bytes", "5000000"), "is larger than 5,000,000 bytes")
    finally:
        writer.kill()
        writer.wait()


def test_unreadable_paths_are_one_line(tmp_path: Any) -> None:
    one_line_error(*shell("replay", str(tmp_path)), "argument FILE: cannot read")
    one_line_error(*shell("replay", str(tmp_path / "missing.json")), "argument FILE: cannot read")
    # a file name with a line break and a terminal escape: named, escaped, on one line
    # (a relative name: a long temporary directory would be shortened in the message)
    line = one_line_error(*shell("replay", "a\nb\x1b[2J.json", cwd=tmp_path), "cannot read")
    assert "a\\nb\\x1b[2J.json" in line


def test_index_is_refused_on_a_single_record_and_checked_on_a_list(tmp_path: Any, good: str) -> None:
    one_line_error(*shell("replay", good, "--index", "0"), "argument --index: ")
    one_line_error(*shell("replay", good, "--index", "0"), "holds one record, not a list of records")
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps([_record_data(), _record_data(seed=4)]), encoding="utf-8")
    one_line_error(*shell("replay", str(listed), "--index", "2"), "argument --index: ")
    one_line_error(*shell("replay", str(listed), "--index", "-1"), "argument --index: must be from 0")
    status, out, err = shell("replay", str(listed), "--index", "1")
    assert status == 0 and err == b"", err
    expected = records.loads(json.dumps(_record_data(seed=4)))
    assert out.decode().count("\n") >= len(expected.actions) + 3


def test_bad_replay_options_are_one_line(good: str) -> None:
    one_line_error(*shell("replay", good, "--view", "2"), "argument --view: must be from 0 to 1 (2 players), got 2")
    one_line_error(*shell("replay", good, "--view", "-1"), "argument --view: must be from 0 to 1")
    one_line_error(*shell("replay", good, "--max-bytes", "0"), "argument --max-bytes: must be from 1 to 2**30")
    one_line_error(*shell("replay", good, "--max-bytes", str(2**31)), "argument --max-bytes: must be from 1")
    size = os.path.getsize(good)
    one_line_error(*shell("replay", good, "--max-bytes", str(size - 1)), f"is larger than {size - 1:,} bytes")
    assert shell("replay", good, "--max-bytes", str(size))[0] == 0


# --------------------------------------------------------------------------------------
# bad arguments, through a shell


BAD_ARGS: List[Tuple[List[Union[str, bytes]], str]] = [
    (["simulate", "m", "--threads", "20000"], "argument --threads: must be from 1 to 256, got 20000"),
    (["simulate", "m", "--games", "10", "--seed", str(10**30)], "argument --seed: must be from 0 to 2**64-1"),
    (["simulate", "m", "--seed", "7" * 10_000], "argument --seed: expected an integer of at most 40 characters"),
    (["simulate", "m", "--players", str(10**30)], "players must be an int from 2 to 6"),
    (["show", "m", "--seed", "-1"], "argument --seed: must be from 0 to 2**64-1, got -1"),
    (["show", "m", "--moves", "\x1b[2Jplace"], "argument --moves: move 1 ('\\x1b[2Jplace')"),
    (["show", b"m\xff"], "unknown game 'm\\udcff'"),
    (["show", "m\x1b[31m"], "unknown game 'm\\x1b[31m'"),
    (["play", "m", "--name", b"\xffbad"], "argument --name: not UTF-8 text"),
    (["play", "m", "--name", "n" * 300], "argument --name: must be 1 to 200 characters, got 300"),
    (["play", "m", "--seat", str(10**25)], "argument --seat: must be from 0 to 3 (4 players)"),
    (["arena", "m", "--bots", "random,random", "--workers", "100000"], "argument --workers: must be from 1 to 256"),
    (["arena", "m", "--bots", "random,random", "--games", str(2**60)], "argument --games: must be from 1 to 2**53"),
    (["arena", "m", "--bots", "random,random", "--seed", "1e3"], "argument --seed: expected an integer, got '1e3'"),
    # int() reads the digits of every script; a count or a seed is written in ASCII digits
    (["simulate", "m", "--games", "2", "--seed", "\u0663"], "argument --seed: expected an integer in ASCII digits"),
    (["play", "m", "--seat", "\uff11"], "argument --seat: expected an integer in ASCII digits"),
]


@pytest.mark.parametrize("argv, message", BAD_ARGS, ids=[str(i) for i in range(len(BAD_ARGS))])
def test_a_bad_argument_is_one_line_and_status_2(argv: List[Union[str, bytes]], message: str) -> None:
    one_line_error(*shell(*argv), message)


def test_simulate_refuses_too_many_threads_in_the_api_too() -> None:
    game = mousehole.load("kasimir", players=2)
    with pytest.raises(ValueError, match=r"^threads must be from 1 to 256, got 20000$"):
        mousehole.simulate(game, 1, threads=20000)
    assert mousehole.simulate(game, 3, seed=1, threads=256).n_games == 3


# --------------------------------------------------------------------------------------
# control characters from records reach the terminal escaped


@pytest.mark.parametrize("engine", ENGINES)
def test_replay_escapes_control_characters_of_record_fields(tmp_path: Any, engine: str) -> None:
    d = _record_data("kasimir", 2, 5, 8, seats=["\x1b[2J\x1b[31mmallory", "bob\r\nfake: line"])
    d["date"] = "2026\x07-01\x1b]0;title\x07"
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    for extra in ([], ["--diagrams"], ["--view", "1"], ["--view", "0", "--diagrams"]):
        status, out, err = shell("replay", str(path), "--engine", engine, *extra)
        assert status == 0 and err == b"", err
        text = out.decode("utf-8")
        assert "\x1b" not in text and "\r" not in text and "\x07" not in text
        assert "\\x1b[2J\\x1b[31mmallory" in text and "bob\\r\\nfake: line" in text
        assert all(line.isprintable() for line in text.splitlines())
    page = tmp_path / "evil.html"
    status, out, err = shell("replay", str(path), "--engine", engine, "--html", str(page), "--view", "1")
    assert status == 0 and out.decode().endswith(" frames\n"), err


def test_replay_errors_of_the_page_maker_are_one_line(monkeypatch: Any, capsys: Any, good: str) -> None:
    """An error from mousehole.replay (a frame over its size bound, say) is a usage error."""
    import mousehole.replay as replay_module

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("frame 3 is larger than the bound\nsecond line")

    monkeypatch.setattr(replay_module, "text_lines", refuse)
    monkeypatch.setattr(replay_module, "html", refuse)
    for extra in ([], ["--html", os.devnull]):
        with pytest.raises(SystemExit) as info:
            cli.main(["replay", good, *extra])
        out, err = capsys.readouterr()
        assert info.value.code == 2 and out == ""
        assert err.count("\n") == 1 and "error: cannot replay " in err and "frame 3 is larger than the bound" in err


def test_view_reaches_the_text_and_the_page(monkeypatch: Any, capsys: Any, good: str, tmp_path: Any) -> None:
    import mousehole.replay as replay_module

    seen: List[Any] = []
    real_text, real_html = replay_module.text_lines, replay_module.html
    monkeypatch.setattr(replay_module, "text_lines", lambda r, **kw: seen.append(("text", kw)) or real_text(r, **kw))
    monkeypatch.setattr(replay_module, "html", lambda r, **kw: seen.append(("html", kw)) or real_html(r, **kw))
    assert cli.main(["replay", good, "--view", "1", "--engine", "python"]) == 0
    assert cli.main(["replay", good, "--view", "0", "--html", str(tmp_path / "p.html")]) == 0
    capsys.readouterr()
    assert seen[0] == ("text", {"diagrams": False, "for_player": 1, "engine": "python"})
    assert seen[1][0] == "html" and seen[1][1]["for_player"] == 0


# --------------------------------------------------------------------------------------
# secret seeds (item 3)


def _seed_of(out: str) -> int:
    m = re.search(r"engine, seed (\d+)", out)
    assert m, out
    return int(m.group(1))


def test_show_deals_from_a_fresh_seed_and_prints_it(capsys: Any) -> None:
    seeds = []
    for _ in range(2):
        assert cli.main(["show", "m", "--players", "3"]) == 0
        out = capsys.readouterr().out
        seed = _seed_of(out)
        seeds.append(seed)
        # the seed printed is the one used: --seed reproduces the position
        assert cli.main(["show", "m", "--players", "3", "--seed", str(seed)]) == 0
        assert capsys.readouterr().out == out
    assert seeds[0] != seeds[1]
    assert all(0 <= s < 2**64 for s in seeds)


def test_the_fresh_seeds_come_from_the_operating_system(monkeypatch: Any, capsys: Any) -> None:
    asked: List[int] = []
    monkeypatch.setattr(cli.secrets, "randbits", lambda k: asked.append(k) or 2**64 - 5)
    assert cli.main(["show", "kasimir", "--players", "2"]) == 0
    assert _seed_of(capsys.readouterr().out) == 2**64 - 5 and asked == [64]


def test_play_keeps_its_fresh_seed_secret_until_the_end_and_records_it(tmp_path: Any) -> None:
    path = tmp_path / "game.json"
    status, out, err = shell("play", "m", "--players", "3", "--record", str(path), stdin=b"help\nquit\n")
    assert status == 0, err
    text = out.decode()
    seed = int(re.search(r"^the seed of this game was (\d+)$", text, re.M).group(1))  # type: ignore[union-attr]
    before = text[: text.index("you left the game")]
    assert str(seed) not in before and "a secret seed (printed at the end)" in before
    rec = records.loads(path.read_text(encoding="utf-8"))
    assert rec.seed == seed
    # `show` with the same arguments does not deal the same hands (issue 22: it used to)
    status, shown, _ = shell("show", "m", "--players", "3")
    assert status == 0 and _seed_of(shown.decode()) != seed


def test_arena_uses_a_fresh_seed_and_shows_it(tmp_path: Any, capsys: Any) -> None:
    figures = tmp_path / "a.json"
    assert cli.main(["arena", "kasimir", "--bots", "random,random", "--games", "2", "--json", str(figures)]) == 0
    out = capsys.readouterr().out
    seed = _seed_of(out)
    assert json.loads(figures.read_text())["seed"] == seed
    assert cli.main(["arena", "kasimir", "--bots", "random,random", "--games", "2", "--seed", str(seed)]) == 0
    again = capsys.readouterr().out
    assert _without_times(again) == _without_times(out)  # the same games; only the clock differs


def _without_times(out: str) -> list[str]:
    """The arena's printout with the seconds and ms/move columns of its time table dropped.

    The games, the table of results and the moves each bot made are the same for the same
    seed; the measured times (the two bots' seconds and ms/move, the closing "2 games in ...
    s" line) are not: they depend on the machine's load.
    """
    lines = out.splitlines()
    head = next(i for i, x in enumerate(lines) if x.strip().startswith("time used"))
    *timed, total = [x.split() for x in lines[head + 1 :]]
    assert len(timed) == 2 and all(len(row) == 4 for row in timed), lines[head:]
    assert total[:3] == ["2", "games", "in"], lines[-1]
    return lines[:head] + [f"{row[0]} {row[1]}" for row in timed]


def test_simulate_keeps_its_fixed_default_seed(capsys: Any) -> None:
    assert cli.main(["simulate", "kasimir", "--players", "2", "--games", "5"]) == 0
    assert _seed_of(capsys.readouterr().out) == 1


# --------------------------------------------------------------------------------------
# generated argument lists, in-process


INTS = st.one_of(
    st.integers(-3, 8), st.sampled_from([2**53, 2**53 + 1, 2**64 - 1, 2**64, -(2**63), 10**40, 10**41, 256, 257])
)
JUNK = st.one_of(
    st.text(max_size=6),
    st.sampled_from(["", " ", "1.5", "1e3", "0x10", "\x1b[2J", "\udcff", "-", "nan", "٣", "9" * 50, "--seed"]),
)


def mostly(good: Any, bad: Any) -> Any:
    """``good`` eight times in ten, else ``bad`` (so that runs get past the first check)."""
    return st.integers(0, 9).flatmap(lambda k: good if k < 8 else bad)


HOSTILE = st.one_of(INTS.map(str), JUNK)
GAME = mostly(st.sampled_from(mousehole.game_names()), st.one_of(st.sampled_from(["all", "chess", "M", ""]), JUNK))
#: hostile game counts, but for 2**53: the most games simulate and arena accept, a run that was
#: asked for and would take years (the refusals at that bound: test_cli.py and the cases above)
RUNNABLE = HOSTILE.filter(lambda v: v != str(2**53))
SPECS = mostly(
    st.sampled_from(["random,random", "random", "greedy,random", "mcts:4,random"]),
    st.sampled_from(["random,,random", "wizard", "mcts:-1", "mcts:x,random", ",", "random," * 7]),
)


def _option(name: str, good: Sequence[str], bad: Any = HOSTILE) -> Any:
    """Nothing, or ``name`` with a value: mostly one of ``good``."""
    return st.one_of(st.just([]), mostly(st.sampled_from(list(good)), bad).map(lambda v: [name, v]))


@st.composite
def argv_lists(draw: Any, replay_files: Sequence[str]) -> List[str]:
    command = draw(st.sampled_from(["simulate", "show", "play", "arena", "replay"]))
    argv = [command]
    if command == "replay":
        argv.append(draw(st.sampled_from(list(replay_files))))
        argv += draw(_option("--index", ["0", "1"]))
        argv += draw(_option("--view", ["0", "1"]))
        argv += draw(_option("--max-bytes", ["100000000", "1000"]))
        argv += draw(st.sampled_from([[], ["--diagrams"]]))
    else:
        argv.append(draw(GAME))
        argv += draw(_option("--players", ["2", "3", "4"]))
        argv += draw(_option("--seed", ["0", "7", str(2**64 - 1)]))
        if command == "simulate":
            argv += ["--games", draw(mostly(st.sampled_from(["0", "1", "3"]), RUNNABLE))]
            argv += draw(_option("--threads", ["1", "2"]))
        elif command == "show":
            argv += draw(_option("--moves", ["", "pass"], JUNK))
            argv += draw(st.sampled_from([[], ["--legal"]]))
        elif command == "play":
            argv += draw(_option("--seat", ["0", "1"]))
            argv += draw(_option("--bots", ["random", "greedy"], SPECS))
            argv += draw(_option("--name", ["ann", "Zoë"], JUNK))
        else:
            argv += ["--bots", draw(SPECS), "--games", draw(mostly(st.sampled_from(["1", "2"]), RUNNABLE))]
            argv += draw(_option("--workers", ["1"], st.sampled_from(["0", "257", "x", ""])))
    argv += draw(_option("--engine", ENGINES, JUNK))
    return argv


def _run_in_process(argv: List[str]) -> Tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO("quit\n")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = cli.main(argv)
            except SystemExit as e:
                status = e.code if isinstance(e.code, int) else 1
    finally:
        sys.stdin = old_stdin
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def replay_files(tmp_path_factory: Any) -> List[str]:
    folder = tmp_path_factory.mktemp("argv")
    files = []
    for i, (_, data, _) in enumerate(BAD_FILES[:8] + BAD_FILES[-4:]):
        path = folder / f"bad{i}.json"
        path.write_bytes(data)
        files.append(str(path))
    good = folder / "good.json"
    good.write_text(json.dumps(_record_data("m", 3, 2, 5)), encoding="utf-8")
    listed = folder / "list.json"
    listed.write_text(json.dumps([_record_data("kasimir", 2, 1, 4), 7]), encoding="utf-8")
    return files + [str(good), str(listed), str(folder), str(folder / "missing.json")]


def _ends_in_a_status(argv: List[str]) -> None:
    """``mousehole ARGV`` in-process ends with status 0, or 2 and one line on stderr; never
    an exception."""
    status, out, err = _run_in_process(argv)
    assert status in (0, 2), (argv, status, err[-2000:])
    assert "Traceback" not in err
    if status == 2:
        assert err.endswith("\n") and err.count("\n") == 1, (argv, err)
        assert re.match(r"mousehole( \w+)?: error: ", err) and err[:-1].isprintable(), (argv, err)
        assert out == "" or argv[0] == "simulate", (argv, out)  # (simulate tabulates each game as it goes)


def test_generated_argument_lists_end_in_a_status_never_an_exception(replay_files: List[str]) -> None:
    @bounded(250)
    @given(argv_lists(replay_files))
    def check(argv: List[str]) -> None:
        _ends_in_a_status(argv)

    check()


# --------------------------------------------------------------------------------------
# generated argument lists of bench, in-process (issue 39)


BENCH_HOSTILE = st.one_of(
    HOSTILE,
    st.sampled_from(
        [
            "1-1000000000",
            "99999999999999999999",
            "1000000000",
            "0",
            "-3",
            "2-",
            "6-2",
            "17",
            "1" * 300,
            "2,,3",
            "٣",
            "²",
        ]
    ),
)


@st.composite
def bench_argv_lists(draw: Any, files: Sequence[str]) -> List[str]:
    """``bench`` with each option mostly good, sometimes hostile (the sizes too large to run,
    files that are not a run, /dev/zero, nesting 100,000 deep)."""
    argv = ["bench"]
    argv += draw(_option("--games", ["m", "kasimir,m", "all"], st.one_of(JUNK, st.sampled_from(["chess", ","]))))
    argv += draw(_option("--players", ["4", "2,3", "2-6", "1-16"], BENCH_HOSTILE))
    argv += draw(_option("--sim-games", ["10", "100"], BENCH_HOSTILE))
    argv += draw(_option("--rounds", ["1", "2"], BENCH_HOSTILE))
    argv += draw(_option("--compare", files[:1], st.sampled_from(list(files[1:]))))
    argv += draw(_option("--json", [files[0] + ".new"], st.sampled_from(["/nonexistent/x.json", "/"])))
    argv += draw(st.sampled_from([[], ["--quick"], ["--no-c", "--no-threads"]]))
    argv += draw(_option("--engine", ENGINES, JUNK))
    return argv


@pytest.fixture(scope="module")
def bench_files(tmp_path_factory: Any) -> List[str]:
    """A run's JSON first, then files that are not one (and /dev/zero, a folder, a missing file)."""
    folder = tmp_path_factory.mktemp("bench")
    files = {
        "old.json": json.dumps({"games": {"m": {"compiled": {"clone_ns": 100.0}}}, "c_ratio": {}}),
        "deep.json": '{"games": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "list.json": "[1, 2]",
        "nan.json": '{"games": NaN}',
        "binary.json": "\udcff",
        "dup.json": '{"games": {}, "games": {}}',
    }
    paths = []
    for name, text in files.items():
        path = folder / name
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        paths.append(str(path))
    return paths + ["/dev/zero", str(folder), str(folder / "missing.json")]


def test_generated_bench_argument_lists_end_in_a_status_never_an_exception(
    bench_files: List[str], monkeypatch: Any
) -> None:
    """Every option of ``bench`` goes through the real parser, the real checks of --json and
    --compare and the real plan (``bench._plan``); only the measuring itself is replaced by
    a canned run, so that a good argument list ends at once. Whatever the list, the command
    ends with status 0 or 2 (one line), never an exception, and a run is planned within the
    documented bounds."""
    from mousehole import bench

    planned: List[Any] = []

    def measure(args: Any, extra: Any = None, log: Any = None) -> Any:
        names, counts, main = bench._plan(args)
        assert all(1 <= n <= bench.MAX_PLAYERS for ns in counts.values() for n in ns)
        assert args.rounds is None or 1 <= args.rounds <= bench.MAX_ROUNDS
        assert args.sim_games is None or 1 <= args.sim_games <= bench.MAX_SIM_GAMES
        planned.append(names)
        return {
            "machine": {"mousehole": mousehole.__version__, "commit": None, "cpu": "test", "cores": 1, "python": "3"},
            "quick": bool(args.quick),
            "games": {},
            "c_ratio": {},
            "threads": {},
            "notes": [],
        }

    monkeypatch.setattr(bench, "measure", measure)

    @bounded(200)
    @given(bench_argv_lists(bench_files))
    def check(argv: List[str]) -> None:
        _ends_in_a_status(argv)

    check()
    assert planned, "no generated list was a good one"
