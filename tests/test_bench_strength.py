"""benchmarks/strength.py in parts: ``--part K/N`` plays a slice of every line's and every
ladder pair's games, ``--merge`` puts the parts back together into the figures of one run.

Small seeded runs (Kater Kasimir, 2 players, 2 ms a move); the search bots with a time
budget are not deterministic, so the whole run is compared with the merged parts where the
bots are (the ladder's ``random``-``greedy`` pair) and by consistency elsewhere."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "strength.py"
BASE = [
    "--game",
    "kasimir",
    "--players",
    "2",
    "--time",
    "0.002",
    "--games",
    "5",
    "--ladder-games",
    "3",
    "--no-oracle",
    "--seed",
    "9",
]

pytestmark = pytest.mark.skipif(not SCRIPT.exists(), reason="benchmarks/ is not beside this test suite")


def _run(*argv: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, str(SCRIPT), *argv], capture_output=True, text=True, timeout=600)


def _load(path: Path) -> Dict[str, Any]:
    with open(path) as f:
        data: Dict[str, Any] = json.load(f)
    return data


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Path]:
    tmp = tmp_path_factory.mktemp("strength")
    out = {}
    for name, extra in (("p1", ["--part", "1/2"]), ("p2", ["--part", "2/2"]), ("whole", [])):
        path = tmp / f"{name}.json"
        done = _run(*BASE, *extra, "--json", str(path))
        assert done.returncode == 0, done.stderr[-2000:]
        out[name] = path
    merged = tmp / "merged.json"
    done = _run("--merge", str(out["p2"]), str(out["p1"]), "--json", str(merged))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "| kasimir | 2 | strong:0.002s | greedy | 5 |" in done.stdout
    out["merged"] = merged
    return out


def test_parts_are_slices_and_merge_to_the_whole_run(runs: Dict[str, Path]) -> None:
    p1, p2, merged, whole = (_load(runs[k]) for k in ("p1", "p2", "merged", "whole"))
    # the slices: games 0-1 and 2-4 of every line
    assert [r["piece"]["start"] for r in p1["rows"]] == [0, 0] and [r["games"] for r in p1["rows"]] == [2, 2]
    assert [r["piece"]["start"] for r in p2["rows"]] == [2, 2] and [r["games"] for r in p2["rows"]] == [3, 3]
    assert [(r["what"], r["games"]) for r in merged["rows"]] == [(r["what"], r["games"]) for r in whole["rows"]]
    for i, row in enumerate(merged["rows"]):
        parts: List[Dict[str, Any]] = [p1["rows"][i], p2["rows"][i]]
        for key in ("wins", "losses", "draws", "decided"):
            assert row[key] == sum(p[key] for p in parts), key
        # every game of a line may be a draw (the timed bots on the slower reference engine)
        assert row["win_rate"] == (row["wins"] / row["decided"] if row["decided"] else 0.0)
        assert "piece" not in row
    # the ladder: every pair's games add up; the deterministic pair plays the whole run's games
    lad, lad_whole = merged["ladders"][0], whole["ladders"][0]
    assert [p["bots"] for p in lad["pairs"]] == [p["bots"] for p in lad_whole["pairs"]]
    for i, pair in enumerate(lad["pairs"]):
        assert pair["games"] == 3
        assert pair["wins"] == [
            a + b for a, b in zip(p1["ladders"][0]["pairs"][i]["wins"], p2["ladders"][0]["pairs"][i]["wins"])
        ]
    fixed = next(i for i, p in enumerate(lad["pairs"]) if p["bots"] == ["random", "greedy"])
    assert lad["pairs"][fixed]["wins"] == lad_whole["pairs"][fixed]["wins"]
    assert sorted(r["bot"] for r in lad["ratings"]) == sorted(r["bot"] for r in lad_whole["ratings"])
    assert merged["parts"] == ["p2.json", "p1.json"] and len(merged["machine"]) == 2


def test_merge_refuses_what_is_not_one_run(runs: Dict[str, Path], tmp_path: Path) -> None:
    done = _run("--merge", str(runs["p1"]))
    assert done.returncode != 0 and "expected parts 1 to 2 of 2 once each" in done.stderr
    done = _run("--merge", str(runs["p1"]), str(runs["p1"]))
    assert done.returncode != 0 and "once each" in done.stderr
    done = _run("--merge", str(runs["p1"]), str(runs["whole"]))
    assert done.returncode != 0 and "not a part" in done.stderr
    other = _load(runs["p2"])
    other["seed"] = 10
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps(other))
    done = _run("--merge", str(runs["p1"]), str(odd))
    assert done.returncode != 0 and "differ in seed" in done.stderr
    for bad in ("0/2", "3/2", "x", "1/0"):
        done = _run(*BASE, "--part", bad)
        assert done.returncode == 2 and "--part" in done.stderr, bad


def test_ceilings_play_only_the_oracle_against_ismcts(runs: Dict[str, Path], tmp_path: Path) -> None:
    """``--ceilings``: one line per game, ``OracleBot`` against ``ismcts`` at 2 players, no
    ladder; its parts merge with each other and never with the parts of an ordinary run."""
    out = {}
    for name in ("1", "2"):
        out[name] = tmp_path / f"c{name}.json"
        done = _run(
            "--game",
            "kasimir",
            "cheese_rescue",
            "--time",
            "0.002",
            "--games",
            "3",
            "--seed",
            "9",
            "--ceilings",
            "--part",
            f"{name}/2",
            "--json",
            str(out[name]),
        )
        assert done.returncode == 0, done.stderr[-2000:]
    c1 = _load(out["1"])
    assert c1["ceilings"] is True and c1["ladders"] == []
    assert [(r["what"], r["game"], r["players"], r["opponent"]) for r in c1["rows"]] == [
        ("oracle vs ismcts (ceiling)", g, 2, "ismcts:0.002s") for g in ("kasimir", "cheese_rescue")
    ]
    assert all(r["bot"].startswith("OracleBot") for r in c1["rows"])
    merged = tmp_path / "cm.json"
    done = _run("--merge", str(out["1"]), str(out["2"]), "--json", str(merged))
    assert done.returncode == 0, done.stderr[-2000:]
    assert [r["games"] for r in _load(merged)["rows"]] == [3, 3] and _load(merged)["ceilings"] is True
    done = _run("--merge", str(out["1"]), str(runs["p2"]))
    assert done.returncode != 0 and "they are not one run" in done.stderr
    done = _run("--ceilings", "--iterations", "10")
    assert done.returncode == 2 and "--ceilings" in done.stderr
