"""Each game declares itself: the facts on its Game class, and the layering they allow.

* No module outside the game modules (and outside each game's drawing module) switches on a
  game id: every comparison against an id, dict keyed by an id or subscript by an id there
  fails this suite. The modules around the games read the facts the Game classes declare
  (``INFORMATION``, ``SINGLE_WINNER``, ``ENV_ID``, ``DRAWING``, ``OPENSPIEL_DEFAULTS``,
  ``SIMULTANEOUS_ACTIONS``, ``max_game_length()``, ``chance_actions()``, ``greedy_value()``,
  ``describe_hidden()``).
* ``mousehole._api`` imports no game module and no drawing, not even for typing.
* Every fact agrees with the rules (the test profile, written from the rules) and with what
  seeded random games do.
"""

from __future__ import annotations

import ast
import importlib
import pathlib
from typing import Any, Dict, List, Set, Tuple

import pytest

import mousehole
from gamecases import CASES, IDS, Profile, profile, random_walk
from mousehole import _api, bots
from mousehole._api import CHANCE, Game

SRC = pathlib.Path(mousehole.__file__).resolve().parent
GAME_IDS = frozenset(mousehole.game_names())


# ---------------------------------------------------------------------------------------
# no code outside the game modules switches on a game id


def _outside_the_games() -> List[pathlib.Path]:
    """The package's Python files but the game modules and the games' drawing modules."""
    files = [p for p in sorted(SRC.glob("*.py")) if p.stem not in GAME_IDS]
    files += [p for p in sorted(SRC.glob("render/*.py")) if p.stem not in GAME_IDS]
    return files


