"""Maus au Chocolat: what each seat sees (MC-26) and determinization from a view alone, with
the simultaneous bid (MC-27) and the reshuffle (MC-6) that make this game's views special.
Both engines.

* A committed bid says "committed" and nothing else, also when the card bid was one that
  everyone saw its holder take (``known``).
* Etienne's draw (MC-16) stays hidden from the others.
* States that differ only in what a seat cannot see give that seat the same view, the same
  observation and the same determinizations.
* After a reshuffle (MC-6) every seat knows which unseen cards can still lie in the pile:
  determinizations respect it (``pools`` / ``unseen_pools``).
* The view keeps everything public: every key a seat may see equals the full state's.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Iterator, List

import numpy as np
import pytest

import mousehole
from gamecases import scale
from mousehole._rng import Rng
from mousehole.maus_au_chocolat import BID, COMBINE, DECLINE, PICK, SWAP

PUBLIC = (
    "round",
    "phase",
    "display",
    "discard",
    "vp",
    "helpers",
    "row",
    "order",
    "turn",
    "picks_left",
    "etienne_used",
    "truncated",
    "known",
    "pools",
    "game",
    "params",
)
VIEW_KEYS = {
    "game",
    "params",
    "view",
    "round",
    "phase",
    "pile",
    "display",
    "discard",
    "hands",
    "known",
    "pools",
    "bids",
    "vp",
    "helpers",
    "row",
    "order",
    "turn",
    "picks_left",
    "etienne_used",
    "rng",
    "history",
    "truncated",
    "hand_sizes",
    "committed",
    "unseen_pools",
    "pile_size",
}


def load(engine: str, players: int) -> Any:
    return mousehole.load("maus_au_chocolat", engine=engine, players=players)


def walk(game: Any, seed: int) -> Iterator[Any]:
    """Every state of a seeded random game (the same object, advanced)."""
    s = game.new_state(seed=seed)
    rng = Rng(seed + 1000)
    yield s
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply_action(int(legal[rng.below(len(legal))]))
        yield s


def unseen(d: Dict[str, Any], q: int) -> List[int]:
    """Seat q's cards that the other seats have not seen: its hand and its face-down bid,
    less the cards seen entering its hand."""
    cards = d["hands"][q] + ([d["bids"][q]] if d["phase"] == "bid" and d["bids"][q] >= 0 else [])
    return sorted(c for c in cards if c not in d["known"][q])


def test_mc26_view_keeps_everything_public_and_nothing_else(engine: str) -> None:
    """MC-26: public keys are copied as they are; others' hands, the pile order, the
    generator and unrevealed bids are removed; sizes, commitments and pools stay."""
    checked = 0
    for players in (2, 4, 6):
        g = load(engine, players)
        for i, s in enumerate(walk(g, 60 + players)):
            if i % 5:
                continue
            full = s.to_dict()
            for p in range(players):
                v = s.to_dict(for_player=p)
                assert set(v) == VIEW_KEYS and v["view"] == p
                for key in PUBLIC:
                    assert v[key] == full[key], key
                assert v["pile"] is None and v["rng"] is None and v["pile_size"] == len(full["pile"])
                assert v["hands"][p] == full["hands"][p]
                assert all(v["hands"][q] is None for q in range(players) if q != p)
                assert v["hand_sizes"] == [len(h) for h in full["hands"]]
                assert v["committed"] == [b >= 0 for b in full["bids"]]
                assert v["unseen_pools"] == [sorted(full["pools"][c] for c in unseen(full, q)) for q in range(players)]
                hidden = full["phase"] == "bid"
                for q in range(players):
                    want = None if hidden and q != p and full["bids"][q] >= 0 else full["bids"][q]
                    assert v["bids"][q] == want
                # history: only hidden bids and combinations (which name hand slots) are None
                assert len(v["history"]) == len(full["history"])
                for a, b in zip(v["history"], full["history"]):
                    assert a == b or a is None and (b >= COMBINE or (hidden and b < PICK))
                checked += 1
    assert checked > 100


def _bid_phase_states(engine: str) -> Iterator[Any]:
    for players in (3, 4):
        g = load(engine, players)
        for seed in range(scale(6)):
            for s in walk(g, 300 + seed):
                d = s.to_dict()
                if d["phase"] == "bid" and s.current_player < players - 1:
                    yield s


def test_mc7_a_committed_bid_shows_only_that_it_is_committed(engine: str) -> None:
    """MC-7, MC-27: whichever card a seat bids (a card everyone saw it take included), the
    other seats' views and observations are the same until the reveal."""
    known_bids = 0
    for s in _bid_phase_states(engine):
        q = s.current_player
        n = s.game.num_players
        bids = [int(a) for a in s.legal_actions() if a < PICK]
        views: Dict[int, Any] = {}
        for a in bids:
            t = s.clone()
            t.apply_action(a)
            known_bids += (a - BID) in s.to_dict()["known"][q]
            for r in range(n):
                if r == q:
                    continue
                seen = (t.to_dict(for_player=r), t.observation(r).tobytes())
                assert views.setdefault(r, seen) == seen, f"seat {r} can tell which card seat {q} bid"
                assert seen[0]["committed"][q] and seen[0]["bids"][q] is None
    assert known_bids > 0, "no bid of a known card was tried"


