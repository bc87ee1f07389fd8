"""Readings of the rules (``Game.READINGS``): every non-default value of every game's readings
goes through the generic suites that matter for a parameter: both engines step by step,
``simulate`` on both engines, views and determinization, records, ``VectorGame`` and the
state-dict fuzz; plus the declarations themselves (defaults, validation, the docs page's
Readings table and ``mousehole rules``).

The hand-computed positions where the readings differ are in each game's
``test_<game>_readings.py``. The generic runs here are a quarter of the default games'
sizes (``MOUSEHOLE_TEST_SCALE`` scaled by :data:`SHARE`): one configuration per value at the
game's smallest player count and at four players for the suites that compare the two engines
(they run in the session with both), at the smallest count for the others, which run on the
session's default engine
(:data:`ENGINE`: the compiled one, or the reference with ``MOUSEHOLE_PUREPYTHON=1``), so that
each runs once a session.
"""

from __future__ import annotations

import json
import os
import pickle
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import mousehole
from mousehole import _api
from mousehole.cli import rules_text

#: the share of the default test sizes the generic runs use per reading value
SHARE = 0.25
#: the engine of the single-engine suites: the session's default
ENGINE = mousehole.default_engine()
DOCS = Path(__file__).resolve().parent.parent / "docs" / "games"


def reading_cases() -> List[Tuple[str, Dict[str, Any]]]:
    """``(game, params)``: every non-default value of every reading, at the smallest player
    count and at four players."""
    out: List[Tuple[str, Dict[str, Any]]] = []
    for name in mousehole.game_names():
        cls = _api._REGISTRY[name]
        for r in cls.READINGS:
            for value in r.values[1:]:
                for n in sorted({cls.min_players, 4}):
                    out.append((name, {"players": n, r.param: value}))
    return out


CASES = reading_cases()
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in sorted(p.items()))}" for name, p in CASES]
#: the single-engine suites at the game's smallest player count only (the differential runs
#: above cover four players as well)
SMALL = [(c, i) for c, i in zip(CASES, IDS) if c[1]["players"] == _api._REGISTRY[c[0]].min_players]
SMALL_CASES, SMALL_IDS = [c for c, _ in SMALL], [i for _, i in SMALL]


def small_params() -> List[Any]:
    """:data:`SMALL_CASES` as ``pytest.param(game, params, id=...)``, for the adapters' tests
    (OpenSpiel, Gymnasium, PettingZoo) that take a game id and its parameters."""
    return [pytest.param(name, params, id=i) for (name, params), i in SMALL]


READINGS = [(name, r) for name in mousehole.game_names() for r in _api._REGISTRY[name].READINGS]
READING_IDS = [f"{name}-{r.param}" for name, r in READINGS]


@pytest.fixture
def quarter(monkeypatch: pytest.MonkeyPatch) -> None:
    """The generic suites at :data:`SHARE` of their sizes."""
    monkeypatch.setenv("MOUSEHOLE_TEST_SCALE", str(SHARE * float(os.environ.get("MOUSEHOLE_TEST_SCALE", "1"))))


def test_every_game_declares_its_readings() -> None:
    """Each of the four games has at least one reading (the texts leave questions open in
    every game; the docs page says which and why)."""
    for name in mousehole.game_names():
        assert _api._REGISTRY[name].READINGS, f"{name} declares no reading"


# -- the declarations -------------------------------------------------------------------------


@pytest.mark.parametrize("name, reading", READINGS, ids=READING_IDS)
def test_reading_is_a_parameter_with_its_default(name: str, reading: mousehole.Reading, engine: str) -> None:
    cls = _api._REGISTRY[name]
    assert cls.DEFAULTS[reading.param] == reading.default
    assert mousehole.load(name, engine=engine).params[reading.param] == reading.default
    for value in reading.values:
        g = mousehole.load(name, engine=engine, **{reading.param: value})
        assert g.params[reading.param] == value
        assert pickle.loads(pickle.dumps(g)) == g
        assert g.new_state(seed=3).to_dict()["params"][reading.param] == value
    assert mousehole.load(name, engine=engine, **{reading.param: reading.values[1]}) != mousehole.load(
        name, engine=engine
    )
    for bad in ("", reading.default.upper() + "?", 1, None, True, [reading.default]):
        with pytest.raises(mousehole.ParameterError, match=re.escape(reading.param)) as e:
            mousehole.load(name, engine=engine, **{reading.param: bad})
        assert all(repr(v) in str(e.value) for v in reading.values), "the error lists the values"


