"""Maus au Chocolat observations and legal-action masks written by the compiled core.

The compiled engine writes ``observation(p)`` and ``legal_action_mask()`` straight from its
C struct. At every step of seeded random games they must equal the reference engine's bit
for bit, for every seat, with or without a caller's ``out`` array: what a seat sees (MC-26:
hands hidden but for the cards everyone saw taken, MC-7: bids face down until all are
revealed together) and the legal actions (MC-7, MC-9, MC-10 .. MC-23, MC-14, MC-16). Bad
seats and bad ``out`` arrays raise the same errors on both engines and change nothing.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Dict, Iterator, List, Set, Tuple

import numpy as np
import pytest

import mousehole
from gamecases import scale
from mousehole._rng import Rng, derive
from mousehole.maus_au_chocolat import BID, DECLINE, NUM_ACTIONS, NUM_CARDS

#: parameter sets: every player count; a target and a max_turns whose quotients are not
#: exact in float32 (score / 7, round / 3, the latter also truncating games: phase "over");
#: a small hand; the largest max_turns (mousehole._values.MAX_TURNS: round / max_turns is
#: small, and never 0); a card table of its own (other candy values and coins).
OWN_CARDS = [[c % 5, 1 + (7 * c) % 12, (3 * c) % 21] for c in range(NUM_CARDS)]
CONFIGS: List[Dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 6},
    {"players": 3, "target": 7, "max_turns": 3},
    {"players": 4, "hand_size": 2, "target": 11},
    {"players": 2, "max_turns": 10**6},
    {"players": 4, "cards": OWN_CARDS, "target": 13},
]
CONFIG_IDS = ["-".join(f"{k}={'own' if k == 'cards' else v}" for k, v in sorted(c.items())) for c in CONFIGS]


def _bits(a: Any) -> bytes:
    """The raw bytes of an array (equal bytes: no 0.0 / -0.0 or NaN slack)."""
    return bytes(np.ascontiguousarray(a).tobytes())


def _walk(game: Any, seed: int, decline: bool = False) -> Iterator[Any]:
    """The states of one seeded random game, the terminal one included. With ``decline``
    every seat declines to combine (hands grow past the limit: MC-14 discards)."""
    state = game.new_state(seed)
    rng = Rng(derive(seed, 17))
    while True:
        yield state
        if state.is_terminal():
            return
        legal = state.legal_actions()
        if decline and DECLINE in legal:
            state.apply_action(DECLINE)
        else:
            state.apply_action(int(legal[rng.below(len(legal))]))


def _mask_of(legal: Any) -> Any:
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    mask[legal] = True
    return mask


# ---- the compiled core against the reference ------------------------------------------------


@pytest.mark.differential
@pytest.mark.parametrize("params", CONFIGS, ids=CONFIG_IDS)
def test_compiled_observation_and_mask_equal_the_reference(params: Dict[str, Any]) -> None:
    """MC-26 / MC-7 and the legal actions: at every step of seeded random games, every
    seat's compiled observation (fresh, or written into a dirty ``out``) has the bits of the
    reference observation of the same state, and the compiled mask (fresh, or into a dirty
    ``out``) is the reference's and marks exactly ``legal_actions()``. Neither call changes
    the state."""
    gc = mousehole.load("maus_au_chocolat", engine="compiled", **params)
    gp = mousehole.load("maus_au_chocolat", engine="python", **params)
    n = gc.num_players
    obuf = np.empty(gc.observation_shape, dtype=np.float32)
    mbuf = np.empty(NUM_ACTIONS, dtype=np.bool_)
    phases: Set[str] = set()
    for seed in range(scale(3)):
        for c in _walk(gc, 500 + seed):
            d = c.to_dict()
            phases.add(d["phase"])
            ref = gp.state_from_dict(d)
            for p in range(n):
                want = ref.observation(p)
                got = c.observation(p)
                assert got.dtype == np.float32 and got.shape == gc.observation_shape
                assert _bits(got) == _bits(want), (seed, d["phase"], p, np.flatnonzero(got != want))
                obuf.fill(np.nan)
                assert c.observation(p, out=obuf) is obuf
                assert _bits(obuf) == _bits(want)
            legal = c.legal_actions()
            want_mask = _mask_of(legal)
            assert list(legal) == list(ref.legal_actions())
            got_mask = c.legal_action_mask()
            assert got_mask.dtype == np.bool_ and got_mask.shape == (NUM_ACTIONS,)
            assert _bits(got_mask) == _bits(want_mask) == _bits(ref.legal_action_mask())
            mbuf.fill(True)
            assert c.legal_action_mask(out=mbuf) is mbuf
            assert _bits(mbuf) == _bits(want_mask)
            assert c.to_dict() == d
    # the walks went through every phase but the rare hand-limit discards, the end included
    assert {"bid", "pick", "combine", "over"} <= phases


@pytest.mark.differential
@pytest.mark.parametrize("players", [2, 4])
def test_compiled_observation_and_mask_in_hand_limit_discards(players: int) -> None:
    """MC-14: when every seat declines to combine, hands pass the limit of eight and their
    holders discard; through those phases (and the reshuffles of MC-6 they cause) the
    compiled observation and mask equal the reference's."""
    gc = mousehole.load("maus_au_chocolat", engine="compiled", players=players, max_turns=40)
    gp = mousehole.load("maus_au_chocolat", engine="python", players=players, max_turns=40)
    discards = 0
    for c in _walk(gc, 77, decline=True):
        d = c.to_dict()
        discards += d["phase"] == "discard"
        ref = gp.state_from_dict(d)
        for p in range(players):
            assert _bits(c.observation(p)) == _bits(ref.observation(p))
        assert _bits(c.legal_action_mask()) == _bits(_mask_of(ref.legal_actions()))
    assert discards > 5