def test_mc16_etienne_draw_stays_hidden(engine: str) -> None:
    """MC-16: after Etienne's holder swaps a card, the others cannot tell which card was
    drawn: two states the others cannot tell apart stay so after the same swap."""
    swaps = 0
    for players in (2, 4, 5):
        g = load(engine, players)
        for seed in range(scale(8)):
            for s in walk(g, 500 + seed):
                q = s.current_player
                if q < 0 or not any(SWAP <= a < DECLINE for a in s.legal_actions()):
                    continue
                for r in range(players):
                    if r == q:
                        continue
                    t = s.determinize(r, seed + 7 * r)
                    assert t.to_dict(for_player=r) == s.to_dict(for_player=r)
                    common = set(s.to_dict()["hands"][q]) & set(t.to_dict()["hands"][q])
                    for c in sorted(common)[:2]:
                        a, b = s.clone(), t.clone()
                        a.apply_action(SWAP + c)
                        b.apply_action(SWAP + c)
                        assert a.to_dict(for_player=r) == b.to_dict(for_player=r)
                        assert np.array_equal(a.observation(r), b.observation(r))
                        assert a.determinize(r, 5).to_dict() == b.determinize(r, 5).to_dict()
                        swaps += 1
                break  # one swap position per game is enough
    assert swaps > 10


def test_mc26_equal_views_give_equal_determinizations_when_hidden_hands_differ(engine: str) -> None:
    """Swapping an unseen card of seat 1's hand with a pile card of the same pool changes
    nothing seat 0 sees: same view, same observation, same determinizations."""
    changed = 0
    for players in (2, 3, 4):
        g = load(engine, players)
        for i, s in enumerate(walk(g, 70 + players)):
            if i % 6 or s.is_terminal():
                continue
            d = s.to_dict()
            mine = [c for c in unseen(d, 1) if c in d["hands"][1]]
            pile = d["pile"]
            pair = next(((x, y) for x in mine for y in pile if d["pools"][x] == d["pools"][y]), None)
            if pair is None:
                continue
            x, y = pair
            e = json.loads(json.dumps(d))
            e["hands"][1] = sorted(c for c in e["hands"][1] if c != x) + []
            e["hands"][1] = sorted(e["hands"][1] + [y])
            e["pile"] = [x if c == y else c for c in e["pile"]]
            if not all(int(a) - BID in e["hands"][s.current_player] for a in s.legal_actions() if a < PICK):
                continue  # the seat to move is seat 1 in a bid phase: its options differ
            t = g.state_from_dict(e)
            assert t.to_dict() != d
            assert t.to_dict(for_player=0) == s.to_dict(for_player=0)
            assert t.to_dict(for_player=1) != s.to_dict(for_player=1)
            assert np.array_equal(t.observation(0), s.observation(0))
            for seed in (1, 2):
                assert t.determinize(0, seed).to_dict() == s.determinize(0, seed).to_dict()
            changed += 1
    assert changed > 10


def test_mc6_determinizations_respect_what_a_reshuffle_told(engine: str) -> None:
    """MC-6, MC-26: after a reshuffle everyone knows which cards form the new pile. Every
    determinization keeps the pile within the newest pool and gives each seat as many
    unseen cards of each pool as it really holds; known cards stay with their seat."""
    checked = 0
    older_in_hands = 0
    for players in (4, 5, 6):
        g = load(engine, players)
        for seed in range(scale(3)):
            for i, s in enumerate(walk(g, 90 + seed)):
                d = s.to_dict()
                top = max(d["pools"])
                if top == 0 or i % 3:
                    continue
                for p in range(players):
                    det = s.determinize(p, i + p).to_dict()
                    assert all(det["pools"][c] == top for c in det["pile"])
                    assert sorted(det["pile"]) != [] or d["pile"] == []
                    for q in range(players):
                        assert sorted(det["pools"][c] for c in unseen(det, q)) == sorted(
                            d["pools"][c] for c in unseen(d, q)
                        )
                        assert set(d["known"][q]) <= set(det["hands"][q]) | {det["bids"][q]}
                    checked += 1
                older_in_hands += any(d["pools"][c] < top for q in range(players) for c in unseen(d, q))
    assert checked > 20
    assert older_in_hands > 0, "no state had unseen cards of an older pool (the case that matters)"


def test_mc26_determinize_view_refuses_an_inconsistent_view(engine: str) -> None:
    """A view whose pools cannot be dealt (an older pool's card would have to lie in the
    pile, or a seat holds more unseen cards than exist) is refused with StateError."""
    g = load(engine, 4)
    s = g.new_state(seed=3)
    v = s.to_dict(for_player=0)
    bad = json.loads(json.dumps(v))
    bad["unseen_pools"][1] = bad["unseen_pools"][1] + [0] * 80
    with pytest.raises(mousehole.StateError):
        g.determinize_view(bad, 1)
    bad = json.loads(json.dumps(v))
    pile_card = next(c for c in range(80) if c not in s.to_dict()["display"] and c not in s.to_dict()["hands"][0])
    bad["pools"][pile_card] = 1  # a newer pool than the pile's with no seat holding it
    with pytest.raises(mousehole.StateError):
        g.determinize_view(bad, 1)
    bad = json.loads(json.dumps(v))
    bad["hand_sizes"][2] += 1
    with pytest.raises(mousehole.StateError):
        g.determinize_view(bad, 1)
    assert g.determinize_view(v, 1).to_dict(for_player=0) == v
