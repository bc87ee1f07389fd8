"""Maus au Chocolat: ``state_from_dict`` accepts only consistent, playable states.

Each case takes a real state dict, breaks one thing, and expects a StateError that names the
key or the rule (never a TypeError, IndexError or a crash of the compiled engine). The
hypothesis fuzz (``tests/test_fuzz_state_dicts.py``) covers random mutations; these cases pin
the checks one by one. Both engines.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Dict

import pytest

import mousehole
from mousehole import StateError
from mousehole._rng import Rng
from mousehole.maus_au_chocolat import DECLINE, ETIENNE

Dict_ = Dict[str, Any]


def load(engine: str, players: int = 4, **kw: Any) -> Any:
    return mousehole.load("maus_au_chocolat", engine=engine, players=players, **kw)


def first(game: Any, seed: int, cond: Callable[[Dict_], bool], limit: int = 3000) -> Dict_:
    """The first state dict of a seeded random game (or of the next seeds) meeting cond."""
    for k in range(20):
        s = game.new_state(seed=seed + k)
        rng = Rng(seed + k)
        for _ in range(limit):
            d = s.to_dict()
            if cond(d):
                return d
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.below(len(legal))]))
    raise AssertionError("no such state found")


def refused(game: Any, d: Dict_, match: str) -> None:
    before = copy.deepcopy(d)
    with pytest.raises(StateError, match=match):
        game.state_from_dict(d)
    assert d == before, "state_from_dict never changes its argument"


def bid_phase(d: Dict_) -> bool:
    return d["phase"] == "bid" and d["bids"][0] >= 0 and d["round"] > 1


def pick_phase(d: Dict_) -> bool:
    return d["phase"] == "pick" and d["turn"] == 1


def combine_phase(d: Dict_) -> bool:
    return d["phase"] == "combine" and d["turn"] == 1


@pytest.mark.parametrize("key", ["round", "turn", "picks_left"])
def test_a_bool_is_not_an_int_in_scalars(engine: str, key: str) -> None:
    g = load(engine)
    d = first(g, 1, pick_phase)
    for bad in (True, False, 1.0, "1", None):
        refused(g, dict(d, **{key: bad}), f"'{key}'")


@pytest.mark.parametrize("key", ["etienne_used", "truncated"])
def test_flags_are_bools(engine: str, key: str) -> None:
    g = load(engine)
    d = first(g, 1, pick_phase)
    for bad in (0, 1, None, "True"):
        refused(g, dict(d, **{key: bad}), f"'{key}'")


@pytest.mark.parametrize(
    "key,path",
    [
        ("bids", (0,)),
        ("pools", (5,)),
        ("hands", (1, 0)),
        ("known", (0,)),
        ("vp", (0,)),
        ("history", (0,)),
        ("pile", (0,)),
        ("display", (0,)),
        ("discard", (0,)),
        ("helpers", (0,)),
        ("row", (0,)),
        ("order", (0,)),
    ],
)
def test_a_bool_is_not_an_int_in_lists(engine: str, key: str, path: tuple) -> None:
    g = load(engine)
    d = first(
        g,
        2,
        lambda d: (
            d["phase"] == "combine" and d["round"] > 2 and all(d["known"]) and all(d["vp"]) and bool(d["discard"])
        ),
    )
    e = copy.deepcopy(d)
    box = e[key]
    for i in path[:-1]:
        box = box[i]
    box[path[-1]] = True if not isinstance(box[path[-1]], list) else [True]
    refused(g, e, f"'{key}'")


@pytest.mark.parametrize(
    "key",
    [
        "pile",
        "display",
        "discard",
        "hands",
        "known",
        "vp",
        "pools",
        "bids",
        "helpers",
        "row",
        "order",
        "history",
        "phase",
    ],
)
def test_wrong_types_name_the_key(engine: str, key: str) -> None:
    g = load(engine)
    d = first(g, 3, combine_phase)
    for bad in (None, 3, "x", {"a": 1}, [None], [[None]]):
        refused(g, dict(d, **{key: bad}), f"'{key}'|MC-")


def test_phase_consistency(engine: str) -> None:
    g = load(engine)
    # MC-27: seats commit in seat order, and history ends with the committed bids
    d = first(g, 4, bid_phase)
    e = copy.deepcopy(d)
    e["bids"][0], e["hands"][0] = -1, sorted(e["hands"][0] + [d["bids"][0]])
    if d["bids"][1] < 0:
        e["bids"][1] = e["hands"][1][0]
        e["hands"][1] = e["hands"][1][1:]
        e["known"][1] = [c for c in e["known"][1] if c != e["bids"][1]]
    e["known"][0] = d["known"][0]
    refused(g, e, "MC-27")
    e = copy.deepcopy(d)
    e["history"] = e["history"][:-1] + [DECLINE]
    refused(g, e, "MC-27")
    # MC-7: a seat that still has to bid must hold a card
    e = copy.deepcopy(d)
    q = d["bids"].index(-1)
    e["discard"] = sorted(e["discard"] + e["hands"][q])
    e["hands"][q], e["known"][q] = [], []
    refused(g, e, "MC-7")
    # MC-16: a swap in this round's bids needs etienne_used, and only Etienne's holder swaps
    e = copy.deepcopy(d)
    e["etienne_used"] = not d["etienne_used"]
    refused(g, e, "MC-16")
    # MC-9: the picker has 1 or 2 picks left, and exactly the seats still to pick have bids
    p = first(g, 5, pick_phase)
    refused(g, dict(p, picks_left=0), "MC-9")
    refused(g, dict(p, picks_left=3), "MC-9")
    refused(g, dict(p, turn=0), "MC-9")
    # MC-8: the seats still to pick follow their coins
    p = first(g, 5, lambda d: d["phase"] == "pick" and d["turn"] == 0 and d["picks_left"] == 2)
    e = copy.deepcopy(p)
    e["order"] = e["order"][::-1]
    refused(g, e, "MC-8")
    # MC-10: the combination order follows the helper ranks
    c = first(g, 6, combine_phase)
    e = copy.deepcopy(c)
    e["order"][0], e["order"][1] = e["order"][1], e["order"][0]
    refused(g, e, "MC-10")
    refused(g, dict(c, turn=4), "'turn'")
    refused(g, dict(c, turn=-1), "'turn'")
    refused(g, dict(c, picks_left=1), "MC-9")
    # MC-14: the discard phase is for a hand above 8 cards
    refused(g, dict(c, phase="discard"), "MC-14")
    # MC-24: over only with a winner's target (or truncated at max_turns)
    refused(g, dict(c, phase="over", order=[], turn=0), "MC-24|MC-14")
    o = first(g, 7, lambda d: d["phase"] == "over")
    refused(g, dict(o, truncated=True), "truncated")
    refused(g, dict(o, phase="bid"), "MC-24|'order'")
    refused(g, dict(c, truncated=True), "truncated")


def test_cards_and_pools(engine: str) -> None:
    g = load(engine)
    d = first(g, 8, lambda d: d["phase"] == "combine" and any(d["known"]) and max(d["pools"]) > 0)
    q = next(q for q in range(4) if d["known"][q])
    # MC-26: known cards are part of the seat's hand
    e = copy.deepcopy(d)
    e["known"][(q + 1) % 4] = sorted(e["known"][(q + 1) % 4] + d["known"][q][:1])
    refused(g, e, "MC-26")
    # MC-26: a face-up card belongs to no pool; MC-6: the pile is the newest pool
    e = copy.deepcopy(d)
    e["pools"][d["display"][0]] = 1
    refused(g, e, "MC-26")
    top = max(d["pools"])
    if d["pile"]:
        e = copy.deepcopy(d)
        e["pools"][d["pile"][0]] = top - 1
        refused(g, e, "MC-6")
    e = copy.deepcopy(d)
    e["pools"][d["pile"][0] if d["pile"] else d["hands"][0][0]] = 2 * d["round"] + 1
    refused(g, e, "MC-6")
    # MC-28: every card once
    e = copy.deepcopy(d)
    e["discard"] = sorted(set(e["discard"] + [d["display"][0]]))
    refused(g, e, "MC-28")
    # MC-4: the seven helpers once each; MC-16: etienne_used needs Etienne at the table
    e = copy.deepcopy(d)
    e["row"][0] = e["helpers"][0]
    refused(g, e, "MC-4")
    g2 = load(engine, players=2)
    c = first(g2, 9, lambda d: d["phase"] == "combine" and ETIENNE not in d["helpers"])
    refused(g2, dict(c, etienne_used=True), "MC-16")


def test_unreachable_scores_are_refused(engine: str) -> None:
    """MC-24: nobody reaches the target before the combination steps of a round."""
    g = load(engine, target=10)
    d = first(g, 10, lambda d: d["phase"] == "bid" and d["round"] > 1 and any(d["vp"]))
    e = copy.deepcopy(load(engine).state_from_dict(dict(d, params=load(engine).params)).to_dict())
    assert e["phase"] == "bid"
    high = load(engine, target=max(sum(g.cards[c][1] for c in v) for v in d["vp"]))
    refused(high, dict(e, params=high.params), "MC-24")


def test_accepted_states_play_on(engine: str) -> None:
    """Every state of random games loads, equals the original, and offers an action."""
    for players in (2, 5):
        g = load(engine, players)
        s = g.new_state(seed=11)
        rng = Rng(11)
        while not s.is_terminal():
            t = g.state_from_dict(s.to_dict())
            assert t == s and len(t.legal_actions()) > 0
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.below(len(legal))]))
        assert g.state_from_dict(s.to_dict()).is_terminal()