@pytest.mark.differential
def test_observation_at_the_largest_max_turns() -> None:
    """round / max_turns at the largest max_turns (10**6, the bound load shares with
    records; issue 39: above it load refuses, so round / max_turns is always a quotient of
    two exact doubles) is the last value of the observation, on both engines alike."""
    m = 10**6
    for engine in ("compiled", "python"):
        with pytest.raises(mousehole.ParameterError, match="max_turns must be an int from 1 to 1,000,000"):
            mousehole.load("maus_au_chocolat", engine=engine, players=2, max_turns=2**60 + 3)
    rounds = set()
    for engine in ("compiled", "python"):
        g = mousehole.load("maus_au_chocolat", engine=engine, players=2, max_turns=m)
        for s in _walk(g, 4):
            r = s.to_dict()["round"]
            rounds.add(r)
            last = s.observation(1)[-1]
            assert last == np.float32(r / m) and last != 0.0
    assert len(rounds) > 2


@pytest.mark.differential
def test_compiled_mask_and_observation_in_a_crowded_combination_phase() -> None:
    """MC-10 .. MC-23, MC-16: in combination steps with at least eight legal actions
    (declining, Etienne's swaps, many combinations) the compiled mask marks exactly the
    reference's legal actions and every seat's observation equals the reference's."""
    gc = mousehole.load("maus_au_chocolat", engine="compiled", players=3)
    gp = mousehole.load("maus_au_chocolat", engine="python", players=3)
    found = 0
    for seed in range(60):
        for c in _walk(gc, seed):
            d = c.to_dict()
            if d["phase"] != "combine" or len(c.legal_actions()) < 8:
                continue
            ref = gp.state_from_dict(d)
            assert _bits(c.legal_action_mask()) == _bits(_mask_of(ref.legal_actions()))
            for p in range(3):
                assert _bits(c.observation(p)) == _bits(ref.observation(p))
            found += 1
        if found >= 20:
            break
    assert found >= 20


# ---- what a seat sees (both engines) ---------------------------------------------------------


def test_observation_depends_only_on_the_view(engine: str) -> None:
    """MC-26, MC-7: seat p's observation is a function of its view: a determinization for p
    (everything p cannot see re-dealt) gives p the same observation, bit for bit."""
    g = mousehole.load("maus_au_chocolat", engine=engine, players=4)
    checked = 0
    for seed in range(scale(2)):
        for i, s in enumerate(_walk(g, 900 + seed)):
            if i % 7:
                continue
            for p in range(4):
                other = s.determinize(p, seed * 1000 + i)
                assert _bits(other.observation(p)) == _bits(s.observation(p))
                checked += 1
    assert checked > 40


