"""tools/bench_charts.py: the charts of docs/benchmarks.md, drawn from the committed results
(benchmarks/results/*.json) into a temporary folder: each PNG is valid, not blank, drawn
the same twice, and a file the script cannot read is skipped with a message."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path
from typing import Any, Dict, List

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
BENCH = RESULTS / "2026-11-26-amd-epyc-2core.json"  # a run of benchmarks/run.py (no C ratio)
STRENGTH = RESULTS / "strength-2026-11-26.json"
#: the games that run measured (every game of its day)
GAMES = sorted(json.loads(BENCH.read_text(encoding="utf-8"))["games"])
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def charts() -> Any:
    import matplotlib  # noqa: F401  (the test extra installs it)

    spec = importlib.util.spec_from_file_location("bench_charts", ROOT / "tools" / "bench_charts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_png(path: Path) -> "np.ndarray[Any, Any]":
    """A valid PNG with a drawing on it (not one flat colour); returns its pixels."""
    import matplotlib.image

    assert path.read_bytes()[:8] == PNG_SIGNATURE, path
    pixels = np.asarray(matplotlib.image.imread(str(path)))
    assert pixels.ndim == 3 and pixels.shape[0] > 200 and pixels.shape[1] > 400, (path, pixels.shape)
    rgb = pixels[..., :3]
    assert float(rgb.std()) > 0.05, f"{path.name} is blank (pixel std {rgb.std():.4f})"
    # more than white, black and grey: the bars are coloured
    assert float(np.abs(rgb[..., 0] - rgb[..., 2]).max()) > 0.2, f"{path.name} has no coloured bars"
    return pixels


def with_c_ratio(data: Dict[str, Any]) -> Dict[str, Any]:
    """The committed run in the shape ``mousehole bench --json`` writes: a date in
    ``machine``, the ``c_ratio`` and ``threads`` tables."""
    out = copy.deepcopy(data)
    out["machine"].update({"date": "2030-01-02", "commit": "abc1234"})
    out["c_ratio"] = {
        "cheese_rescue": {
            str(n): {
                "players": n,
                "simulate_ns_per_action": 40.0,
                "c_ns_per_action": 36.0,
                "ratio": 0.9,
                "target": 1.0,
                "met": False,
            }
            for n in (2, 3, 4)
        },
        "kasimir": {"4": {"players": 4, "simulate_ns_per_action": 28.0}},  # no C loop
        "m": {
            str(n): {
                "players": n,
                "simulate_ns_per_action": 60.0,
                "c_ns_per_action": 50.0,
                "ratio": 50.0 / 60.0,
                "target": 0.8,
                "met": True,
            }
            for n in range(2, 7)
        },
    }
    out["threads"] = {g: {"players": 4, "games_per_s_1_thread": 1000.0, "games_per_s_2_threads": 1900.0} for g in GAMES}
    out["notes"] = []
    return out


def test_committed_results_draw(charts: Any, tmp_path: Path, capsys: Any) -> None:
    """Every committed benchmark run and strength table gives its charts; the other result
    files (another script's) are skipped with a message, never an error."""
    files = sorted(RESULTS.glob("*.json"))
    assert BENCH in files and STRENGTH in files
    assert charts.main(["--out", str(tmp_path)] + [str(f) for f in files]) == 0
    printed = capsys.readouterr()
    written = sorted(tmp_path.glob("*.png"))
    assert {Path(line) for line in printed.out.split()} == set(written)
    names = {p.name for p in written}
    for f in files:
        data = json.loads(f.read_text(encoding="utf-8"))
        try:
            what = charts.kind(data)
        except charts.Unreadable:
            assert f"skipped {f}" in printed.err
            continue
        if what in ("strength", "readings"):
            assert f"{f.stem}.png" in names
        else:
            measured = [g for g in GAMES if g in data.get("games", {})]  # a run may name some games only
            assert measured, f
            for g in measured:
                assert f"{f.stem}-calls-{g}.png" in names
            assert f"{f.stem}-simulate.png" in names
    for p in written:
        check_png(p)


def test_new_shape_and_c_ratio(charts: Any, tmp_path: Path) -> None:
    """The shape of ``mousehole bench --json`` (C ratios, threads, date) is drawn too: the
    simulate chart gains the ratio panel (a wider picture) and differs from the chart of the
    same run without it."""
    data = json.loads(BENCH.read_text(encoding="utf-8"))
    new = tmp_path / "new.json"
    new.write_text(json.dumps(with_c_ratio(data)), encoding="utf-8")
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "out"
    assert charts.main(["--out", str(out), str(new), str(old)]) == 0
    a = check_png(out / "new-simulate.png")
    b = check_png(out / "old-simulate.png")
    assert a.shape[1] > b.shape[1] * 1.3, (a.shape, b.shape)
    # the titles carry the machine and the date: the recorded one, or the file name's
    assert charts.subtitle(with_c_ratio(data), new).endswith("2030-01-02, commit abc1234")
    assert "2026-11-26" in charts.subtitle(data, BENCH)
    assert "AMD EPYC" in charts.subtitle(data, BENCH)
    for g in GAMES:
        check_png(out / f"new-calls-{g}.png")


def test_subtitle_of_a_run_merged_from_parts_on_two_machines(charts: Any) -> None:
    """``strength.py --merge`` keeps one machine a part: the title names each machine with
    the parts it played, in order, and says so when every part ran on one machine."""
    xeon = {"cpu": "Intel(R) Xeon(R) Processor", "cores": 2, "date": "2026-11-28"}
    epyc = {"cpu": "AMD EPYC", "cores": 2, "date": "2026-11-29"}
    sub = charts.subtitle({"machine": [xeon] * 4 + [epyc] * 4}, Path("whole.json"))
    assert sub == (
        "parts 1-4: Intel(R) Xeon(R) Processor, 2 cores, 2026-11-28; parts 5-8: AMD EPYC, 2 cores, 2026-11-29"
    ), sub
    sub = charts.subtitle({"machine": [xeon, epyc, xeon]}, Path("whole.json"))
    assert sub.startswith("parts 1, 3: Intel") and "parts 2: AMD EPYC" in sub, sub
    assert charts.subtitle({"machine": [epyc] * 8}, Path("w.json")) == "8 parts: AMD EPYC, 2 cores, 2026-11-29"


def test_ratio_panel_without_recorded_targets(charts: Any, tmp_path: Path) -> None:
    """``mousehole bench --json`` no longer records targets: the ratio panel is drawn from
    the ratios alone, and differs from the same run with its targets recorded (the target
    lines and tick labels come from the JSON, when there)."""
    data = with_c_ratio(json.loads(BENCH.read_text(encoding="utf-8")))
    bare = copy.deepcopy(data)
    for per in bare["c_ratio"].values():
        for e in per.values():
            e.pop("target", None)
            e.pop("met", None)
    for name, d in (("with", data), ("bare", bare)):
        (tmp_path / f"{name}.json").write_text(json.dumps(d), encoding="utf-8")
    assert charts.main(["--out", str(tmp_path), str(tmp_path / "with.json"), str(tmp_path / "bare.json")]) == 0
    a = check_png(tmp_path / "with-simulate.png")
    b = check_png(tmp_path / "bare-simulate.png")
    assert b.shape[1] == a.shape[1]  # the ratio panel is there in both
    assert a.shape != b.shape or not np.array_equal(a, b)


def test_calls_chart_follows_the_figures(charts: Any, tmp_path: Path) -> None:
    """A different figure draws a different chart (the bars come from the JSON)."""
    data = json.loads(BENCH.read_text(encoding="utf-8"))
    slower = copy.deepcopy(data)
    slower["games"]["m"]["compiled"]["clone_ns"] *= 50
    for name, d in (("a", data), ("b", slower)):
        (tmp_path / f"{name}.json").write_text(json.dumps(d), encoding="utf-8")
    assert charts.main(["--out", str(tmp_path), str(tmp_path / "a.json"), str(tmp_path / "b.json")]) == 0
    a = check_png(tmp_path / "a-calls-m.png")
    b = check_png(tmp_path / "b-calls-m.png")
    assert a.shape == b.shape and not np.array_equal(a, b)
    assert (tmp_path / "a-calls-kasimir.png").read_bytes() == (tmp_path / "b-calls-kasimir.png").read_bytes()


def test_deterministic(charts: Any, tmp_path: Path) -> None:
    """Two runs over the same file write the same bytes."""
    outs: List[bytes] = []
    for k in range(2):
        assert charts.main(["--out", str(tmp_path / str(k)), str(STRENGTH)]) == 0
        outs.append((tmp_path / str(k) / f"{STRENGTH.stem}.png").read_bytes())
    assert outs[0] == outs[1]
    check_png(tmp_path / "0" / f"{STRENGTH.stem}.png")


@pytest.mark.parametrize(
    "text, reason",
    [
        ("not json at all", "not readable JSON"),
        ("[1, 2, 3]", "not a JSON object"),
        ('{"games": {"m": {"compiled": {"speed": 3}}}}', "holds no per-call figures"),
        ('{"rows": [{"game": "m"}]}', "not a list of strength results"),
        ('{"machine": {}}', "neither a benchmark run"),
    ],
)
def test_unreadable_file_is_skipped(charts: Any, tmp_path: Path, capsys: Any, text: str, reason: str) -> None:
    """A file the script does not understand is skipped with one line naming it and why;
    the readable files beside it are still drawn; with nothing drawn the exit status is 1."""
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    assert charts.main(["--out", str(out), str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"bench_charts: skipped {bad}: " in err and reason in err
    assert not out.exists() or not list(out.iterdir())
    assert charts.main(["--out", str(out), str(bad), str(STRENGTH)]) == 0
    assert f"skipped {bad}" in capsys.readouterr().err
    assert [p.name for p in out.iterdir()] == [f"{STRENGTH.stem}.png"]
