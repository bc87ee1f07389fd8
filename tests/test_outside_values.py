"""Values from outside (issue 39, item 2): one rule for every value that enters mousehole.

Each finding of the issue's "Resources and bad values" and "Smaller ones" lists that item 2
covers is a test here, on both engines where an engine is involved: numpy scalars and
``str``/``int`` subclasses as parameter values (``load``, the environments, OpenSpiel),
``max_turns``'s one bound in ``load`` and records (and the command line that records),
nesting bounded before anything recurses, the sizes of ``render.rgb_array`` and of
``mousehole bench``'s options, messages that quote a bounded prefix of a bad value,
``records.dumps``'s seat names, OpenSpiel's ``rng_seed`` in mousehole's terms, and Maus au
Chocolat's history checked against the position. What a shell sees runs through
``python -m mousehole`` in a child process with a timeout.
"""

from __future__ import annotations

import doctest
import json
import os
import random
import re
import subprocess
import sys
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import mousehole
from mousehole import _values, records
from mousehole._values import MAX_TURNS, MAX_VALUE_DEPTH, exact, plain_value, shorten

GAMES = mousehole.game_names()
ENV = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="80")
#: the longest message a refused value may give (a message names the value, the rule and
#: what is allowed: a few lines at most, never the value itself)
LONGEST = 400


def shell(*argv: str, timeout: float = 120, cwd: Any = None) -> Tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "mousehole", *argv],
        capture_output=True,
        timeout=timeout,
        env=ENV,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
    )
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


def one_line_error(status: int, out: str, err: str, message: str) -> str:
    assert status == 2, (status, err[-3000:])
    assert err.endswith("\n") and err.count("\n") == 1, err[-3000:]
    assert "Traceback" not in err and err[:-1].isprintable(), err[-3000:]
    assert message in err, err
    return err[:-1]


def deep(depth: int) -> Any:
    v: Any = 0
    for _ in range(depth):
        v = [v]
    return v


def numpyish(v: Any) -> Any:
    """``v`` (plain data) with every scalar a numpy scalar, every str key a numpy str."""
    if isinstance(v, bool):
        return np.bool_(v)
    if isinstance(v, int):
        return np.int64(v)
    if isinstance(v, str):
        return np.str_(v)
    if isinstance(v, list):
        return [numpyish(x) for x in v]
    if isinstance(v, dict):
        return {np.str_(k): numpyish(x) for k, x in v.items()}
    return v


def assert_plain(v: Any, where: str = "params") -> None:
    """Every value of ``v`` has an exact built-in type (plain data)."""
    t = type(v)
    if t is list:
        for i, x in enumerate(v):
            assert_plain(x, f"{where}[{i}]")
    elif t is dict:
        for k, x in v.items():
            assert type(k) is str, (where, k)
            assert_plain(x, f"{where}[{k!r}]")
    else:
        assert v is None or t in (bool, int, float, str), (where, t)