def test_observation_layout_of_an_early_bid_phase(engine: str) -> None:
    """The documented layout, checked from the state dict: own hand and display planes,
    nobody's bid shown to another seat before the reveal (MC-7), seat p's own face-down bid
    on its own plane, hand sizes / 8, has-a-bid and to-move flags, the bid phase one-hot."""
    g = mousehole.load("maus_au_chocolat", engine=engine, players=4)
    s = g.new_state(12)
    s.apply_action(int(s.legal_actions()[-1]))  # seat 0 bids (or Etienne swaps)
    while s.current_player == 0:
        s.apply_action(int(s.legal_actions()[0]))
    d = s.to_dict()
    assert d["phase"] == "bid" and d["bids"][0] >= 0
    n, C = 4, NUM_CARDS * (4 + 3 * 4)
    for p in range(n):
        obs = s.observation(p)
        planes = obs[:C].reshape(4 + 3 * n, NUM_CARDS)
        assert list(np.flatnonzero(planes[0])) == d["hands"][p]
        assert list(np.flatnonzero(planes[1])) == d["display"]
        assert list(np.flatnonzero(planes[3])) == ([d["bids"][p]] if p == 0 else [])
        for k in range(n):
            assert not planes[4 + 3 * k].any()  # MC-7: not revealed yet
            q = (p + k) % n
            assert obs[C + k] == np.float32(len(d["hands"][q]) / 8)
            assert obs[C + 2 * n + k] == (1.0 if q == 0 else 0.0)
            assert obs[C + 3 * n + k] == (1.0 if q == 1 else 0.0)
            assert obs[C + 4 * n + 7 * k + d["helpers"][q]] == 1.0
        tail = C + 11 * n + 49
        assert obs[tail] == np.float32(len(d["pile"]) / NUM_CARDS)
        assert list(obs[tail + 1 : tail + 6]) == [1.0, 0.0, 0.0, 0.0, 0.0]


def test_known_bid_stays_known_until_the_reveal(engine: str) -> None:
    """MC-9 / MC-7: a card taken from the display is known to all while held; bid face down
    it stays on its holder's known plane (for every seat) until the bids are revealed, and
    then shows on the revealed-bid plane instead."""
    g = mousehole.load("maus_au_chocolat", engine=engine, players=3)
    n, C = 3, NUM_CARDS * (4 + 3 * 3)
    for seed in range(200):
        s = g.new_state(seed)
        rng = Rng(derive(seed, 5))
        while not s.is_terminal():
            d = s.to_dict()
            p = s.current_player
            if d["phase"] == "bid" and p == 0 and d["known"][0] and all(b < 0 for b in d["bids"]):
                card = d["known"][0][0]
                s.apply_action(BID + card)
                for q in range(n):
                    k = (0 - q) % n
                    planes = s.observation(q)[:C].reshape(4 + 3 * n, NUM_CARDS)
                    assert planes[6 + 3 * k, card] == 1.0
                    assert planes[4 + 3 * k, card] == 0.0
                while s.to_dict()["phase"] == "bid":
                    legal = s.legal_actions()
                    s.apply_action(int(legal[rng.below(len(legal))]))
                d = s.to_dict()
                if d["bids"][0] == card:  # still on the table after the reveal
                    for q in range(n):
                        k = (0 - q) % n
                        planes = s.observation(q)[:C].reshape(4 + 3 * n, NUM_CARDS)
                        assert planes[6 + 3 * k, card] == 0.0
                        assert planes[4 + 3 * k, card] == 1.0
                    return
                break
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.below(len(legal))]))
    pytest.fail("no seeded game had seat 0 bid a known card")


# ---- bad arguments (both engines) ------------------------------------------------------------


def _raised(fn: Callable[[], Any]) -> Tuple[type, str]:
    try:
        fn()
    except (TypeError, ValueError) as e:
        return type(e), str(e)
    raise AssertionError("no error raised")


def _bad_outs(shape: Tuple[int, ...], dtype: Any, other: Any) -> List[Tuple[str, Any, type]]:
    """(name, out, expected error) for every way ``out`` can be wrong."""
    size = shape[0]
    ro = np.zeros(shape, dtype=dtype)
    ro.setflags(write=False)
    strided = np.zeros(2 * size, dtype=dtype)[::2]
    bads: List[Tuple[str, Any, type]] = [
        ("list", [0] * size, TypeError),
        ("scalar", 0.0, TypeError),
        ("wrong dtype", np.zeros(shape, dtype=other), TypeError),
        ("too short", np.zeros(size - 1, dtype=dtype), ValueError),
        ("too long", np.zeros(size + 1, dtype=dtype), ValueError),
        ("2-d", np.zeros((1, size), dtype=dtype), ValueError),
        ("non-contiguous", strided, ValueError),
        ("read-only", ro, ValueError),
    ]
    if np.dtype(dtype).itemsize > 1:  # a one-byte type has no byte order
        bads.append(("byte-swapped", np.zeros(shape, dtype=np.dtype(dtype).newbyteorder()), TypeError))
    return bads


