"""The benchmark harness (``mousehole bench``, ``mousehole.bench``) and the plain-C loops of
``benchmarks/limits/`` (the yardstick of ``simulate``): the C loops compile and play the engines' games (their
statistics agree with ``simulate``; Maus au Chocolat's combination count and outcomes equal
the reference's on random hands), the harness runs in its quick form, writes the JSON it
documents, compares with an earlier run, and refuses bad options with exit status 2.
No timing is asserted: the figures depend on the machine."""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from typing import Any, Dict, List

import pytest

import mousehole
from mousehole import bench

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The tests run against the installed package (not an editable one in CI): point the harness,
# and the subprocesses that run it, at this checkout's C loops.
os.environ["MOUSEHOLE_LIMITS"] = os.path.join(ROOT, "benchmarks", "limits")
HAVE_COMPILED = "compiled" in mousehole.available_engines()
needs_compiled = pytest.mark.compiled  # deselected (and said) where the compiled engine is not built


def parse(argv: List[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="mousehole bench")
    bench.add_arguments(p)
    return p.parse_args(argv)


@pytest.fixture(scope="module")
def loops(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, str]:
    """The C loops, compiled with the wheel's flags (the C compiler is part of the test setup:
    the compiled engine needs one too)."""
    folder = bench.c_sources()
    assert folder is not None, "benchmarks/limits is part of the checkout"
    if not bench._compiler()[0]:
        pytest.skip("no C compiler on this machine")
    built, note = bench.build_c_loops(folder, cache=str(tmp_path_factory.mktemp("limits")))
    assert set(built) == set(bench.C_LOOPS), note
    return built


# --------------------------------------------------------------------------------------
# the C loops


def test_c_loop_prints_its_statistics(loops: Dict[str, str]) -> None:
    out = bench.run_c_loop(loops["m"], 3, 50, 7)
    assert out["game"] == "m" and out["players"] == 3 and out["games"] == 50 and out["seed"] == 7
    assert out["actions"] > 50 and out["mean_length"] == pytest.approx(out["actions"] / 50)
    assert out["ns_per_action"] > 0 and out["length_stderr"] > 0 and out["score0_stderr"] > 0
    again = bench.run_c_loop(loops["m"], 3, 50, 7)  # its own generator: a seed gives the same games
    assert (again["actions"], again["mean_score0"]) == (out["actions"], out["mean_score0"])
    other = bench.run_c_loop(loops["m"], 3, 50, 8)
    assert (other["actions"], other["mean_score0"]) != (out["actions"], out["mean_score0"])


@pytest.mark.parametrize("name,lo,hi", [("cheese_rescue", 2, 4), ("m", 2, 6), ("maus_au_chocolat", 2, 6)])
def test_c_loop_bad_arguments(loops: Dict[str, str], name: str, lo: int, hi: int) -> None:
    for argv in (
        [str(lo - 1), "10", "1"],
        [str(hi + 1), "10", "1"],
        [str(lo), "0", "1"],
        [str(lo), "x", "1"],
        [str(lo), "10"],
    ):
        res = subprocess.run([loops[name], *argv], capture_output=True, text=True)
        assert res.returncode == 2 and res.stdout == "" and res.stderr.strip(), argv


def test_memory_floor_program_writes_every_row(tmp_path: Any) -> None:
    """``rows.c`` (``benchmarks/bench_vector.py``'s memory floor) leaves every env's rows as its
    last pass wrote them: zeros and one non-zero value each. Its checksum, a sample of every
    row read back, is recomputed here from that description; bad arguments exit with 2."""
    import numpy as np

    folder = bench.c_sources()
    assert folder is not None
    if not bench._compiler()[0]:
        pytest.skip("no C compiler on this machine")
    built, note = bench.build_c_loops(folder, cache=str(tmp_path), sources={"rows": "rows.c"})
    assert set(built) == {"rows"}, note
    obs_bytes, mask_bytes, envs, passes = 4 * 37, 11, 5, 3
    res = subprocess.run(
        [built["rows"], str(obs_bytes), str(mask_bytes), str(envs), str(passes)],
        capture_output=True,
        text=True,
        check=True,
    )
    out = json.loads(res.stdout)
    assert (out["obs_bytes"], out["mask_bytes"], out["envs"], out["passes"]) == (obs_bytes, mask_bytes, envs, passes)
    assert out["ns_per_env"] > 0
    obs = np.zeros((envs, obs_bytes // 4), dtype=np.float32)
    mask = np.zeros((envs, mask_bytes), dtype=np.uint8)
    last = passes - 1
    for i in range(envs):
        obs[i, (last + i) % (obs_bytes // 4)] = 1.0
        mask[i, (last + i) % mask_bytes] = 1
    expected = int(obs.view(np.uint8).ravel()[::61].sum()) + int(mask.ravel()[::7].sum())
    assert out["checksum"] == expected
    for argv in (
        ["3", "1", "1", "1"],
        ["8", "0", "1", "1"],
        ["8", "1", "0", "1"],
        ["8", "1", "1", "x"],
        ["8", "1", "1"],
    ):
        bad = subprocess.run([built["rows"], *argv], capture_output=True, text=True)
        assert bad.returncode == 2 and bad.stdout == "" and bad.stderr.strip(), argv


@needs_compiled
def test_c_ratio_median_is_the_median_of_the_rounds(loops: Dict[str, str]) -> None:
    """Three interleaved rounds: the median ratio is the middle one of the rounds' ratios, and
    the best-of ratio divides the fastest C round by the fastest simulate round."""
    e = bench.c_ratio("cheese_rescue", 2, loops["cheese_rescue"], 500, 3)
    assert len(e["round_ratios"]) == 3 and all(r > 0 for r in e["round_ratios"])
    assert e["ratio_median"] == sorted(e["round_ratios"])[1]
    assert e["ratio"] == pytest.approx(e["c_ns_per_action"] / e["simulate_ns_per_action"])


@needs_compiled
@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity on this platform")
def test_c_ratio_runs_both_halves_of_a_round_on_one_cpu(loops: Dict[str, str], monkeypatch: Any) -> None:
    """The rounds run pinned to one CPU, the C loop (a child process, which inherits it)
    included, and the process's CPUs are given back afterwards."""
    before = os.sched_getaffinity(0)
    seen: List[Any] = []
    real = bench.run_c_loop

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(os.sched_getaffinity(0))
        return real(*args, **kwargs)

    monkeypatch.setattr(bench, "run_c_loop", spy)
    e = bench.c_ratio("cheese_rescue", 2, loops["cheese_rescue"], 200, 2)
    assert e["pinned_cpu"] in before and seen == [{e["pinned_cpu"]}] * 2
    assert os.sched_getaffinity(0) == before


@needs_compiled
@pytest.mark.parametrize(
    "name,players",
    [
        ("cheese_rescue", 2),
        ("cheese_rescue", 3),
        ("cheese_rescue", 4),
        ("m", 2),
        ("m", 4),
        ("m", 6),
        ("maus_au_chocolat", 2),
        ("maus_au_chocolat", 4),
        ("maus_au_chocolat", 6),
    ],
)
def test_c_loop_fingerprint(loops: Dict[str, str], name: str, players: int) -> None:
    """Same action model: mean game length and seat-0 score of simulate and of the C loop within
    4 standard errors (CR-11: every Cheese Rescue game has the same length, exactly)."""
    e = bench.c_ratio(name, players, loops[name], 3000 if name != "cheese_rescue" else 6000, 1)
    assert e["fingerprint_ok"], e
    assert e["length_z"] is not None and e["length_z"] <= 4 and e["score0_z"] is not None and e["score0_z"] <= 4
    assert e["c_ns_per_action"] > 0 and e["simulate_ns_per_action"] > 0
    assert e["ratio"] == pytest.approx(e["c_ns_per_action"] / e["simulate_ns_per_action"])
    assert e["round_ratios"] == [e["ratio_median"]] and e["ratio_median"] == pytest.approx(e["ratio"])  # one round
    assert "target" not in e and "met" not in e  # the goals are in docs/benchmarks.md, not in the results
    if name == "cheese_rescue":  # CR-6, CR-11: the square's cells less the start card (CR-3)
        side = {2: 5, 3: 6, 4: 7}[players]
        assert e["c_mean_length"] == e["simulate_mean_length"] == side * side - (players != 3)
        assert e["c_length_stderr"] == 0.0


def test_fingerprint_rule() -> None:
    assert bench.fingerprint(10.0, 0.0, 10.0, 0.0) == (0.0, True)
    assert bench.fingerprint(10.0, 0.0, 10.5, 0.0)[1] is False
    z, ok = bench.fingerprint(10.0, 0.3, 11.0, 0.4)
    assert z == pytest.approx(2.0) and ok
    z, ok = bench.fingerprint(10.0, 0.3, 12.1, 0.4)
    assert z == pytest.approx(4.2) and not ok


def test_c_loop_fingerprint_detects_another_game(loops: Dict[str, str]) -> None:
    """The check can fail: M's C loop against simulate at another player count."""
    ours = bench.run_c_loop(loops["m"], 2, 2000, 1)
    other = bench.run_c_loop(loops["m"], 6, 2000, 1)
    _, ok = bench.fingerprint(ours["mean_length"], ours["length_stderr"], other["mean_length"], other["length_stderr"])
    assert not ok


def _check_build(tmp_path: Any) -> str:
    folder = bench.c_sources()
    assert folder is not None
    cc, flags = bench._compiler()
    if not cc:
        pytest.skip("no C compiler on this machine")
    exe = str(tmp_path / "mc_check")
    subprocess.run(
        cc + flags + ["-DLIM_CHECK_COMBOS", "-o", exe, os.path.join(folder, "maus_au_chocolat.c"), "-lm"],
        check=True,
        capture_output=True,
    )
    return exe


def test_maus_au_chocolat_c_combinations_equal_the_reference(tmp_path: Any) -> None:
    """MC-10 .. MC-23: on random hands with every helper, the C loop counts exactly the
    combination actions of the reference (mousehole.maus_au_chocolat.combination_actions) and
    draws each outcome (cards laid, cards kept) exactly once."""
    from mousehole import maus_au_chocolat as mc

    exe = _check_build(tmp_path)
    game = mousehole.load("maus_au_chocolat", engine="python")
    table = game.cards
    rnd = random.Random(13)
    lines, expected = [], []
    for _ in range(3000):
        helper = rnd.randrange(7)
        size = rnd.randint(1, 9)
        if rnd.random() < 0.5:  # crowded hands: few candy values
            values = rnd.sample(range(3, 8), rnd.randint(1, 3))
            pool = [c for c in range(80) if table[c][1] in values]
        else:
            pool = list(range(80))
        hand = sorted(rnd.sample(pool, min(size, len(pool))))
        outcomes = set()
        # (the C loop plays kept_card="highest_printed": bench.C_LOOP_PARAMS)
        for a in mc.combination_actions(hand, table, helper, kept_card="highest_printed"):
            slots, keep = mc.PATTERNS[a - mc.COMBINE]
            outcomes.add(",".join(str(hand[i]) for i in slots) + ":" + ",".join(str(hand[i]) for i in keep))
        lines.append(" ".join(map(str, [helper] + hand)))
        expected.append(outcomes)
    res = subprocess.run([exe], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
    got = res.stdout.splitlines()
    assert len(got) == len(lines)
    for line, want, answer in zip(lines, expected, got):
        parts = answer.split()
        assert int(parts[0]) == len(want) == len(parts) - 1, line
        assert set(parts[1:]) == want, line


# --------------------------------------------------------------------------------------
# the harness


CALL_KEYS = {
    "loop_ns",
    "clone_ns",
    "apply_action_ns",
    "apply_action_np_ns",
    "apply_action_np_extra_ns",
    "is_chance_node_ns",
    "current_player_ns",
    "new_state_ns",
    "legal_actions_ns",
    "observation_ns",
    "observation_out_ns",
    "legal_action_mask_ns",
    "legal_action_mask_out_ns",
    "observation_per_clone",
    "to_dict_ns",
    "state_from_dict_ns",
    "determinize_view_ns",
    "python_loop_steps_per_s",
    "simulate_games_per_s",
    "simulate_actions_per_s",
    "simulate_ns_per_action",
    "mean_game_length",
}


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Any]:
    path = str(tmp_path_factory.mktemp("bench") / "run.json")
    args = parse(
        [
            "--quick",
            "--games",
            "cheese_rescue,kasimir",
            "--players",
            "2",
            "--sim-games",
            "100",
            "--rounds",
            "1",
            "--json",
            path,
        ]
    )
    assert bench.run(args) == 0
    with open(path) as fh:
        doc: Dict[str, Any] = json.load(fh)
    doc["_path"] = path
    return doc


def test_quick_run_json_shape(quick_run: Dict[str, Any]) -> None:
    doc = quick_run
    assert set(doc["machine"]) >= {"cpu", "cores", "python", "platform", "mousehole", "engines", "commit"}
    assert doc["quick"] is True and doc["players"] == 2
    assert set(doc["games"]) == {"cheese_rescue", "kasimir"}
    for name, entry in doc["games"].items():
        assert entry["players"] == 2
        for engine in mousehole.available_engines():
            assert set(entry[engine]) >= CALL_KEYS, (name, engine)
            assert all(v > 0 for k, v in entry[engine].items() if k != "apply_action_np_extra_ns")
            assert entry[engine]["apply_action_np_extra_ns"] >= 0, "a difference of timings is floored at 0"
        if HAVE_COMPILED:
            assert set(entry["speedup"]) == {"whole_games", "python_loop", "apply_action", "legal_actions"}
    if not HAVE_COMPILED:
        return
    cr = doc["c_ratio"]["cheese_rescue"]["2"]
    assert cr["fingerprint_ok"] is True and cr["ratio"] > 0 and cr["games_per_round"] == 100
    kk = doc["c_ratio"]["kasimir"]["2"]  # no C loop: its ns per action alone
    assert "ratio" not in kk and kk["simulate_ns_per_action"] > 0 and kk["simulate_mean_length"] > 0
    for name in ("cheese_rescue", "kasimir"):
        t = doc["threads"][name]
        assert t["games_per_s_1_thread"] > 0 and t["games_per_s_2_threads"] > 0
        assert t["relative_to_control"] == pytest.approx(t["threads_speedup"] / t["control_speedup"])
    assert "targets" not in doc and "target" not in cr and "met" not in cr


def test_table_reports_figures_without_targets(quick_run: Dict[str, Any]) -> None:
    """The printed tables carry the measured figures and ratios, never a pass/fail mark."""
    doc = {k: v for k, v in quick_run.items() if k != "_path"}
    text = bench.format_table(doc)
    assert "Calls from Python" in text
    assert ("simulate against the C loop" in text) == HAVE_COMPILED
    for word in ("target", "Target", "MISSED", "mark"):
        assert word not in text, word
    for name, entry in doc["games"].items():
        for engine in mousehole.available_engines():
            row = next(line for line in text.splitlines() if line.startswith(name) and f" {engine} " in line)
            assert f"{entry[engine]['clone_ns']:.0f}" in row.split()
    if HAVE_COMPILED:
        cr = doc["c_ratio"]["cheese_rescue"]["2"]
        row = next(line for line in text.splitlines() if line.startswith("cheese_rescue") and "/" in line)
        cells = row.split()
        assert cells[:5] == [
            "cheese_rescue",
            "2",
            f"{cr['simulate_ns_per_action']:.1f}",
            f"{cr['c_ns_per_action']:.1f}",
            f"{cr['ratio']:.2f}",
        ]
        assert cells[5] == f"{cr['ratio_median']:.2f}"
        assert cells[6] == f"{cr['simulate_mean_length']:.2f}"


@pytest.mark.parametrize("name", ["TARGET_RATIO", "CALL_TARGETS"])
def test_removed_target_names_are_deprecated_aliases(name: str) -> None:
    with pytest.warns(DeprecationWarning, match=f"mousehole.bench.{name} is deprecated.*docs/benchmarks.md"):
        value = getattr(bench, name)
    assert isinstance(value, dict) and value and all(isinstance(v, float) for v in value.values())
    value.clear()  # a copy: the next caller gets the whole table again
    with pytest.warns(DeprecationWarning):
        assert getattr(bench, name)
    assert name not in bench.__all__
    with pytest.raises(AttributeError, match="no attribute 'NO_SUCH_NAME'"):
        bench.NO_SUCH_NAME  # noqa: B018


def test_compare_with_a_file_it_wrote(quick_run: Dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(
        [
            "--quick",
            "--games",
            "kasimir",
            "--players",
            "2",
            "--no-c",
            "--no-threads",
            "--sim-games",
            "50",
            "--rounds",
            "1",
            "--compare",
            quick_run["_path"],
        ]
    )
    assert bench.run(args) == 0
    out = capsys.readouterr().out
    assert f"Compared with {quick_run['_path']}" in out
    assert "games/kasimir/" in out and "games/cheese_rescue/" not in out.split("Compared with")[1]
    if HAVE_COMPILED:
        assert "C ratio skipped (--no-c)" in out and "threads skipped (--no-threads)" in out
    else:  # the reference engine alone: nothing to hold to the C loops
        assert "C ratio and threads skipped: no compiled engine here" in out


def test_compare_rows() -> None:
    new = {
        "games": {"m": {"compiled": {"clone_ns": 90.0, "new_only": 1.0}}, "x": {"players": 4}},
        "c_ratio": {"m": {"4": {"ratio": 0.9, "fingerprint_ok": True}}},
        "machine": {"cores": 2},
    }
    old = {
        "games": {"m": {"compiled": {"clone_ns": 180.0}}, "x": {"players": 2}},
        "c_ratio": {"m": {"4": {"ratio": 0.3, "fingerprint_ok": True}}},
        "machine": {"cores": 4},
    }
    rows = bench.compare_rows(new, old)
    assert rows == [
        ("c_ratio/m/4/ratio", 0.9, 0.3, pytest.approx(3.0)),
        ("games/m/compiled/clone_ns", 90.0, 180.0, 0.5),
    ]


def test_old_result_files_stay_comparable() -> None:
    """The JSON of the earlier benchmarks/run.py (benchmarks/results/) has the same figure paths."""
    path = os.path.join(ROOT, "benchmarks", "results", "2026-11-26-amd-epyc-2core.json")
    with open(path) as fh:
        old = json.load(fh)
    new = {
        "games": {
            name: {engine: {k: 1.0 for k in CALL_KEYS} for engine in ("compiled", "python")}
            for name in mousehole.game_names()
        }
    }
    paths = {r[0] for r in bench.compare_rows(new, old)}
    for name in mousehole.game_names():
        for key in ("clone_ns", "apply_action_ns", "legal_actions_ns", "simulate_games_per_s", "to_dict_ns"):
            assert f"games/{name}/compiled/{key}" in paths


@needs_compiled
def test_no_c_sources_or_compiler_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    base = [
        "--quick",
        "--games",
        "cheese_rescue",
        "--players",
        "2",
        "--engine",
        "compiled",
        "--no-threads",
        "--sim-games",
        "20",
        "--rounds",
        "1",
    ]
    monkeypatch.setattr(bench, "c_sources", lambda: None)
    assert bench.run(parse(base)) == 0
    out = capsys.readouterr().out
    assert "C ratio skipped: the C loops' sources" in out
    monkeypatch.undo()
    monkeypatch.setattr(bench, "_compiler", lambda: ([], []))
    assert bench.run(parse(base)) == 0
    assert "C ratio skipped: no C compiler found" in capsys.readouterr().out
    monkeypatch.undo()
    monkeypatch.setattr(bench, "_compiler", lambda: ([sys.executable], ["-c", "import sys; sys.exit(1)"]))
    built, note = bench.build_c_loops(str(bench.c_sources()), cache=str(tmp_path))
    assert built == {} and note.startswith("C ratio skipped:") and "\n" not in note


@pytest.mark.parametrize(
    "argv",
    [
        ["--games", "chess"],
        ["--players", "x"],
        ["--players", "0"],
        ["--sim-games", "0"],
        ["--rounds", "-1"],
        ["--engine", "fast"],
        ["--quick", "extra"],
    ],
)
def test_bad_options_exit_2_when_parsed(argv: List[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        parse(argv)
    assert e.value.code == 2
    assert "error" in capsys.readouterr().err


def test_bad_values_exit_2(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    not_a_run = tmp_path / "other.json"
    not_a_run.write_text('{"results": []}')
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    for argv, what in (
        (["--games", "cheese_rescue", "--players", "6"], "--players"),
        (["--compare", str(tmp_path / "missing.json")], "--compare"),
        (["--compare", str(broken)], "--compare"),
        (["--compare", str(not_a_run)], "--compare"),
        (["--json", str(tmp_path / "no" / "such" / "x.json")], "--json"),
        (["--json", str(tmp_path)], "--json"),
    ):
        assert bench.run(parse(argv)) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and what in err and "error" in err


def test_player_counts_and_games_lists() -> None:
    args = parse(["--games", "m", "cheese_rescue,m", "--players", "2-3", "6"])
    names, counts, main = bench._plan(args)
    assert names == ["m", "cheese_rescue"]
    assert counts == {"m": [2, 3, 6], "cheese_rescue": [2, 3]} and main == {"m": 2, "cheese_rescue": 2}
    names, counts, main = bench._plan(parse([]))
    assert names == mousehole.game_names() and all(main[n] == 4 for n in names)
    assert counts["cheese_rescue"] == [2, 3, 4] and counts["m"] == [2, 3, 4, 5, 6]


@needs_compiled
def test_threads_and_control() -> None:
    t = bench.bench_threads("cheese_rescue", 2, 200, 1, seconds=0.01)
    assert t["games_per_s_1_thread"] > 0 and t["games_per_s_2_threads"] > 0
    assert t["control_games_per_s_2_processes"] > 0 and t["games"] >= 200


#: a quick bench of Kater Kasimir at 2 players on the reference engine, one round
QUICK_BENCH = ["--quick", "--games", "kasimir", "--players", "2", "--engine", "python", "--no-threads"]
QUICK_BENCH += ["--sim-games", "10", "--rounds", "1"]


def run_bench(entry: List[str], *argv: str) -> "subprocess.CompletedProcess[str]":
    """``python -m ENTRY... ARGV`` (``entry``: ``["mousehole.bench"]`` or ``["mousehole",
    "bench"]``), its output captured."""
    return subprocess.run([sys.executable, "-m", *entry, *argv], capture_output=True, text=True, timeout=600)


def test_module_entry_point(tmp_path: Any) -> None:
    path = tmp_path / "m.json"
    res = run_bench(["mousehole.bench"], *QUICK_BENCH, "--json", str(path))
    assert res.returncode == 0, res.stderr
    assert "Calls from Python" in res.stdout and json.loads(path.read_text())["games"]["kasimir"]["python"]
    bad = run_bench(["mousehole.bench"], "--games", "nope")
    assert bad.returncode == 2 and "unknown game" in bad.stderr and "Traceback" not in bad.stderr


def test_cli_subcommand() -> None:
    ok = run_bench(["mousehole", "bench"], *QUICK_BENCH)
    assert ok.returncode == 0, ok.stderr
    assert "Calls from Python" in ok.stdout
    for argv in (["--games", "nope"], ["--players", "9", "--games", "m"], ["--rounds", "0"]):
        bad = run_bench(["mousehole", "bench"], *argv)
        assert bad.returncode == 2 and "error" in bad.stderr and "Traceback" not in bad.stderr, argv


def test_an_installed_package_finds_its_c_loops(tmp_path: Any) -> None:
    """``mousehole bench`` outside a checkout: without ``MOUSEHOLE_LIMITS`` and from another
    directory, the installed package finds the C loops it ships (``mousehole/limits`` in a
    wheel; ``benchmarks/limits`` in an editable install), the same sources as the checkout's."""
    code = (
        "import os, sys; os.environ.pop('MOUSEHOLE_LIMITS', None); from mousehole import bench; "
        "f = bench.c_sources(); print(f); sys.exit(f is None)"
    )
    env = {k: v for k, v in os.environ.items() if k != "MOUSEHOLE_LIMITS"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=str(tmp_path), env=env, timeout=120
    )
    assert out.returncode == 0, out.stdout + out.stderr
    folder = out.stdout.strip()
    for name in bench.C_LOOPS.values():
        with (
            open(os.path.join(folder, name), "rb") as a,
            open(os.path.join(ROOT, "benchmarks", "limits", name), "rb") as b,
        ):
            assert a.read() == b.read(), name
