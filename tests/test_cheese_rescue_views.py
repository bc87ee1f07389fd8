"""Cheese Rescue, CR-15: what each seat sees, and determinization from that view alone.

Public: the table, the history (every card laid and its cell), the number of cards in each
hand and in the pile, the cheese cards still in each hand. Private: one's own animals.
Hidden from everyone: the pile (its order, and which animals it holds) and the generator.
These tests build states that differ only in what a seat cannot see and check that the seat's
view, observation and determinizations do not tell them apart, on both engines."""

from __future__ import annotations

import json
from typing import Any, Dict, List

import numpy as np
import pytest

import mousehole
from mousehole._rng import Rng


def played(game: Any, seed: int, steps: int) -> Any:
    s = game.new_state(seed=seed)
    rng = Rng(seed + 1)
    for _ in range(steps):
        legal = s.legal_actions()
        s.apply_action(int(legal[rng.below(len(legal))]))
    return s


def hidden_variant(game: Any, d: Dict[str, Any], p: int, seed: int, keep_hands: bool) -> Dict[str, Any]:
    """``d`` with everything seat ``p`` cannot see dealt anew: the pile in another order and,
    unless ``keep_hands``, the other seats' animals exchanged with the pile (hand sizes kept)."""
    e = json.loads(json.dumps(d))
    rng = Rng(seed)
    if keep_hands:
        pile = list(e["pile"])
        while pile == e["pile"] and len(set(pile)) > 1:
            rng.shuffle(pile)
        e["pile"] = pile
        return e
    pool = list(e["pile"])
    sizes = [sum(h[:3]) for h in e["hands"]]
    for q, h in enumerate(e["hands"]):
        if q != p:
            for k in range(3):
                pool += [k] * h[k]
                h[k] = 0
    rng.shuffle(pool)
    for q, h in enumerate(e["hands"]):
        if q != p:
            for _ in range(sizes[q]):
                h[pool.pop()] += 1
    e["pile"] = pool
    e["rng"] = rng.next64()
    return e


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cr15_view_holds_exactly_what_the_rules_show(players: int, engine: str) -> None:
    """CR-15: nothing more (others' animals, the pile, the generator are gone) and nothing
    less (table, history, hand sizes, pile size, cheese in every hand, own animals)."""
    game = mousehole.load("cheese_rescue", players=players, engine=engine)
    s = played(game, 3, 7)
    full = s.to_dict()
    for p in range(players):
        v = s.to_dict(for_player=p)
        assert set(v) == set(full) | {"hand_sizes", "pile_size"}
        for key in ("game", "params", "table", "history", "truncated"):
            assert v[key] == full[key], key
        assert v["view"] == p and v["pile"] is None and v["rng"] is None
        assert v["pile_size"] == len(full["pile"])
        assert v["hand_sizes"] == [sum(h) for h in full["hands"]]
        for q in range(players):
            assert v["hands"][q][3:] == full["hands"][q][3:]  # cheese in hand: public
            assert v["hands"][q][:3] == (full["hands"][q][:3] if q == p else [None] * 3)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cr15_equal_views_give_equal_determinizations(players: int, engine: str) -> None:
    """CR-15: two states with the same view for p, whose piles and other hands differ, give
    the same determinizations and observations for p, seed by seed."""
    game = mousehole.load("cheese_rescue", players=players, engine=engine)
    compared = 0
    for steps in (0, 5, 13, 22):
        s = played(game, 20 + steps, steps)
        d = s.to_dict()
        for p in range(players):
            for keep_hands in (True, False):
                e = hidden_variant(game, d, p, 7 * steps + p, keep_hands)
                if e == d:
                    continue  # nothing hidden left to change (e.g. an empty pile)
                t = game.state_from_dict(e)
                assert t.to_dict(for_player=p) == s.to_dict(for_player=p)
                assert np.array_equal(t.observation(p), s.observation(p))
                for seed in range(4):
                    assert t.determinize(p, seed).to_dict() == s.determinize(p, seed).to_dict()
                compared += 1
    assert compared >= 3 * players