def test_bad_out_raises_and_leaves_it_untouched(engine: str) -> None:
    """A bad ``out`` raises the same TypeError / ValueError (same message, naming ``out``)
    on both engines; the array (when it is one) and the state are unchanged."""
    g = mousehole.load("maus_au_chocolat", engine=engine, players=4)
    ref = mousehole.load("maus_au_chocolat", engine="python", players=4)
    s = g.new_state(3)
    for _ in range(6):
        s.apply_action(int(s.legal_actions()[0]))
    r = ref.state_from_dict(s.to_dict())
    before = s.to_dict()
    cases: List[Tuple[str, Callable[[Any, Any], Any], List[Tuple[str, Any, type]]]] = [
        ("observation", lambda st, o: st.observation(2, out=o), _bad_outs(g.observation_shape, np.float32, np.float64)),
        ("legal_action_mask", lambda st, o: st.legal_action_mask(out=o), _bad_outs((NUM_ACTIONS,), np.bool_, np.uint8)),
    ]
    for what, call, bads in cases:
        for name, out, err in bads:
            snapshot = _bits(out) if isinstance(out, np.ndarray) else None
            got = _raised(functools.partial(call, s, out))
            assert got[0] is err, (what, name, got)
            assert "out" in got[1], (what, name, got)
            assert got == _raised(functools.partial(call, r, out)), (what, name)
            if snapshot is not None:
                assert _bits(out) == snapshot, (what, name)
    assert s.to_dict() == before


def test_out_inside_a_larger_buffer(engine: str) -> None:
    """A C-contiguous slice of a larger array is a valid ``out``: the values land in the
    slice and nothing around it is written."""
    g = mousehole.load("maus_au_chocolat", engine=engine, players=5)
    s = g.new_state(8)
    for _ in range(9):
        s.apply_action(int(s.legal_actions()[-1]))
    size = g.observation_shape[0]
    big = np.full(size + 10, 7.0, dtype=np.float32)
    out = big[4 : 4 + size]
    assert s.observation(3, out=out) is out
    assert _bits(out) == _bits(s.observation(3))
    assert (big[:4] == 7.0).all() and (big[4 + size :] == 7.0).all()
    bigm = np.ones(NUM_ACTIONS + 6, dtype=np.bool_)
    outm = bigm[3 : 3 + NUM_ACTIONS]
    assert s.legal_action_mask(out=outm) is outm
    assert list(np.flatnonzero(outm)) == list(s.legal_actions())
    assert bigm[:3].all() and bigm[3 + NUM_ACTIONS :].all()


@pytest.mark.parametrize(
    "seat,err",
    [
        (-1, ValueError),
        (4, ValueError),
        (2**70, ValueError),
        (-(2**70), ValueError),
        (np.int64(4), ValueError),
        (1.0, TypeError),
        ("0", TypeError),
        (None, TypeError),
    ],
)
def test_bad_seat_raises_like_the_reference(engine: str, seat: Any, err: type) -> None:
    """A seat that is not an int (TypeError) or not 0..n-1 (ValueError) is refused with the
    reference engine's message; a given ``out`` is left untouched."""
    g = mousehole.load("maus_au_chocolat", engine=engine, players=4)
    ref = mousehole.load("maus_au_chocolat", engine="python", players=4)
    s = g.new_state(1)
    r = ref.state_from_dict(s.to_dict())
    out = np.full(g.observation_shape, 3.0, dtype=np.float32)
    got = _raised(lambda: s.observation(seat, out=out))
    assert got[0] is err and "player" in got[1]
    assert got == _raised(lambda: r.observation(seat))
    assert (out == 3.0).all()


@pytest.mark.parametrize("seat", [np.int64(2), np.uint8(2), np.int32(2)])
def test_numpy_integer_seats(engine: str, seat: Any) -> None:
    """Numpy integers name seats like ints."""
    g = mousehole.load("maus_au_chocolat", engine=engine, players=3)
    s = g.new_state(6)
    assert _bits(s.observation(seat)) == _bits(s.observation(2))
    buf = np.empty(g.observation_shape, dtype=np.float32)
    assert _bits(s.observation(seat, out=buf)) == _bits(s.observation(2))
