"""Maus au Chocolat across engines: sequential and joint bids (MC-27) give the same game on
both engines, and the compiled combination search (MC-29) equals the reference on many
hands, including crowded ones."""

from __future__ import annotations

from typing import Any, List

import pytest

import mousehole
from gamecases import scale
from mousehole._rng import Rng, derive
from mousehole.maus_au_chocolat import BID, DECLINE, PICK, SWAP, combination_actions, default_cards

pytestmark = pytest.mark.differential


def _joint_bids(state: Any, rng: Rng) -> List[Any]:
    """One random entry per seat for the bid phase: a bid, or for Etienne's holder
    sometimes a swap followed by a bid of a card still held."""
    d = state.to_dict()
    out: List[Any] = []
    for q, hand in enumerate(d["hands"]):
        bid = hand[rng.below(len(hand))]
        if d["helpers"][q] == 0 and not d["etienne_used"] and len(hand) > 1 and rng.below(2):
            other = next(c for c in hand if c != bid)
            out.append([SWAP + other, BID + bid])
        else:
            out.append(BID + bid)
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_mc27_sequential_and_joint_bids_agree_across_engines(players: int) -> None:
    """MC-27: a game played with sequential bids on one engine and joint bids on the other
    (both ways round) is the same game, step for step."""
    for g in range(scale(6)):
        for seq_engine, joint_engine in (("compiled", "python"), ("python", "compiled")):
            a = mousehole.load("maus_au_chocolat", engine=seq_engine, players=players).new_state(seed=g)
            b = mousehole.load("maus_au_chocolat", engine=joint_engine, players=players).new_state(seed=g)
            rng = Rng(derive(g, players))
            while not a.is_terminal():
                da = a.to_dict()
                assert da == b.to_dict()
                if da["phase"] == "bid" and all(x < 0 for x in da["bids"]):
                    entries = _joint_bids(a, rng)
                    for q, e in enumerate(entries):
                        for x in e if isinstance(e, list) else [e]:
                            assert a.current_player == q  # the next seat to commit
                            a.apply_action(x)
                    b.apply_joint(entries)
                    continue
                legal = a.legal_actions()
                x = int(legal[rng.below(len(legal))])
                a.apply_action(x)
                b.apply_action(x)
            assert a.to_dict() == b.to_dict() and b.is_terminal()
            assert a.winners() == b.winners()


def test_mc29_compiled_search_equals_reference_on_many_hands() -> None:
    """MC-29: every helper, random and crowded hands of 4..9 cards."""
    cards = default_cards()
    game = mousehole.load("maus_au_chocolat", engine="compiled", players=2)
    rng = Rng(2029)
    checked = 0
    for trial in range(scale(1500)):
        size = 4 + trial % 6
        if trial % 3 == 0:  # crowded: candy values from a narrow band
            lo = 3 + rng.below(3)
            pool = [c for c in range(80) if lo <= cards[c][1] <= lo + 2]
        else:
            pool = list(range(80))
        rng.shuffle(pool)
        hand = sorted(pool[:size])
        helper = rng.below(7)
        other = (helper + 1 + rng.below(6)) % 7
        d = game.new_state(seed=trial).to_dict()
        rest = [c for c in range(80) if c not in hand]
        d.update(
            round=1,
            phase="combine",
            pile=rest[7:],
            display=rest[:3],
            discard=[],
            hands=[hand, sorted(rest[3:7])],
            known=[[], []],
            bids=[-1, -1],
            vp=[[], []],
            helpers=[helper, other],
            row=[h for h in range(7) if h not in (helper, other)],
            order=[0, 1] if helper < other else [1, 0],
            turn=0 if helper < other else 1,
            picks_left=0,
            etienne_used=False,
            history=[],
            truncated=False,
        )
        st = game.state_from_dict(d)
        assert st.combination_actions(0) == combination_actions(hand, cards, helper), (hand, helper)
        legal = [int(a) for a in st.legal_actions() if a > DECLINE]
        assert legal == combination_actions(hand, cards, helper)
        checked += len(legal)
    assert checked > 0
    assert PICK == 80
