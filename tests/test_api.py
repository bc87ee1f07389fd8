"""The shared API (docs/api.md): loading, parameters, engines, the generator, simulate, the
README tour and the doctests of the installed modules."""

from __future__ import annotations

import doctest
import importlib
import os
import pickle
import re
import subprocess
import sys
from typing import List

import numpy as np
import pytest

import mousehole
from mousehole import _api
from mousehole._rng import Rng, derive, mix64

README = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.md")


def test_game_names_and_load() -> None:
    names = mousehole.game_names()
    assert names == sorted(_api._REGISTRY) and names  # (tests/test_touch_points.py: what each one has)
    assert all(_api._REGISTRY[n].name == n for n in names)
    for name in mousehole.game_names():
        game = mousehole.load(name)
        assert game.num_players == 4 and game.params["players"] == 4
        assert game.engine == mousehole.default_engine()
    with pytest.raises(mousehole.ParameterError, match="unknown game"):
        mousehole.load("chess")
    with pytest.raises(mousehole.ParameterError, match="engine"):
        mousehole.load("cheese_rescue", engine="gpu")
    with pytest.raises(mousehole.ParameterError, match="players"):
        mousehole.load("cheese_rescue", players="4")
    with pytest.raises(mousehole.ParameterError, match="allowed"):
        mousehole.load("cheese_rescue", player=4)


def test_errors_are_value_errors() -> None:
    for cls in (mousehole.IllegalMoveError, mousehole.StateError, mousehole.ParameterError):
        assert issubclass(cls, ValueError) and issubclass(cls, mousehole.MouseholeError)


def test_engines_listed() -> None:
    engines = mousehole.available_engines()
    assert "python" in engines
    pure = os.environ.get("MOUSEHOLE_PUREPYTHON", "") not in ("", "0")
    assert ("compiled" in engines) == (not pure)
    if pure:
        with pytest.raises(mousehole.ParameterError, match="MOUSEHOLE_PUREPYTHON"):
            mousehole.load("cheese_rescue", engine="compiled")


def test_pure_python_switch_in_a_fresh_interpreter() -> None:
    code = "import mousehole; print(mousehole.available_engines(), mousehole.load('m').engine)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=dict(os.environ, MOUSEHOLE_PUREPYTHON="1"),
        check=True,
    ).stdout
    assert out.strip() == "['python'] python"


def test_rng_reference_values() -> None:
    # SplitMix64 of seed 0: the published first output of the algorithm
    r = Rng(0)
    assert r.next64() == 0xE220A8397B1DCDAF
    assert r.next64() == 0x6E789E6AA1B965F4
    assert derive(0, 1) == 0x6E789E6AA1B965F4 and mix64(0) == 0
    r = Rng(5)
    counts = np.bincount([r.below(6) for _ in range(60000)], minlength=6)
    assert counts.min() > 9500 and counts.max() < 10500
    items = list(range(10))
    Rng(1).shuffle(items)
    assert sorted(items) == list(range(10)) and items != list(range(10))
    with pytest.raises(TypeError):
        mousehole.load("cheese_rescue").new_state(seed="7")  # type: ignore[arg-type]


