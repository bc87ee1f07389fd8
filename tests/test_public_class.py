"""The public compiled state classes (a compiled core + the shared API, ``__slots__ = ()``)
are adopted by their core (``adopt_public_class`` in _pyalloc.pxd): their instances are not
tracked by the garbage collector, the core's methods are re-declared on them (so that the
interpreter's specialised method calls apply), their memory comes from a small pool of freed
states, and nothing else changes."""

from __future__ import annotations

import gc
import pickle
import sys
from typing import Any

import pytest

import mousehole
from gamecases import CASES, IDS, random_walk

pytestmark = pytest.mark.compiled


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_states_are_not_gc_tracked_and_behave_the_same(case: Any) -> None:
    name, params = case
    game = mousehole.load(name, engine="compiled", **params)
    state = game.new_state(5)
    cls = type(state)
    core = cls.__mro__[1]
    assert not gc.is_tracked(state)
    assert not gc.is_tracked(state.clone())
    assert not gc.is_tracked(state.determinize(0, 3))
    assert not gc.is_tracked(pickle.loads(pickle.dumps(state)))
    # every method of the core and of its compiled base (StateCore) is declared on the public
    # class too, with the same C function (the core's own where it defines the name)
    from mousehole._statecore import StateCore

    assert cls.__mro__[2] is StateCore
    seen = set()
    for klass in (core, StateCore):
        for attr, value in vars(klass).items():
            if type(value).__name__ == "method_descriptor" and attr not in seen:
                mine = vars(cls).get(attr)
                assert mine is not None and mine.__objclass__ is cls, attr
                assert mine.__doc__ == value.__doc__
            seen.add(attr)
    assert "_c_game" in vars(cls) and "_set_seed" in vars(cls)
    # a whole game through the public class, against the reference engine
    ref = mousehole.load(name, engine="python", **params).new_state(5)
    for a in random_walk(state.clone(), 5):
        assert state.current_player == ref.current_player
        state.apply_action(a)
        ref.apply_action(a)
    assert state.returns() == ref.returns()
    assert state.to_dict() == ref.to_dict()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pooled_states_start_from_zero_and_hold_their_class(case: Any) -> None:
    """A state's memory is reused after it is freed (the pool): a reused object must start
    zeroed (a fresh state's history pointer is NULL: a stale one would be freed twice) and
    every object holds one reference to its class, released when it is freed."""
    name, params = case
    game = mousehole.load(name, engine="compiled", **params)
    played = game.new_state(2)
    for a in random_walk(played.clone(), 8):
        played.apply_action(a)
    fresh = game.new_state(3)
    cls = type(fresh)
    gc.collect()  # (garbage of earlier tests holding states would be freed in the middle)
    gc.disable()
    try:
        before = sys.getrefcount(cls)
        for _ in range(3):
            kept = [played.clone() for _ in range(100)]  # more than the pool holds
            assert sys.getrefcount(cls) >= before + 100  # one reference per object
            del kept
            clones = [fresh.clone() for _ in range(100)]  # the freed memory, reused
            for c in clones:
                assert c.history == [] and c.to_dict() == fresh.to_dict()
            del clones, c
        assert sys.getrefcount(cls) == before
    finally:
        gc.enable()
    assert played.to_dict() == pickle.loads(pickle.dumps(played)).to_dict()


def test_a_user_subclass_still_works() -> None:
    """A subclass of a public class is an ordinary class (tracked, with a ``__dict__``): it
    is created, cloned, collected and freed like any other."""
    game = mousehole.load("cheese_rescue", engine="compiled")
    cls = type(game.new_state(1))

    class Mine(cls):  # type: ignore[misc, valid-type]
        def moves(self) -> int:
            return len(self.legal_actions())

    s = Mine.new(game, 1)
    c = s.clone()
    assert type(c) is Mine and gc.is_tracked(c)
    c.note = "kept"  # it has a __dict__
    c.apply_action(int(c.legal_actions()[0]))
    assert c.moves() == len(c.legal_actions())
    assert c.history != s.history
    c.self_ref = c  # a cycle, which the collector frees
    del c
    gc.collect()
    assert s.moves() > 0


def test_only_a_fieldless_direct_subclass_can_be_adopted() -> None:
    from mousehole._cheese_rescue import CheeseRescueCore

    class WithDict(CheeseRescueCore):  # type: ignore[misc]
        pass

    with pytest.raises(TypeError, match="adds only methods"):
        CheeseRescueCore._adopt_public_class(WithDict)
    assert gc.is_tracked(WithDict.new(mousehole.load("cheese_rescue", engine="compiled"), 1))


def test_the_base_class_alone_is_no_game_state() -> None:
    """``StateCore`` (the cores' shared base) builds no state of its own: its hooks refuse."""
    from mousehole._statecore import StateCore

    game = mousehole.load("kasimir", engine="compiled")
    with pytest.raises(TypeError, match="StateCore is not a game's compiled state class"):
        StateCore.new(game, 1)
    with pytest.raises(TypeError, match="StateCore is not a game's compiled state class"):
        StateCore._new_state_function(game)(1)
    with pytest.raises(TypeError, match="StateCore is not a game's compiled state class"):
        StateCore()._c_game()
    with pytest.raises(TypeError, match="StateCore is not a game's compiled state class"):
        StateCore()._c_state()
    with pytest.raises(TypeError):  # not a class of this game (_api.load_state_as)
        StateCore.from_dict(game, game.new_state(1).to_dict())