def test_cr15_the_true_pile_order_cannot_be_recovered(engine: str) -> None:
    """CR-15: the pile order is hidden: the determinized piles of two states that differ
    only in the pile order are identical for every seed, and across seeds the determinized
    pile is not the true one (a determinization that leaked the order would return it)."""
    game = mousehole.load("cheese_rescue", players=4, engine=engine)
    s = played(game, 8, 2)
    d = s.to_dict()
    e = hidden_variant(game, d, 0, 1, keep_hands=True)
    assert e["pile"] != d["pile"] and sorted(e["pile"]) == sorted(d["pile"])
    t = game.state_from_dict(e)
    same_as_truth = 0
    top_matches: List[int] = []
    for seed in range(200):
        a, b = s.determinize(0, seed).to_dict(), t.determinize(0, seed).to_dict()
        assert a["pile"] == b["pile"] and a["hands"] == b["hands"]
        same_as_truth += a["pile"] == d["pile"]
        top_matches.append(int(a["pile"][-1] == d["pile"][-1]))
    assert same_as_truth == 0
    # the top card agrees with the true top card about as often as chance says: the
    # probability that a random card of the hidden pool is of the true top card's kind
    hidden = d["pile"] + [k for q in range(1, 4) for k in range(3) for _ in range(d["hands"][q][k])]
    chance = hidden.count(d["pile"][-1]) / len(hidden)
    assert abs(sum(top_matches) / len(top_matches) - chance) < 0.15


def test_cr15_determinization_deals_the_hidden_animals(engine: str) -> None:
    """CR-15: a determinization keeps everything p sees (table, history, own hand, cheese in
    every hand, hand and pile sizes) and deals the animals hidden from p (the game's animals
    minus the table and p's hand) to the other hands and the pile; different seeds deal
    differently, and the deal does not follow the true one."""
    game = mousehole.load("cheese_rescue", players=3, engine=engine)
    s = played(game, 4, 6)
    d = s.to_dict()
    for p in range(3):
        deals = set()
        for seed in range(30):
            det = s.determinize(p, seed).to_dict()
            assert det["table"] == d["table"] and det["history"] == d["history"]
            assert det["hands"][p] == d["hands"][p]
            assert [h[3:] for h in det["hands"]] == [h[3:] for h in d["hands"]]
            assert [sum(h) for h in det["hands"]] == [sum(h) for h in d["hands"]]
            assert len(det["pile"]) == len(d["pile"])
            for k in range(3):  # the hidden animals are the same multiset
                hidden = d["pile"].count(k) + sum(h[k] for q, h in enumerate(d["hands"]) if q != p)
                assert det["pile"].count(k) + sum(h[k] for q, h in enumerate(det["hands"]) if q != p) == hidden
            deals.add(json.dumps([det["pile"], det["hands"]]))
        assert len(deals) > 20


def test_cr15_determinize_view_refuses_an_inconsistent_view(engine: str) -> None:
    """CR-15: a view whose sizes do not add up to the hidden animals is refused."""
    game = mousehole.load("cheese_rescue", players=2, engine=engine)
    s = played(game, 5, 4)
    v = s.to_dict(for_player=0)
    game.determinize_view(v, 1)
    bad: List[Dict[str, Any]] = []
    for change in (
        lambda w: w.update(pile_size=w["pile_size"] + 1),
        lambda w: w["hand_sizes"].__setitem__(1, w["hand_sizes"][1] + 1),
        lambda w: w["hand_sizes"].__setitem__(1, 0),
        lambda w: w.update(pile_size=True),
        lambda w: w.update(pile_size=10**12),
        lambda w: w.__delitem__("hand_sizes"),
        lambda w: w["hands"][0].__setitem__(0, w["hands"][0][0] + 30),
        lambda w: w["hands"].pop(),
    ):
        w = json.loads(json.dumps(v))
        change(w)
        bad.append(w)
    for w in bad:
        with pytest.raises(mousehole.StateError):
            game.determinize_view(w, 1)
    assert s.to_dict(for_player=0) == v