def test_simulate_arguments(engine: str) -> None:
    game = mousehole.load("cheese_rescue", players=2, engine=engine)
    with pytest.raises(TypeError):
        mousehole.simulate("cheese_rescue", 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        mousehole.simulate(game, -1)
    with pytest.raises(ValueError):
        mousehole.simulate(game, 3, threads=0)
    r = mousehole.simulate(game, 0)
    assert r.n_games == 0
    r = mousehole.simulate(game, 8, seed=5)
    assert "8 games" in r.summary() and r.win_rates().shape == (2,)


def test_game_pickle_and_equality(engine: str) -> None:
    g = mousehole.load("cheese_rescue", players=3, engine=engine, max_turns=20)
    assert pickle.loads(pickle.dumps(g)) == g and hash(g) == hash(pickle.loads(pickle.dumps(g)))
    assert g != mousehole.load("cheese_rescue", players=3, engine=engine)
    assert repr(g) == f"mousehole.load('cheese_rescue', players=3, max_turns=20, engine={engine!r})"
    p = g.params
    p["players"] = 4
    assert g.params["players"] == 3, "params is a copy"


def test_readme_tour_runs() -> None:
    text = open(README).read()
    tour = re.search(r"## A short tour\n\n```python\n(.*?)```", text, re.S)
    assert tour
    code = tour.group(1)
    n = 100_000
    if mousehole.default_engine() == "python":  # the reference is ~5000x slower: fewer games
        code, n = code.replace("100_000", "300"), 300
    namespace: dict = {}
    exec(compile(code, "README tour", "exec"), namespace)
    typed = re.search(r"Typed use:.*?```python\n(.*?)```", text, re.S)
    assert typed
    exec(compile(typed.group(1), "README typed use", "exec"), namespace)
    assert len(namespace["m_state"].history) == 1
    assert namespace["state"].is_terminal()
    assert namespace["result"].scores.shape == (n, 4)
    more = re.search(r"Bots, tournaments, environments.*?```python\n(.*?)```", text, re.S)
    assert more
    code = more.group(1)
    if mousehole.default_engine() == "python":  # small budgets for the reference engine
        code = (
            code.replace("iterations=1000", "iterations=2")
            .replace("mcts:1000", "mcts:2")
            .replace(", 20, seed", ", 1, seed")
        )
    exec(compile(code, "README bots and more", "exec"), namespace)
    assert len(namespace["state"].history) == 1
    assert namespace["records"].loads(namespace["text"]).final_state() == namespace["state"]
    assert namespace["svg"].startswith("<svg") and namespace["vec"].num_envs == 1024
    if mousehole.default_engine() == "compiled":  # the tournament as the README writes it
        wins = [s.wins for s in namespace["result"].stats]
        assert wins == sorted(wins, reverse=True), (
            "the README's tournament, strongest first, "
            f"does not finish in that order: {namespace['result'].bots} won {wins}"
        )


def test_readme_tournament_follows_the_ladder() -> None:
    """The README's tournament lists its bots strongest first: the kinds in the order of the
    ladder of ``docs/bots.md`` for the README's game (``test_readme_tour_runs`` checks that its
    seeded run finishes in that order too)."""
    text = open(README).read()
    game = re.search(r'game = mousehole\.load\("(\w+)"', text)
    specs = re.search(r"arena\.play\(game, \[([^]]*)\]", text)
    assert game and specs
    kinds = [s.strip().strip('"').split(":")[0] for s in specs.group(1).split(",")]
    bots_md = open(os.path.join(os.path.dirname(README), "docs", "bots.md")).read()
    table = re.search(r"\*\*The ladder\*\*(.*?)!\[rating ladder\]", bots_md, re.S)
    assert table
    ladder = re.findall(rf"^\| {game.group(1)} \| (\d) \| (\w+)[: ]", table.group(1), re.M)
    assert len(ladder) == 5, ladder
    rank = {kind: int(r) for r, kind in ladder}
    assert [rank[k] for k in kinds] == sorted(rank[k] for k in kinds), (kinds, ladder)


@pytest.mark.parametrize(
    "module",
    ["mousehole", "mousehole._api", "mousehole._rng", "mousehole._simulate"]
    + [_api._REGISTRY[n].__module__ for n in mousehole.game_names()],
)
def test_doctests(module: str) -> None:
    mod = importlib.import_module(module)
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


@pytest.mark.parametrize("name", mousehole.game_names())
def test_new_state_seeds_are_the_same_on_both_engines(name: str, engine: str) -> None:
    """``game.new_state`` (one compiled call on the compiled engine) takes any int modulo
    2**64, numpy integers and a keyword, and refuses a bool or a non-integer, as the
    reference does."""
    game = mousehole.load(name, engine=engine)
    ref = mousehole.load(name, engine="python")
    for seed, same in (
        (-1, 2**64 - 1),
        (2**64 + 5, 5),
        (np.uint64(2**63 + 1), 2**63 + 1),
        (np.int64(-3), 2**64 - 3),
        (np.int32(9), 9),
    ):
        s = game.new_state(seed)  # type: ignore[arg-type]
        assert s.seed == same
        assert s.to_dict() == ref.new_state(same).to_dict()
    assert game.new_state(seed=4).to_dict() == game.new_state(4).to_dict() == ref.new_state(4).to_dict()
    fresh = game.new_state()  # no seed: a fresh one from the OS (tests/test_seeds.py), reported
    assert fresh.to_dict() == ref.new_state(fresh.seed).to_dict()
    for bad in (True, np.bool_(False), "7", 1.0):
        with pytest.raises(TypeError, match="seed"):
            game.new_state(bad)  # type: ignore[arg-type]
    import pickle

    assert pickle.loads(pickle.dumps(game)).new_state(3).to_dict() == game.new_state(3).to_dict()


@pytest.mark.parametrize("name", mousehole.game_names())
def test_apply_with_text_points_to_parse_action(name: str, engine: str) -> None:
    """``state.apply("pass")``: a TypeError that names ``parse_action`` (the way to play a
    move written in the notation); the state is unchanged."""
    state = mousehole.load(name, engine=engine).new_state(seed=4)
    before = state.to_dict()
    text = state.describe(int(state.legal_actions()[0]))
    with pytest.raises(TypeError, match=r"state\.parse_action"):
        state.apply(text)  # type: ignore[arg-type]
    assert state.to_dict() == before
    state.apply_action(state.parse_action(text))
    assert state.to_dict() != before


PROTOCOL = (
    "legal_actions",
    "apply_action",
    "is_terminal",
    "current_player",
    "scores",
    "winners",
    "truncated",
    "history",
    "clone",
    "legal_action_mask",
    "observation",
    "is_chance_node",
)


def compiled_modules() -> List[str]:
    """The package's compiled modules as installed (every ``.pyx`` of ``cengine/mousehole``;
    Cython's shared utility module aside), found in the package folder, not listed here."""
    import importlib.machinery
    import pkgutil

    out = []
    for info in pkgutil.iter_modules(mousehole.__path__):
        spec = info.module_finder.find_spec(info.name, None)  # type: ignore[call-arg]
        origin = (spec.origin or "") if spec is not None else ""
        if origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) and info.name != "_cyutility":
            out.append(info.name)
    return sorted(out)