def _is_id(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in GAME_IDS


def _holds_id(node: ast.AST) -> bool:
    return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(_is_id(e) for e in node.elts)


def id_switches(source: str) -> List[Tuple[int, str]]:
    """``(line, what)`` for every place in ``source`` that compares against a game id
    (``==``, ``!=``, ``is``, ``in`` a literal collection of ids, ``match`` cases), keys a
    dict literal by one or subscripts by one."""
    found: List[Tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_is_id(x) or _holds_id(x) for x in operands):
                found.append((node.lineno, "comparison with a game id"))
        elif isinstance(node, ast.Dict):
            if any(k is not None and _is_id(k) for k in node.keys):
                found.append((node.lineno, "dict keyed by a game id"))
        elif isinstance(node, ast.Subscript):
            literal = getattr(node.value, "id", getattr(node.value, "attr", "")) == "Literal"
            if _is_id(node.slice) and not literal:  # (``Literal["m"]`` types load's overloads)
                found.append((node.lineno, "subscript by a game id"))
        elif _MATCH_VALUE is not None and isinstance(node, _MATCH_VALUE):
            if _is_id(node.value):
                found.append((node.lineno, "match case on a game id"))
    return found


# ``match`` statements exist from Python 3.10 (the scanner runs on 3.9 too, where none can be)
_MATCH_VALUE = getattr(ast, "MatchValue", None)


# Benchmark configuration keyed by game id (the C reference loops, the per-game simulation
# sizes): not a fact of the games but of the benchmark suite, which is being moved out of the
# package; the comparisons in it are checked all the same.
_KEYED_TABLES_ALLOWED = {"bench.py"}


def test_the_scan_finds_every_kind_of_switch() -> None:
    """The scanner itself (so that a clean result means something)."""
    src = """
if game.name == "kasimir": pass
if "m" != name: pass
if name in ("cheese_rescue", "x"): pass
T = {"maus_au_chocolat": 1}
v = T["m"]
ok = {"players": 2}["players"]
def load(name: Literal["m"]) -> M: ...
s = "m" + "x"
"""
    match = """
match name:
    case "kasimir": pass
"""
    if _MATCH_VALUE is not None:  # (Python 3.10 and later)
        src += match
    kinds = [what for _, what in id_switches(src)]
    assert kinds.count("comparison with a game id") == 3
    assert kinds.count("dict keyed by a game id") == 1
    assert kinds.count("subscript by a game id") == 1
    assert kinds.count("match case on a game id") == (1 if _MATCH_VALUE is not None else 0)
    assert len(kinds) == (6 if _MATCH_VALUE is not None else 5)


def test_no_code_outside_the_game_modules_switches_on_a_game_id() -> None:
    files = _outside_the_games()
    assert any(p.name == "openspiel.py" for p in files) and not any(p.stem in GAME_IDS for p in files)
    bad = []
    for path in files:
        for line, what in id_switches(path.read_text(encoding="utf-8")):
            if what != "comparison with a game id" and path.name in _KEYED_TABLES_ALLOWED:
                continue
            bad.append(f"{path.relative_to(SRC.parent)}:{line}: {what}")
    assert not bad, "declare a fact on the Game class instead:\n" + "\n".join(bad)


# ---------------------------------------------------------------------------------------
# layering: _api is below the games and the drawings


def _imports(path: pathlib.Path) -> Set[str]:
    """Every module ``path`` imports, anywhere in it (functions and TYPE_CHECKING blocks too),
    as absolute dotted names within the package."""
    out: Set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = "mousehole" + ("." + base if base else "")
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


def test_api_imports_no_game_module_and_no_drawing() -> None:
    imported = _imports(SRC / "_api.py")
    games = {f"mousehole.{g}" for g in GAME_IDS}
    assert not imported & games, sorted(imported & games)
    assert not {m for m in imported if m == "mousehole.render" or m.startswith("mousehole.render.")}
    assert "mousehole._rng" in imported  # (the scan sees the module's imports)


def test_load_works_from_both_layers(engine: str) -> None:
    """``mousehole.load`` (typed, above the games) and ``mousehole._api.load`` (the registry
    lookup) load the same games and refuse the same ids."""
    for name in GAME_IDS:
        assert mousehole.load(name, engine=engine, players=2) == _api.load(name, engine=engine, players=2)
    for bad in ("chess", 3):
        for load in (mousehole.load, _api.load):
            with pytest.raises(mousehole.ParameterError, match="known games: cheese_rescue"):
                load(bad)  # type: ignore[arg-type]


def test_states_draw_themselves_through_the_wired_drawer() -> None:
    state = mousehole.load("kasimir", engine="python", players=2).new_state(3)
    assert _api.svg_drawer is not _api._no_drawer
    svg = state._repr_svg_()
    assert svg.startswith("<") and "svg" in svg[:200]


# ---------------------------------------------------------------------------------------
# the facts agree with the rules and with the games


def test_a_game_without_a_profile_runs_on_the_defaults() -> None:
    assert profile("a_fifth_game") == Profile()
    assert all(profile(g) is not Profile() for g in GAME_IDS)


@pytest.mark.parametrize("name", sorted(GAME_IDS))
def test_declared_facts_match_the_rules(name: str) -> None:
    cls = _api._REGISTRY[name]
    prof = profile(name)
    assert cls.INFORMATION in ("perfect", "imperfect")
    assert (cls.INFORMATION == "perfect") == prof.perfect_information
    assert cls.SINGLE_WINNER is prof.single_winner
    assert dict(cls.OPENSPIEL_DEFAULTS).keys() <= cls.DEFAULTS.keys()
    assert bool(cls.OPENSPIEL_DEFAULTS) == bool(prof.openspiel_chance_off)
    drawing = importlib.import_module(cls.DRAWING)  # (render draws every game through it)
    assert isinstance(getattr(drawing, "Drawing", None), type), f"{name}: {cls.DRAWING} has no Drawing class"
    if cls.__module__.startswith("mousehole."):  # a game of the package: its drawing is in the package's render
        assert cls.DRAWING == f"mousehole.render.{name}"
    assert isinstance(cls.SIMULTANEOUS_ACTIONS, range) and cls.SIMULTANEOUS_ACTIONS.step == 1
    assert bool(cls.SIMULTANEOUS_ACTIONS) == prof.simultaneous_choices
    assert cls.greedy_value is not Game.greedy_value  # GreedyBot plays every game


def test_environment_ids_are_unique_and_registered() -> None:
    ids = {g: _api._REGISTRY[g].ENV_ID for g in GAME_IDS}
    assert all(i.startswith("mousehole/") and i.endswith("-v0") for i in ids.values())
    assert len(set(ids.values())) == len(ids)
    try:
        importlib.import_module("gymnasium")
    except ImportError:  # (Python 3.9: the extra needs 3.10) the module says what it needs
        with pytest.raises(ImportError, match=r"pip install 'gymnasium>=1\.0'"):
            importlib.import_module("mousehole.gymnasium")
        return
    gym = importlib.import_module("mousehole.gymnasium")
    assert gym.ENV_IDS == {i: g for g, i in ids.items()}


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_max_game_length_bounds_random_games(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    name, params = case
    for max_turns in (2, 5):
        game = mousehole.load(name, engine=engine, **dict(params, max_turns=max_turns))
        bound = game.max_game_length()
        assert 1 <= bound <= 10**9
        for seed in range(6):
            state = game.new_state(seed)
            decisions = 0
            for _ in random_walk(state, seed):
                decisions += state.current_player != CHANCE
            assert decisions <= bound, (name, params, max_turns, seed)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_chance_actions_are_the_chance_nodes_actions(case: Tuple[str, Dict[str, Any]], engine: str) -> None:
    """At a chance node every legal action and every outcome is in ``chance_actions()``; at a
    decision node none is; a game without them never reaches a chance node."""
    name, params = case
    game = mousehole.load(name, engine=engine, **params)
    chance = game.chance_actions()
    assert isinstance(chance, range) and chance.step == 1
    assert 0 <= chance.start and chance.stop <= game.num_actions or len(chance) == 0
    nodes = 0
    for seed in range(3):
        state = game.new_state(seed)
        for _ in random_walk(state, seed):
            legal = set(state.legal_actions().tolist())
            if state.is_chance_node():
                nodes += 1
                assert legal <= set(chance)
                assert {a for a, _ in state.chance_outcomes()} <= set(chance)
            else:
                assert not legal & set(chance)
    assert (nodes > 0) == (len(chance) > 0)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_simultaneous_actions_stay_hidden_and_unseen_moves_say_nothing(
    case: Tuple[str, Dict[str, Any]], engine: str
) -> None:
    """An action of ``SIMULTANEOUS_ACTIONS`` is hidden from every other seat when it is played
    and the phase goes on (its view's history holds None); wherever a view hides an action, that seat's
    ``describe(a, for_player=seat)`` is what its two views tell (``describe_seen``)."""
    name, params = case
    game = mousehole.load(name, engine=engine, **params)
    sim = game.SIMULTANEOUS_ACTIONS
    played_sim = hidden_seen = 0
    for seed in range(2):
        state = game.new_state(seed)
        for a in random_walk(state, seed, max_steps=400):
            mover = state.current_player
            if mover == CHANCE:
                continue
            seen_words = [state.describe(a, for_player=seat) for seat in range(game.num_players)]
            before_views = [state.to_dict(for_player=seat) for seat in range(game.num_players)]
            after = state.clone()
            after.apply_action(a)
            # (the last choice of a simultaneous phase reveals them all)
            still = a in sim and not after.is_terminal() and bool(set(after.legal_actions().tolist()) & set(sim))
            for seat in range(game.num_players):
                if seat == mover:
                    continue
                seen = after.to_dict(for_player=seat)["history"][-1]
                if still:
                    played_sim += 1
                    assert seen is None, (name, a, seat)
                if seen is None:
                    hidden_seen += 1
                    # told from the seat's two views alone, never the mover's own words
                    assert seen_words[seat] == game.describe_seen(before_views[seat], after.to_dict(for_player=seat))
    assert (played_sim > 0) == (len(sim) > 0)
    if profile(name).views_hide_moves:  # games whose views hide moves (M-22, MC-7)
        assert hidden_seen > 0


def test_greedy_heuristic_is_the_games_own() -> None:
    for name in GAME_IDS:
        game = mousehole.load(name, engine="python", players=2)
        h = bots.heuristic(game)
        state = game.new_state(1)
        assert h(state, 0) == game.greedy_value(state, 0)

    class _Bare(Game[Any, Any]):  # a game that declares no heuristic (never registered)
        name = "bare"

    bare = object.__new__(_Bare)
    with pytest.raises(ValueError, match="no heuristic"):
        bots.heuristic(bare)
    with pytest.raises(NotImplementedError):
        bare.greedy_value(state, 0)