@pytest.mark.parametrize("name, reading", READINGS, ids=READING_IDS)
def test_reading_is_documented(name: str, reading: mousehole.Reading) -> None:
    """The game's docs page has a Readings table with a row for the parameter naming every
    value, its rule and its source; ``mousehole rules`` prints the same."""
    page = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    assert "## Readings" in page, f"docs/games/{name}.md has no Readings section"
    section = page.split("## Readings", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|") and f"`{reading.param}`" in line]
    assert len(rows) == 1, f"docs/games/{name}.md: one Readings row for {reading.param}, found {len(rows)}"
    for value in reading.values:
        assert f"`{value}`" in rows[0], f"{reading.param}: value {value} missing from the docs row"
    text = rules_text(name)
    block = text.split(f"\n{reading.param}  (", 1)[1].split("\n\n", 1)[0]
    flat = " ".join(block.split())
    for value, meaning in zip(reading.values, reading.meaning):
        assert value in block and " ".join(meaning.split()) in flat
    assert " ".join(reading.source.split()) in flat and " ".join(reading.translation.split()) in flat


def test_docs_tables_list_no_other_parameter() -> None:
    for name in mousehole.game_names():
        cls = _api._REGISTRY[name]
        page = (DOCS / f"{name}.md").read_text(encoding="utf-8")
        if "## Readings" not in page:
            continue
        section = page.split("## Readings", 1)[1].split("\n## ", 1)[0]
        rows = [line for line in section.splitlines() if line.startswith("| `")]
        named = {line.split("`")[1] for line in rows}
        assert named == {r.param for r in cls.READINGS}, name


def test_rules_command_prints_every_reading() -> None:
    for name in mousehole.game_names():
        out = subprocess.run(
            [sys.executable, "-m", "mousehole", "rules", name], capture_output=True, text=True, timeout=120
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == rules_text(name)
        for r in _api._REGISTRY[name].READINGS:
            assert f"{r.param}  ({', '.join(r.rules)})" in out.stdout
            assert f"{r.default} (default) {' '.join(r.meaning[0].split())}" in " ".join(out.stdout.split())


# -- the generic suites over every non-default value ------------------------------------------


@pytest.mark.differential
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_engines_agree(case: Tuple[str, Dict[str, Any]], quarter: None) -> None:
    from test_differential import test_engines_agree_step_by_step as step_by_step
    from test_differential import test_simulate_agrees as simulate_agrees

    step_by_step(case)
    simulate_agrees(case)


@pytest.mark.differential
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_engines_determinize_alike(case: Tuple[str, Dict[str, Any]], quarter: None) -> None:
    from test_information import test_engines_determinize_alike as determinize_alike

    determinize_alike(case)


@pytest.mark.parametrize("case", SMALL_CASES, ids=SMALL_IDS)
def test_views_and_determinization(case: Tuple[str, Dict[str, Any]], quarter: None) -> None:
    engine = ENGINE
    from test_information import test_determinization_depends_on_the_view_only as view_only

    view_only(case, engine)


@pytest.mark.parametrize("case", SMALL_CASES, ids=SMALL_IDS)
def test_records_round_trip(case: Tuple[str, Dict[str, Any]]) -> None:
    engine = ENGINE
    from test_records import test_round_trip_and_schema as round_trip

    round_trip(case, engine)
    name, params = case
    from mousehole import records
    from test_records import _played

    state = _played(name, params, engine, seed=5)
    text = records.dumps(
        state, seats=[f"p{i}" for i in range(state.game.num_players)], date="2026-11-27T10:00:00+00:00"
    )
    assert json.loads(text)["params"] == state.game.params
    game = records.loads(text, engine=engine).load_game(engine=engine)
    assert all(game.params[k] == v for k, v in params.items())


@pytest.mark.parametrize("case", SMALL_CASES, ids=SMALL_IDS)
def test_vector_game(case: Tuple[str, Dict[str, Any]], quarter: None) -> None:
    engine = ENGINE
    from test_vector import test_vector_game_follows_the_reference_loop as follows
    from test_vector import test_vector_game_whole_games_and_opponent_seats as whole_games

    follows(case, engine)
    whole_games(case, engine)


@pytest.mark.parametrize("case", SMALL_CASES, ids=SMALL_IDS)
def test_state_dict_fuzz(case: Tuple[str, Dict[str, Any]]) -> None:
    engine = ENGINE
    """The mutation fuzz of ``state_from_dict`` (in a child interpreter) with the reading's
    parameters: dicts of games played by that reading, loaded by a game of that reading."""
    from test_fuzz_state_dicts import EXAMPLES
    from test_hostile_states import isolated

    name, params = case
    isolated("child_fuzz", name, engine, max(20, EXAMPLES // 3), json.dumps(params), module="test_fuzz_state_dicts")


@pytest.mark.parametrize("case", SMALL_CASES, ids=SMALL_IDS)
def test_cli_plays_the_reading(case: Tuple[str, Dict[str, Any]]) -> None:
    engine = ENGINE
    name, params = case
    ((param, value),) = [(k, v) for k, v in params.items() if k != "players"]
    games = "20" if engine == "compiled" else "4"
    args = [
        sys.executable,
        "-m",
        "mousehole",
        "simulate",
        name,
        "--players",
        str(params["players"]),
        "--engine",
        engine,
        "--games",
        games,
        "--param",
        f"{param}={value}",
    ]
    out = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert f"({param}={value})" in out.stdout.splitlines()[0]
    want = mousehole.simulate(mousehole.load(name, engine=engine, **params), int(games), seed=1, aggregate=True)
    assert f"{want.mean_length:.2f} actions" in out.stdout
    bad = subprocess.run(args[:-1] + [f"{param}=no such reading"], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and param in bad.stderr and len(bad.stderr.splitlines()) == 1


#: the study of the readings' effects (``benchmarks/readings.py``)
STUDY = Path(__file__).resolve().parent.parent / "benchmarks" / "readings.py"


def study(*args: str, check: bool = True) -> "subprocess.CompletedProcess[str]":
    """Run the study on Kater Kasimir in one process (``--workers 0``) with ``args`` (the
    player counts, the sizes, ``--json PATH``, ...); ``check``: a failure raises."""
    cmd = [sys.executable, str(STUDY), "--game", "kasimir", "--workers", "0", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=check)


def results(path: Path) -> List[Dict[str, Any]]:
    """The lines of a study's JSON output."""
    return list(json.loads(path.read_text(encoding="utf-8"))["results"])


def random_figures(r: Dict[str, Any]) -> Dict[str, Any]:
    """A line's random-game figures without the time they took."""
    return {k: v for k, v in r["random"].items() if k != "seconds"}


def test_the_study_script_runs_a_line_per_reading(tmp_path: Path) -> None:
    """``benchmarks/readings.py`` (small sizes, one process): a baseline line and one line per
    non-default value, each with its random-game figures (games played, win rate inside its
    interval) and its ISMCTS figures; the same seeds give the same figures."""
    sizes = ["--players", "2", "--games", "300", "--bot-games", "4", "--chunk", "2", "--iterations", "5"]
    sizes += ["--end-sample", "20"]
    out, again = tmp_path / "r.json", tmp_path / "again.json"
    done = study(*sizes, "--json", str(out), check=False)
    assert done.returncode == 0, done.stderr
    cls = _api._REGISTRY["kasimir"]
    want = [(None, None)] + [(r.param, v) for r in cls.READINGS for v in r.values[1:]]
    assert [(r["param"], r["value"]) for r in results(out)] == want
    for r in results(out):
        a = r["random"]
        assert a["games"] == 300 and a["first_seat_win_95"][0] <= a["first_seat_win_rate"] <= a["first_seat_win_95"][1]
        assert r["ismcts"]["games"] == 4 and r["ismcts"]["iterations"] == 5
    study(*sizes, "--json", str(again))
    assert [random_figures(r) for r in results(out)] == [random_figures(r) for r in results(again)]
    assert "| kasimir | 2 | default |" in done.stdout


#: small sizes without the ISMCTS games and the end sample
QUICK = ["--bot-games", "0", "--end-sample", "0"]


def test_the_study_script_plays_only_the_defaults_when_asked(tmp_path: Path) -> None:
    """``--defaults-only``: one baseline line a player count (every parameter at its default),
    no reading's line, and the baselines' random figures are those of the full study (the same
    seeds)."""
    only, full = tmp_path / "only.json", tmp_path / "full.json"
    study("--players", "2", "3", "--games", "200", *QUICK, "--json", str(only), "--defaults-only")
    study("--players", "2", "3", "--games", "200", *QUICK, "--json", str(full))
    got = results(only)
    assert [(r["players"], r["param"]) for r in got] == [(2, None), (3, None)]
    baselines = [r for r in results(full) if r["param"] is None]
    assert [random_figures(r) for r in got] == [random_figures(r) for r in baselines]


def test_the_study_script_plays_the_readings_named(tmp_path: Path) -> None:
    """``--reading PARAM``: the baseline and that reading's lines only; a name that is no
    reading of the games asked is refused with the known names, before anything is played."""
    cls = _api._REGISTRY["kasimir"]
    param = cls.READINGS[-1].param
    out = tmp_path / "one.json"
    study("--players", "2", "--games", "100", *QUICK, "--json", str(out), "--reading", param)
    got = [(r["param"], r["value"]) for r in results(out)]
    assert got == [(None, None)] + [(param, v) for v in cls.READINGS[-1].values[1:]]
    bad = study(
        "--players", "2", "--games", "100", *QUICK, "--json", str(out), "--reading", "no_such_reading", check=False
    )
    assert bad.returncode == 2 and "no_such_reading" in bad.stderr and param in bad.stderr