@pytest.mark.compiled
def test_help_shows_the_signatures_of_compiled_methods() -> None:
    """``help()`` and ``inspect.signature`` read the signature of every method and function of
    the compiled modules (Cython writes it in CPython's own docstring format, setup.py's
    ``embedsignature.format``), not ``name(...)``; the docstring keeps its text, without the
    signature line."""
    import inspect
    import pydoc

    seen = 0
    modules = compiled_modules()
    assert {"_cgame", "_search", "_statecore", "_vector"} <= set(modules), modules
    for mod_name in modules:
        mod = importlib.import_module(f"mousehole.{mod_name}")
        for name, obj in vars(mod).items():
            found = []
            if isinstance(obj, type) and obj.__module__ == mod.__name__:
                found = [
                    (f"{name}.{a}", getattr(obj, a))
                    for a, v in vars(obj).items()
                    if type(v).__name__ in ("method_descriptor", "classmethod_descriptor")
                ]
            elif type(obj).__name__ == "builtin_function_or_method" and not name.startswith("__"):
                found = [(name, obj)]
            for where, fn in found:
                sig = inspect.signature(fn)
                short = where.rsplit(".", 1)[-1]
                page = pydoc.render_doc(fn, renderer=pydoc.plaintext)
                # (pydoc of 3.13 and later writes a long signature one parameter a line)
                flat_page, flat_sig = re.sub(r"\s+", "", page), re.sub(r"\s+", "", f"{short}{sig}")
                assert f"{short}(...)" not in page and flat_sig in flat_page, (mod_name, where, page[:300])
                seen += 1
    assert seen > 60  # (the state methods are written once, on StateCore: 67 methods and functions when written)
    state = mousehole.load("m", engine="compiled").new_state(seed=1)
    assert str(inspect.signature(type(state).observation)) == "(self, /, player, out=None)"
    assert str(inspect.signature(state.apply_action)) == "(action)"
    assert type(state).legal_actions.__doc__.startswith("The legal actions of the seat to move")


@pytest.mark.compiled
@pytest.mark.parametrize("name", mousehole.game_names())
def test_compiled_members_are_documented(name: str) -> None:
    """``help()`` on a compiled state's methods and properties shows their documentation,
    not only the signature Cython embeds."""
    import pydoc

    state = mousehole.load(name, engine="compiled").new_state(seed=1)
    for member in PROTOCOL:
        doc = getattr(type(state), member).__doc__ or ""
        text = "\n".join(line for line in doc.splitlines() if not re.match(r"^\w+\.\w+\(self.*\)$", line)).strip()
        assert len(text) > 20, f"{name}: {member} has no documentation: {doc!r}"
        assert text.split()[0] in pydoc.render_doc(getattr(type(state), member), renderer=pydoc.plaintext)