def played(game: Any, seed: int = 3, steps: int = 6) -> Any:
    state = game.new_state(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(int(state.legal_actions()[0]))
    return state


class AlwaysEqual(str):
    """A str whose ``==`` answers true (and ``!=`` false) whatever it is compared with."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = str.__hash__


# --------------------------------------------------------------------------------------
# numpy scalars and subclasses as parameter values


@pytest.mark.parametrize("name", GAMES)
def test_numpy_parameter_values_are_plain_python_values(name: str, engine: str) -> None:
    """Issue 39: ``tie_break=np.str_("fewest_turns")`` played right but made ``to_dict()``
    not JSON (the value was kept as UTF-32 bytes), ``records.dumps`` a TypeError and
    ``repr(game)`` not eval-able. Every parameter of every game given as numpy values (numpy
    str, int and bool scalars, a numpy str key) is the same game as with Python values."""
    plain = mousehole.load(name, players=3, engine=engine)
    given = {k: numpyish(v) for k, v in plain.params.items()}
    game = mousehole.load(name, engine=engine, **given)
    assert game == plain and game.params == plain.params
    assert_plain(game.params)
    assert json.dumps(game.params, sort_keys=True) == json.dumps(plain.params, sort_keys=True)
    assert eval(repr(game), {"mousehole": mousehole}) == game
    state = played(game)
    assert json.loads(json.dumps(state.to_dict())) == state.to_dict()
    assert records.loads(records.dumps(state, date=None), engine=engine).final_state(engine=engine) == state


@pytest.mark.parametrize("name", GAMES)
def test_every_reading_takes_a_numpy_str_and_refuses_a_str_subclass_with_its_own_eq(name: str, engine: str) -> None:
    """Issue 39: a ``str`` subclass whose ``==`` always answers true passed every reading's
    check. A value is read as the exact ``str`` it holds: a numpy str of a reading is that
    reading, a subclass holding anything else is refused, whatever its ``==`` says."""
    readings = type(mousehole.load(name, engine=engine)).READINGS
    assert readings
    for r in readings:
        for value in r.values:
            game = mousehole.load(name, engine=engine, **{r.param: np.str_(value)})
            assert type(game.params[r.param]) is str and game.params[r.param] == value
            same = mousehole.load(name, engine=engine, **{r.param: AlwaysEqual(value)})
            assert type(same.params[r.param]) is str and same.params[r.param] == value
        with pytest.raises(mousehole.ParameterError, match=rf"{r.param} must be one of .*got 'no such reading'"):
            mousehole.load(name, engine=engine, **{r.param: AlwaysEqual("no such reading")})


def test_int_and_float_subclasses_are_read_as_the_builtin_value(engine: str) -> None:
    """An ``int`` subclass with its own ``==`` is the int it holds (an IntEnum too); numpy
    floats and bools for int parameters stay refused, with the parameter named."""
    import enum

    class Lying(int):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = int.__hash__

    class Seats(enum.IntEnum):
        THREE = 3

    for players in (Lying(3), Seats.THREE, np.uint8(3)):
        game = mousehole.load("kasimir", engine=engine, players=players)
        assert game.num_players == 3 and type(game.params["players"]) is int
    for bad in (np.float64(3.0), np.bool_(True), 3.0):
        with pytest.raises(mousehole.ParameterError, match="kasimir: players must be an int from 2 to 4"):
            mousehole.load("kasimir", engine=engine, players=bad)


def test_numpy_arrays_and_tuples_are_read_as_lists(engine: str) -> None:
    game = mousehole.load("kasimir", engine=engine, traps=np.array([3, 9]), die=(1, 2, "clover"))
    assert game.params["traps"] == [3, 9] and game.params["die"] == [1, 2, "clover"]
    assert_plain(game.params)
    default = mousehole.load("m", engine=engine)
    m = mousehole.load(
        "m",
        engine=engine,
        colours=np.array(default.params["colours"]),
        start_layout=np.array(default.params["start_layout"]),
    )
    assert m == default and type(m.params["colours"][0]) is str and type(m.params["start_layout"][0][0]) is int
    for bad in (np.array([object()]), np.array([1 + 2j]), {3, 9}, b"ab", object()):
        with pytest.raises(mousehole.ParameterError, match="kasimir: traps"):
            mousehole.load("kasimir", engine=engine, traps=bad)


@pytest.mark.parametrize("name", GAMES)
def test_state_dicts_are_read_as_the_plain_data_they_hold(name: str, engine: str) -> None:
    """A str subclass with its own ``==`` in a state dict is checked as the str it holds
    (a number subclass as the number, numpy scalars as Python values): what the checks see
    is what the engine builds from."""
    game = mousehole.load(name, players=3, engine=engine)
    d = played(game, steps=4).to_dict()
    strings = [k for k, v in d.items() if type(v) is str]
    for key in strings:
        with pytest.raises(mousehole.StateError):
            game.state_from_dict(dict(d, **{key: AlwaysEqual("bogus")}))
        assert game.state_from_dict(dict(d, **{key: AlwaysEqual(d[key])})).to_dict() == d
    with pytest.raises(mousehole.StateError, match="keys are strings"):
        game.state_from_dict({AlwaysEqual(k) if k == "history" else k: v for k, v in d.items()})
    numbers = dict(d, history=[np.int64(a) for a in d["history"]])
    loaded = game.state_from_dict(numbers)
    assert loaded.to_dict() == d and all(type(a) is int for a in loaded.to_dict()["history"])


@pytest.mark.skipif(sys.version_info < (3, 10), reason="gymnasium and pettingzoo need Python 3.10+")
def test_the_environments_take_numpy_parameter_values(engine: str) -> None:
    """Issue 39: ``gymnasium.make`` and ``pettingzoo.env`` with numpy parameter values
    gave a game whose dicts were not JSON."""
    import gymnasium

    import mousehole.gymnasium  # noqa: F401  (registers the ids)
    from mousehole import pettingzoo

    env = gymnasium.make(
        "mousehole/Kasimir-v0",
        players=np.int64(2),
        engine=engine,
        tie_break=np.str_("fewest_turns"),
        traps=np.array([2, 5]),
    )
    game = env.unwrapped.game
    assert game.params["tie_break"] == "fewest_turns" and game.params["traps"] == [2, 5]
    assert_plain(game.params)
    json.dumps(played(game).to_dict())
    aec = pettingzoo.env(
        "m",
        engine=engine,
        players=np.int64(3),
        colours=numpyish(["a", "b", "c", "d", "e"]),
        cards=numpyish([[c, v, s] for c, v, s in _renamed_cards()]),
    )
    assert_plain(aec.game.params)
    json.dumps(played(aec.game).to_dict())
    env.close()
    aec.close()


def _renamed_cards() -> List[List[Any]]:
    colours = dict(zip(["blue", "green", "pink", "yellow", "orange"], "abcde"))
    return [[colours[c], v, s] for c, v, s in mousehole.load("m").params["cards"]]


def test_openspiel_takes_numpy_values_and_refuses_rng_seed_beyond_32_bits() -> None:
    """Issue 39: ``load_game("kasimir", rng_seed=2**31)`` raised pybind11's RuntimeError, a
    numpy ``rng_seed`` a TypeError; now every value is checked in mousehole's terms first."""
    pytest.importorskip("pyspiel", reason="open_spiel is not installed (Python 3.11+)")
    from mousehole import openspiel

    for seed, words in (
        (2**31, "or a seed 0..2147483647 (OpenSpiel's ints are 32-bit), got 2147483648"),
        (-2, "got -2"),
        (True, "got True"),
        (2**70, "got 1180591620717411303424"),
    ):
        with pytest.raises(mousehole.ParameterError, match=re.escape(words)):
            openspiel.load_game("kasimir", rng_seed=seed)
    with pytest.raises(mousehole.ParameterError, match="max_turns must be an int from 1 to 1,000,000"):
        openspiel.load_game("kasimir", max_turns=2**40)
    import pyspiel  # an OpenSpiel game string: the same rule and the same bounds

    openspiel.register()
    for text, words in (
        ("mousehole_kasimir(max_turns=1000001)", "max_turns must be an int from 1 to 1,000,000"),
        ("mousehole_kasimir(tie_break=" + "x" * 5000 + ")", "a string of at most 1,000 characters"),
    ):
        with pytest.raises(mousehole.ParameterError, match=re.escape(words)) as info:
            pyspiel.load_game(text)
        assert len(str(info.value)) <= LONGEST
    game = openspiel.load_game(
        "kasimir", rng_seed=np.int64(5), tie_break=np.str_("fewest_turns"), max_turns=np.int32(50), engine="python"
    )
    assert game.mousehole_game.params["tie_break"] == "fewest_turns"
    assert game.get_parameters()["rng_seed"] == 5 and game.get_parameters()["max_turns"] == 50


# --------------------------------------------------------------------------------------
# one bound for max_turns (load, records, the command line)


@pytest.mark.parametrize("name", GAMES)
def test_max_turns_is_bounded_alike_in_load_and_records(name: str, engine: str) -> None:
    """Issue 39: ``load`` took ``max_turns`` above 1,000,000, which records refuse. One
    bound now, ``mousehole._values.MAX_TURNS``, for both."""
    assert records.MAX_TURNS == MAX_TURNS == 1_000_000
    for bad in (MAX_TURNS + 1, 2**63, 10**30):
        with pytest.raises(mousehole.ParameterError, match=rf"{name}: max_turns must be an int from 1 to 1,000,000"):
            mousehole.load(name, engine=engine, max_turns=bad)
    state = played(mousehole.load(name, players=2, engine=engine, max_turns=MAX_TURNS))
    assert records.loads(records.dumps(state, date=None), engine=engine).final_state(engine=engine) == state


@pytest.mark.parametrize("name", GAMES)
def test_whatever_load_accepts_a_record_holds(name: str, engine: str) -> None:
    """One range for every parameter: each parameter of each game given values at and past
    the bounds of a record (numbers of 64 bits and more, huge floats, strings of 1,000
    characters, nested ones): either ``load`` refuses it or a record of the game writes and
    reads back (``max_turns`` above 1,000,000 was the one ``load`` took and records refused)."""
    edges = (
        2**63,
        2**64,
        -(2**63) - 1,
        2**70,
        1e300,
        -1e300,
        0.5,
        "x" * 1000,
        [2**64],
        ["x" * 1000],
        {"a": 2**64},
        MAX_TURNS + 1,
    )
    for key in sorted(mousehole.load(name, engine=engine).params):
        for value in edges:
            try:
                game = mousehole.load(name, engine=engine, **{key: value})
            except mousehole.ParameterError:
                continue
            state = played(game, steps=2)
            assert records.loads(records.dumps(state, date=None), engine=engine).final_state(engine=engine) == state


def test_play_and_arena_refuse_max_turns_beyond_a_record_up_front(tmp_path: Any) -> None:
    """Issue 39: ``play ... --param max_turns=1000001 --record r.json`` played the whole game,
    then ended in a traceback with an empty record file; ``arena --records`` wrote nothing.
    Both refuse the value before the game, and write no file."""
    record, arena_records = tmp_path / "r.json", tmp_path / "a.json"
    one_line_error(
        *shell(
            "play", "m", "--players", "2", "--bots", "random", "--param", "max_turns=1000001", "--record", str(record)
        ),
        "max_turns must be an int from 1 to 1,000,000, got 1000001",
    )
    one_line_error(
        *shell(
            "arena",
            "m",
            "--players",
            "2",
            "--bots",
            "random,random",
            "--games",
            "1",
            "--param",
            "max_turns=1000001",
            "--records",
            str(arena_records),
        ),
        "max_turns must be an int from 1",
    )
    assert not record.exists() and not arena_records.exists()


def test_m_names_fit_the_moves_a_record_holds(engine: str) -> None:
    """A move names its card (``place <colour> <value> <symbol> at r,c``): colour and symbol
    names are at most ``m.MAX_NAME`` characters, so that every move of a game ``load``
    accepts fits a record (a 300-character colour was accepted, and its record refused)."""
    from mousehole.m import MAX_NAME

    long_colours = [c * MAX_NAME for c in "abcde"]
    long_symbols = [s * MAX_NAME for s in "wxyz"]
    default = mousehole.load("m").params
    cmap = dict(zip(default["colours"], long_colours))
    smap = dict(zip(default["symbols"], long_symbols))
    cards = [[cmap[c], v, None if s is None else smap[s]] for c, v, s in default["cards"]]
    game = mousehole.load("m", players=2, engine=engine, colours=long_colours, symbols=long_symbols, cards=cards)
    state = game.new_state(7)
    rng = random.Random(7)
    while not state.is_terminal() and len(state.history) < 60:
        state.apply_action(rng.choice(list(state.legal_actions())))
    assert records.loads(records.dumps(state, date=None), engine=engine).final_state(engine=engine) == state
    for colours in ([c + "!" for c in long_colours], ["\ud800", "b", "c", "d", "e"], ["", "b", "c", "d", "e"]):
        with pytest.raises(mousehole.ParameterError, match="colours"):
            mousehole.load("m", engine=engine, colours=colours)


# --------------------------------------------------------------------------------------
# nesting bounded before anything recurses


@pytest.mark.parametrize("name", GAMES)
def test_a_deeply_nested_value_of_any_parameter_is_a_parameter_error(name: str, engine: str) -> None:
    """Issue 39: ``load(param=<a list nested 2,000 deep>)`` ended in RecursionError for 29 of
    36 parameters. Every parameter of every game: one ParameterError naming it."""
    keys = sorted(mousehole.load(name, engine=engine).params)
    for key in keys:
        for value in (deep(2000), {"a": deep(2000)}, deep(MAX_VALUE_DEPTH + 1)):
            with pytest.raises(
                mousehole.ParameterError,
                match=rf"^{name}: {key}: nested too deeply \(lists and "
                rf"dicts at most {MAX_VALUE_DEPTH} deep\)$",
            ):
                mousehole.load(name, engine=engine, **{key: value})
    # at the bound the value is read (and refused by the game for what it is, not its depth)
    with pytest.raises(mousehole.ParameterError) as info:
        mousehole.load(name, engine=engine, max_turns=deep(MAX_VALUE_DEPTH))
    assert "nested too deeply" not in str(info.value)


def test_deep_param_and_compare_values_are_one_line_errors(tmp_path: Any) -> None:
    """Issue 39: ``--param "traps=[[[...]]]"`` 2,400 deep and ``bench --compare`` of deeply
    nested JSON ended in RecursionError tracebacks. The depth is checked before parsing."""
    value = "[" * 2400 + "]" * 2400
    one_line_error(
        *shell("show", "kasimir", "--param", f"traps={value}"),
        f"argument --param: traps: VALUE nests arrays and objects 2400 deep; a parameter value "
        f"nests at most {MAX_VALUE_DEPTH} deep",
    )
    one_line_error(
        *shell("simulate", "m", "--games", "1", "--param", "colours=" + '{"a":' * 1500 + "1" + "}" * 1500),
        "VALUE nests arrays and objects 1500 deep",
    )
    at_bound = "[" * MAX_VALUE_DEPTH + "]" * MAX_VALUE_DEPTH
    status, _, err = shell("show", "kasimir", "--param", f"traps={at_bound}")
    one_line_error(status, "", err, "traps holds [")  # read, then refused by the game (KK-1), not for its depth
    deep_file = tmp_path / "deep.json"
    deep_file.write_text('{"games": ' + "[" * 100_000 + "]" * 100_000 + "}")
    one_line_error(
        *shell("bench", "--compare", str(deep_file)),
        "nested too deeply: arrays and objects at most 32 deep, got 100001",
    )


# --------------------------------------------------------------------------------------
# sizes


BAD_SIZES: List[Tuple[Any, type]] = [
    (float("nan"), ValueError),
    (float("inf"), ValueError),
    (1e-300, ValueError),
    (2**64, ValueError),
    (1e300, ValueError),
    (10**400, ValueError),
    (1e5, ValueError),
    (1e9, ValueError),
    (20_000, ValueError),
    (0, ValueError),
    (-5, ValueError),
    (15.9, ValueError),
    (True, TypeError),
    (np.True_, TypeError),
    ("300", TypeError),
    ([300], TypeError),
    (None, None),
]


@pytest.mark.parametrize("size, error", BAD_SIZES, ids=[repr(s)[:20] for s, _ in BAD_SIZES])
def test_rgb_array_sizes_have_one_documented_range(size: Any, error: Any) -> None:
    """Issue 39: ``rgb_array(size=...)`` was unbounded: CairoError from 1e5, OverflowError at
    1e300 and 2**64, Pillow's DecompressionBombError at 20,000 after up to 3 GB, and 1e-300
    silently the default size. The width is from MIN_SIZE to MAX_SIZE pixels, in svg too."""
    pytest.importorskip("cairosvg", reason="the render extra (CairoSVG) is not installed")
    from mousehole import render

    state = mousehole.load("m", players=2).new_state(1)
    if error is None:  # (None: the picture's own size)
        assert render.rgb_array(state, size=size).shape == (632, 850, 3)
        return
    for draw in (render.rgb_array, render.svg):
        with pytest.raises(
            error,
            match=r"^size must be a number of pixels \(the picture's width\) from 16 to "
            r"4,096, (got|not) ",
        ):
            draw(state, size=size)


def test_rgb_array_at_the_bounds() -> None:
    pytest.importorskip("cairosvg", reason="the render extra (CairoSVG) is not installed")
    from mousehole import render

    assert (render.MIN_SIZE, render.MAX_SIZE) == (16, 4096)
    state = mousehole.load("maus_au_chocolat", players=6).new_state(1)
    assert render.rgb_array(state, size=render.MIN_SIZE).shape[1] == 16
    big = render.rgb_array(state, size=render.MAX_SIZE)
    assert big.shape == (3398, 4096, 3) and big.dtype == np.uint8


BENCH_ARGS: List[Tuple[List[str], str]] = [
    (["--players", "1-1000000000"], "argument --players: player counts are from 1 to 16, got '1-1000000000'"),
    (
        ["--players", "2-" + "9" * 5000],
        "argument --players: expected player counts such as 4, 2,3 or 2-6 (at most 200 characters)",
    ),
    (["--players", "٣"], "argument --players: expected player counts such as 4, 2,3 or 2-6 in ASCII digits, got '٣'"),
    (
        ["--sim-games", "99999999999999999999"],
        "argument --sim-games: must be from 1 to 10,000,000, got 99,999,999,999,999,999,999",
    ),
    (["--sim-games", "7" * 10_000], "argument --sim-games: expected an integer of at most 40 characters"),
    (["--rounds", "1000000000"], "argument --rounds: must be from 1 to 100, got 1,000,000,000"),
    (["--rounds", "0"], "argument --rounds: must be from 1 to 100, got 0"),
    (
        ["--compare", "/dev/zero"],
        "argument --compare: /dev/zero: too large: a benchmark run's JSON is at most 16,777,216 bytes",
    ),
    (["--compare", "/nonexistent/old.json"], "argument --compare: cannot read /nonexistent/old.json"),
]


@pytest.mark.parametrize("argv, message", BENCH_ARGS, ids=[str(i) for i in range(len(BENCH_ARGS))])
def test_bench_options_are_bounded(argv: List[str], message: str) -> None:
    """Issue 39: ``bench --players 1-1000000000`` ended in MemoryError, ``--sim-games
    99999999999999999999`` in a ValueError after 11 s, ``--compare /dev/zero`` read without
    a limit and ``--rounds 1000000000`` ran without bound: each is one line and status 2,
    before anything is measured."""
    one_line_error(*shell("bench", *argv, timeout=60), message)


def test_bench_compare_reads_a_run_and_refuses_what_is_not_one(tmp_path: Any) -> None:
    from mousehole import bench

    good = tmp_path / "old.json"
    good.write_text(json.dumps({"games": {"m": {"compiled": {"clone_ns": 100.0}}}}))
    assert bench._read_compare(str(good)) == {"games": {"m": {"compiled": {"clone_ns": 100.0}}}}
    for text, words in (
        ("[1]", "is not the JSON of a benchmark run"),
        ('{"games": 1}', "is not the JSON"),
        ('{"games": {}, "games": {}}', "duplicate key 'games'"),
        ("{", "not JSON"),
        ('{"games": NaN}', "NaN is not a JSON number"),
    ):
        good.write_text(text)
        got = bench._read_compare(str(good))
        assert isinstance(got, str) and words in got and "\n" not in got, got


# --------------------------------------------------------------------------------------
# messages quote a bounded prefix


@pytest.mark.parametrize("name", GAMES)
def test_a_huge_bad_value_gives_a_short_message(name: str, engine: str) -> None:
    """Issue 39: a 1 MB string gave a 1 MB ParameterError. Every parameter of every game
    given a 1 MB string, a million-item list, an int of 5,000 digits or a weird object: the
    message names the parameter and stays short."""

    class Loud:
        def __repr__(self) -> str:
            return "loud " * 1_000_000

    keys = sorted(mousehole.load(name, engine=engine).params)
    for key in keys:
        for value in ("x" * 10**6, ["x" * 999] * 10**6, [10**5000], 10**5000, Loud(), {"k" * 10**6: 1}):
            with pytest.raises(mousehole.ParameterError) as info:
                mousehole.load(name, engine=engine, **{key: value})
            text = str(info.value)
            assert len(text) <= LONGEST and key in text, (key, text[:500])


@pytest.mark.parametrize("name", GAMES)
def test_a_huge_bad_value_in_a_state_dict_gives_a_short_message(name: str, engine: str) -> None:
    """The same for every key of a state dict and of a view: a 1 MB string, an int of 5,000
    digits, a list holding a 1 MB string, a list nested 3,000 deep."""
    game = mousehole.load(name, players=3, engine=engine)
    state = played(game, steps=10)
    for base, load in (
        (state.to_dict(), game.state_from_dict),
        (state.to_dict(for_player=1), lambda v: game.determinize_view(v, 1)),
    ):
        for key in base:
            for value in ("x" * 10**6, 10**5000, ["x" * 10**6], deep(3000)):
                with pytest.raises(mousehole.StateError) as info:
                    load(dict(base, **{key: value}))
                assert len(str(info.value)) <= LONGEST, (key, str(info.value)[:500])


@pytest.mark.parametrize("name", GAMES)
def test_a_huge_move_text_gives_a_short_message(name: str, engine: str) -> None:
    """Issue 39: a 100 KB ``show --moves`` gave a 100 KB line: the parsers quote a prefix."""
    state = mousehole.load(name, players=2, engine=engine).new_state(1)
    for text in (
        "x" * 100_000,
        "place " + "1" * 100_000,
        "bid " + "x" * 100_000,
        "dog@" + "1" * 100_000,
        "pantry+" + "1" * 100_000,
        "space " + "1" * 10_000 + " +2",
        "roll " + "9" * 10_000,
    ):
        with pytest.raises(ValueError) as info:
            state.parse_action(text)
        assert len(str(info.value)) <= LONGEST, str(info.value)[:500]


def test_arena_quotes_a_prefix_of_huge_bot_specs() -> None:
    """``--bots`` with an empty or a bad spec among 100 KB quoted the whole text."""
    for bots in ("random,," + "x" * 100_000, "random,mcts:" + "9" * 100_000):
        line = one_line_error(
            *shell("arena", "m", "--players", "2", "--bots", bots, "--games", "1"), "argument --bots: "
        )
        assert len(line) <= 600, len(line)


def test_show_quotes_a_prefix_of_a_huge_move() -> None:
    line = one_line_error(
        *shell("show", "maus_au_chocolat", "--players", "2", "--seed", "1", "--moves", "bid " + "x" * 100_000),
        "argument --moves: move 1 ('bid xxx",
    )
    assert len(line) <= 600, len(line)


def test_shorten_is_bounded_for_any_value() -> None:
    class Raising:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    wide = {f"key{i}": list(range(1000)) for i in range(1000)}
    cases = [
        "x" * 10**6,
        10**5000,
        -(10**5000),
        deep(5000),
        wide,
        np.arange(10**6),
        Raising(),
        np.str_("abc"),
        "\x1b[2J\n" * 1000,
        b"\xff" * 10**6,
        "\ud800" * 100,
        1.5,
        None,
    ]
    for x in cases:
        for limit in (12, 40, 60, 199):
            text = shorten(x, limit)
            assert len(text) <= limit and text.isprintable() and "\n" not in text, (limit, text)
    assert shorten(np.str_("abc")) == "'abc'" and shorten("x" * 100, 12) == "'xxxxxx...'"
    assert shorten(10**5000) == "<an int of about 5,001 digits>"


def test_the_values_module_doctests() -> None:
    result = doctest.testmod(_values, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_one_integer_rule_read_four_ways() -> None:
    """Issue 40, item 5: every integer check of the package goes through ``_values``'s
    four readings of one rule: a bool is never an int, a float never one, a digit of
    another script never an ASCII digit."""
    from mousehole._values import as_int, ascii_digits, index_arg, int_text, is_int

    class Int(int):
        pass

    for x in (True, np.bool_(True), 1.0, "1", None):
        assert not is_int(x) and as_int(x) is None, x
        with pytest.raises(TypeError, match=f"^seat must be an int, not {type(x).__name__}$"):
            index_arg(x, "seat")
    assert is_int(3) and is_int(Int(3)) and not is_int(np.int64(3))  # plain data: no numpy
    assert as_int(np.int64(3)) == 3 and type(as_int(Int(3))) is int and type(as_int(np.uint8(3))) is int
    assert index_arg(np.int32(-2), "x") == -2 and type(index_arg(Int(5), "x")) is int
    with pytest.raises(TypeError, match=r"^an action must be an int \(or use state.apply\(move\)\), not float$"):
        mousehole._api.check_action_type(1.0)
    with pytest.raises(TypeError, match="^a seed must be an int, not bool$"):
        mousehole.load("m", engine="python").new_state(seed=True)
    assert ascii_digits("0123") and not any(ascii_digits(t) for t in ("", "+1", "1_0", " 1", "\u0663", "\u00b2"))
    assert [int_text(t) for t in ("0", " 42 ", "+7", "-7", "9" * 40)] == [0, 42, 7, -7, int("9" * 40)]
    for text, why in [
        ("1_000", "expected an integer, got '1_000'"),
        ("1e3", "expected an integer, got '1e3'"),
        ("", "expected an integer, got ''"),
        ("+-1", "expected an integer, got '+-1'"),
        ("1 2", "expected an integer, got '1 2'"),
        ("0x10", "expected an integer, got '0x10'"),
        ("\u0663", "expected an integer in ASCII digits, got '\u0663'"),
        ("9" * 41, "expected an integer of at most 40 characters, got 41 characters"),
    ]:
        with pytest.raises(ValueError) as e:
            int_text(text)
        assert str(e.value) == why


def test_every_count_seed_and_seat_of_the_api_reads_one_integer_rule(engine: str) -> None:
    """Issue 40, item 5: the API's counts, seeds and seats (arena, VectorGame, the bots'
    budgets, the environments) take what a seat argument takes (an int, a numpy integer,
    anything with ``__index__``) and refuse a bool, numpy's too, with one message."""
    from mousehole import arena, bots
    from mousehole.vector import VectorGame

    class Idx:
        def __init__(self, v: int) -> None:
            self.v = v

        def __index__(self) -> int:
            return self.v

    game = mousehole.load("m", engine=engine, players=2)
    vg = VectorGame(game, Idx(2), Idx(7), threads=np.int8(1))
    assert vg.num_envs == 2
    result = arena.play(game, ["random", "random"], Idx(2), seed=np.uint64(5), start=Idx(1))
    assert len(result.outcomes) == 2
    for bad in (True, np.bool_(False)):
        with pytest.raises(TypeError, match="^num_envs must be an int, not bool$"):
            VectorGame(game, bad, 7)
        with pytest.raises(TypeError, match="^n_games must be an int, not bool$"):
            arena.play(game, ["random", "random"], bad)
        with pytest.raises(TypeError, match="^iterations must be an int, not bool$"):
            bots.MCTSBot(iterations=bad)


def test_the_command_lines_read_an_integer_alike() -> None:
    """``mousehole simulate`` (and play, show, arena, serve) and ``mousehole bench`` read a
    typed integer with one grammar: before issue 40 the first took ``1_000`` and ``1 000``
    (``int()``'s reading) where bench refused them."""
    import argparse

    from mousehole import bench, cli

    for text in ("7", " 7 ", "+7", "-7", "1_000", "1__0", "\u0663", "1e3", "", "9" * 41):
        try:
            got: Any = cli._int_value(text)
        except argparse.ArgumentTypeError as e:
            got = str(e)
        try:
            want: Any = bench._int_text(text, "an integer")
        except argparse.ArgumentTypeError as e:
            want = str(e)
        assert got == want, text
    one_line_error(
        *shell("simulate", "m", "--games", "1_000", timeout=60), "argument --games: expected an integer, got '1_000'"
    )


def test_exact_reads_subclasses_through_the_builtin_type() -> None:
    class S(str):
        def __str__(self) -> str:
            return "lie"

    class F(float):
        def __float__(self) -> float:
            return 0.0

    for x, want in (
        (S("truth"), "truth"),
        (F(2.5), 2.5),
        (np.float32(0.5), 0.5),
        (np.uint64(2**64 - 1), 2**64 - 1),
        (np.bool_(False), False),
        (np.str_("é"), "é"),
        (True, True),
    ):
        got = exact(x)
        assert got == want and type(got) is type(want), (x, got)
    thing = object()
    assert exact(thing) is thing and exact(b"x") == b"x"
    refuse = pytest.raises(ValueError)
    with refuse:
        plain_value({1: 2}, "p")
    with refuse:
        plain_value(["x" * 1001], "p")
    with refuse:
        plain_value([float("nan")], "p")
    with refuse:
        plain_value(list(range(100_001)), "p")
    assert plain_value((1, [np.int8(2)], {"a": np.str_("b")}), "p") == [1, [2], {"a": "b"}]


# --------------------------------------------------------------------------------------
# records' seat names


def test_records_seat_names_are_a_list_of_exact_str(engine: str) -> None:
    """Issue 39: ``records.dumps(seats="abc")`` made three seats, ``seats=[True]`` a seat
    named "True"."""
    state = played(mousehole.load("kasimir", players=3, engine=engine))
    with pytest.raises(records.RecordError, match=r"^seats: a list of 3 seat names \(str\), not str 'abc'$"):
        records.dumps(state, seats="abc")
    for seats, words in (
        ([True, "b", "c"], r"^seats\[0\]: a seat name is a str, not bool \(True\)$"),
        (["a", 7, "c"], r"^seats\[1\]: a seat name is a str, not int \(7\)$"),
        (["a", "b", None], r"^seats\[2\]: a seat name is a str, not NoneType"),
        ({"a": 1}, r"^seats: a list of 3 seat names"),
        (["a", "b"], r"^seats: 2 names for 3 seats$"),
    ):
        with pytest.raises(records.RecordError, match=words):
            records.dumps(state, seats=seats)
    rec = records.loads(records.dumps(state, seats=(np.str_("ann"), "bob", "cy"), date=None))
    assert rec.seats == ("ann", "bob", "cy") and all(type(s) is str for s in rec.seats)


# --------------------------------------------------------------------------------------
# Maus au Chocolat: the history against the position


def _mc_at(game: Any, seed: int, rnd: int, phase: str) -> Dict[str, Any]:
    state = game.new_state(seed)
    rng = random.Random(seed)
    while True:
        d = state.to_dict()
        if d["round"] == rnd and d["phase"] == phase:
            return d
        assert not state.is_terminal()
        state.apply_action(rng.choice(list(state.legal_actions())))


def test_maus_au_chocolat_refuses_an_empty_or_foreign_history_in_round_3(engine: str) -> None:
    """Issue 39: Maus au Chocolat's ``state_from_dict`` accepted an empty history, or another
    game's well-formed history, for a round-3 position. An empty history is a position set
    up directly, in round 1 only; a history must leave in the display every bid card no pick
    took since (MC-5, MC-9), which another deal's bids do not."""
    game = mousehole.load("maus_au_chocolat", players=3, engine=engine)
    for seed in range(6):
        d = _mc_at(game, seed, 3, "bid")
        assert game.state_from_dict(d).to_dict() == d
        with pytest.raises(mousehole.StateError, match="'history' is empty .* round 3 follows 2 rounds"):
            game.state_from_dict(dict(d, history=[]))
        other = _mc_at(game, seed + 50, 3, "bid")["history"]
        with pytest.raises(mousehole.StateError, match=r"MC-9, MC-5: card \d+ was laid in the display"):
            game.state_from_dict(dict(d, history=other))
    first = _mc_at(game, 1, 1, "combine")
    assert game.state_from_dict(dict(first, history=[])).history == []  # set up directly, in round 1


@pytest.mark.parametrize("players", [2, 4, 6])
def test_maus_au_chocolat_histories_of_whole_games_and_their_views_load(players: int, engine: str) -> None:
    """Every position of seeded random games (every reading that changes a round) and every
    determinization of it passes the display check: the check is a fact of the rules."""
    for params in ({}, {"henri_bonus": "optional", "etienne_swap": "also_hand_limit", "kept_card": "highest_printed"}):
        game = mousehole.load("maus_au_chocolat", players=players, engine=engine, **params)
        state = game.new_state(players)
        rng = random.Random(players)
        while not state.is_terminal():
            assert game.state_from_dict(state.to_dict()) == state
            if rng.random() < 0.2:
                p = rng.randrange(players)
                assert state.determinize(p, 5).to_dict(for_player=p) == state.to_dict(for_player=p)
            state.apply_action(rng.choice(list(state.legal_actions())))
        assert game.state_from_dict(state.to_dict()) == state


# --------------------------------------------------------------------------------------
# the options of the API and the environments: the exact str, a short message


def test_engine_game_id_and_parameter_names_are_read_as_exact_str(engine: str) -> None:
    """A str subclass whose ``==`` always answers true was taken as an engine (and kept in
    ``repr(game)``), a numpy str engine left ``np.str_`` in the repr; a 1 MB unknown
    parameter name gave a 1 MB ParameterError."""
    with pytest.raises(mousehole.ParameterError, match=r"^engine must be 'compiled' or 'python', got 'bogus'$"):
        mousehole.load("m", engine=AlwaysEqual("bogus"))

    class Name(str):
        pass

    game = mousehole.load(np.str_("m"), engine=np.str_(engine), **{Name("players"): 2})
    assert type(game.engine) is str and game.engine == engine and game.num_players == 2
    assert repr(game) == f"mousehole.load('m', players=2, engine='{engine}')"
    assert eval(repr(game), {"mousehole": mousehole}) == game
    for params, words in (
        ({"x" * 10**6: 1}, "unknown parameter(s) xxxx"),
        (
            {f"k{i}": 1 for i in range(10**5)},
            "unknown parameter(s) k0, k1, k10, k100, k1000 and 99,995 more; allowed: ",
        ),
    ):
        with pytest.raises(mousehole.ParameterError) as info:
            mousehole.load("m", engine=engine, **params)
        assert words in str(info.value) and len(str(info.value)) <= LONGEST, str(info.value)[:500]


def test_huge_actions_and_seats_give_short_messages(engine: str) -> None:
    """An action or seat of 5,000 digits raised Python's "Exceeds the limit (4300 digits)"
    ValueError from the message's own formatting instead of the error naming the value."""
    state = mousehole.load("m", players=2, engine=engine).new_state(1)
    with pytest.raises(mousehole.IllegalMoveError, match=r"^action <an int of about 5,001 digits> is out of range"):
        state.apply_action(10**5000)
    with pytest.raises(ValueError, match=r"<an int of about 5,001 digits> is out of range: this game has seats 0\.\.1"):
        state.observation(10**5000)


@pytest.mark.skipif(sys.version_info < (3, 10), reason="gymnasium and pettingzoo need Python 3.10+")
def test_the_environments_read_their_options_as_exact_str(engine: str) -> None:
    """``render_mode``, ``render_view``, ``illegal_action`` and agents: a numpy str is the str
    it holds, a str subclass whose ``==`` always answers true is refused for the value it
    holds, and a 1 MB value gives a short message (they passed, or were quoted whole)."""
    from mousehole import pettingzoo
    from mousehole.gymnasium import MouseholeEnv

    env = MouseholeEnv(
        "kasimir",
        engine=engine,
        render_mode=np.str_("ansi"),
        render_view=np.str_("full"),
        illegal_action=np.str_("raise"),
    )
    assert (type(env.render_mode), type(env.render_view), type(env.illegal_action)) == (str, str, str)
    aec = pettingzoo.env(
        "kasimir",
        engine=engine,
        render_mode=np.str_("ansi"),
        illegal_action=np.str_("lose"),
        render_view=np.str_("full"),
    )
    assert (type(aec.render_mode), type(aec.illegal_action), type(aec.render_view)) == (str, str, str)
    aec.reset(seed=1)
    assert aec.observe(np.str_("player_0")) is not None
    for bad in (AlwaysEqual("zzz"), "x" * 10**6):
        for make in (
            lambda v: MouseholeEnv("kasimir", engine=engine, render_mode=v),
            lambda v: MouseholeEnv("kasimir", engine=engine, render_view=v),
            lambda v: MouseholeEnv("kasimir", engine=engine, illegal_action=v),
            lambda v: pettingzoo.env("kasimir", engine=engine, render_mode=v),
            lambda v: pettingzoo.parallel_env("kasimir", engine=engine, illegal_action=v),
            lambda v: pettingzoo.env("kasimir", engine=engine, render_view=v),
            lambda v: aec.observe(v),
        ):
            with pytest.raises(ValueError) as info:
                make(bad)
            text = str(info.value)
            assert len(text) <= LONGEST and ("'zzz'" in text or "xxx...'" in text), text[:500]


def test_search_reads_its_options_as_exact_str(engine: str) -> None:
    from mousehole import bots

    state = mousehole.load("kasimir", players=2, engine=engine).new_state(2)
    result = bots.search(state, algorithm=np.str_("mcts"), engine=np.str_(engine), iterations=5, seed=1)
    assert type(result.algorithm) is str and result.algorithm == "mcts"
    for kwargs in ({"algorithm": AlwaysEqual("zzz")}, {"engine": AlwaysEqual("zzz")}, {"algorithm": "x" * 10**6}):
        with pytest.raises(ValueError) as info:
            bots.search(state, iterations=5, **kwargs)
        assert len(str(info.value)) <= LONGEST, str(info.value)[:500]


class Sneaky(AlwaysEqual):
    """A str whose own methods lie: a move is read from the str it holds, never through them."""

    def split(self, *args: Any, **kwargs: Any) -> List[str]:  # type: ignore[override]
        return ["pass"]

    def strip(self, *args: Any) -> str:
        return "pass"

    def lower(self) -> str:
        return "pass"

    def casefold(self) -> str:
        return "pass"

    def startswith(self, *args: Any) -> bool:  # type: ignore[override]
        return True


@pytest.mark.parametrize("name", GAMES)
def test_moves_are_read_from_the_str_a_subclass_holds(name: str, engine: str) -> None:
    """``parse_action``/``parse_move`` read the text a ``str`` subclass holds, not through
    its own ``split``, ``strip`` or ``lower`` (M read 'place ...' through them and refused it)."""
    state = played(mousehole.load(name, players=2, engine=engine), steps=3)
    for a in [int(x) for x in state.legal_actions()][:5]:
        for text in (state.describe(a), str(state.game.action_to_move(a))):
            assert state.parse_action(Sneaky(text)) == a == state.parse_action(np.str_(text))
    with pytest.raises(ValueError):
        state.parse_action(Sneaky("no such move"))
