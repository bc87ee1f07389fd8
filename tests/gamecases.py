"""The game configurations the generic suites run over, each game's test profile, and a
seeded random driver.

Every registered game is covered at every player count it allows; games may add extra
configurations in their profile (for example explicit chance).

A generic suite never keys anything by a game id: what it needs to know about a game (how
sparsely to sample its long games, what the rules say about its information, ...) is in the
game's :class:`Profile`, and :func:`profile` gives a game without one (a new game) the
defaults, so that every generic suite runs over it unchanged."""

from __future__ import annotations

import dataclasses
import os
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple

import numpy as np

import mousehole
from mousehole import _api
from mousehole._rng import Rng, derive


@dataclasses.dataclass(frozen=True)
class Profile:
    """What the generic suites need to know about one game. The expectations here
    (``perfect_information``, ``single_winner``, ``openspiel_chance_off``) come from the
    rules, written down independently of the facts the Game class declares, so that the
    tests can check those facts against them."""

    #: parameter sets run besides ``{"players": n}`` for every player count
    extra_configs: Tuple[Mapping[str, Any], ...] = ()
    #: every seat sees the whole position (chance to come aside)
    perfect_information: bool = False
    #: every finished game has exactly one winner
    single_winner: bool = False
    #: the rules let the seats choose some actions at the same time (Maus au Chocolat's bids)
    simultaneous_choices: bool = False
    #: the parameters that turn off the explicit chance nodes OpenSpiel loads the game with
    #: (empty: it has none under OpenSpiel)
    openspiel_chance_off: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: test_information samples every k-th state of its random games
    information_every: int = 5
    #: test_bots checks the bots' view independence at every k-th decision
    bots_every: int = 11
    #: whole games with searching bots take minutes on the reference engine (long games):
    #: the Python runs play them with the quick bots only (the compiled runs cover the rest)
    slow_reference_games: bool = False
    #: even single searches are slow on the reference engine: the Python runs leave them out
    slow_reference_search: bool = False
    #: a max_turns that ends games after a few steps (test_vector's short games)
    short_max_turns: int = 8
    #: some moves are hidden from the other seats' views (M-22, MC-7: test_facts checks that
    #: such moves are described without their notation)
    views_hide_moves: bool = False
    #: the turn passes round the table one action per turn, at least for the first cycles
    #: (PettingZoo's max_cycles_test, which counts actions per agent, applies)
    rotating_turns: bool = False
    #: the parameters that make the game's chance events explicit chance nodes (empty: it
    #: has none, or always has them)
    explicit_chance: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: vector-environment steps enough for at least one whole game in some sub-environment
    episode_steps: int = 100
    #: the prefix of the game's rule ids (``M-12``: ``"M"``), which its texts cite
    rule_prefix: str = ""
    #: words the legend line of the text diagram (``str(state)``, at 3 players) names
    #: (test_play; every game needs some)
    legend_words: Tuple[str, ...] = ()


#: every game's profile, by game id: the one table of per-game test values (every registered
#: game has an entry, ``tests/test_touch_points.py``; its fields default to ``Profile()``'s)
PROFILES: Dict[str, Profile] = {
    "cheese_rescue": Profile(
        information_every=3,
        bots_every=5,
        short_max_turns=6,
        rotating_turns=True,
        episode_steps=40,
        rule_prefix="CR",
        legend_words=(
            "D dog",
            "C cat",
            "M mouse",
            "A1 a cheese card of seat 0 (A)",
            "A-C: seats 0-2",
            ". an empty cell",
        ),
    ),
    "kasimir": Profile(
        extra_configs=({"players": 4, "explicit_chance": True}, {"players": 2, "explicit_chance": True}),
        perfect_information=True,
        openspiel_chance_off={"explicit_chance": False},
        information_every=5,
        bots_every=11,
        short_max_turns=8,
        rotating_turns=True,
        explicit_chance={"explicit_chance": True},
        episode_steps=120,
        rule_prefix="KK",
        legend_words=("A-C the mice of seats 0-2", "o an empty trap", "a-c a mouse caught", "[X] the caught"),
    ),
    "m": Profile(
        information_every=9,
        bots_every=23,
        slow_reference_games=True,
        slow_reference_search=True,
        short_max_turns=10,
        views_hide_moves=True,
        episode_steps=150,
        rule_prefix="M",
        legend_words=("b=blue", "s=square", "row and column"),
    ),
    "maus_au_chocolat": Profile(
        single_winner=True,
        simultaneous_choices=True,
        information_every=13,
        bots_every=29,
        slow_reference_games=True,
        short_max_turns=1,
        views_hide_moves=True,
        episode_steps=150,
        rule_prefix="MC",
        legend_words=("eggs5/1c scores 5", "bids 1 coin", "the seat's helper"),
    ),
}

#: every registered game's id, sorted (``mousehole.game_names()``): what a test that covers
#: "every game" iterates, never a list of the ids written out
NAMES: List[str] = mousehole.game_names()


#: the readings whose default changed after a recorded digest or diagram was taken (issue 41:
#: Maus au Chocolat's ``kept_card`` was ``highest_printed``, Kater Kasimir's ``elimination``
#: was ``skip_turns``, M's ``draw_timing`` was ``after_scoring``): a test that holds a game to
#: such a record loads it with these, so the record keeps meaning what it says
OLD_DEFAULTS: Dict[str, Dict[str, Any]] = {
    "maus_au_chocolat": {"kept_card": "highest_printed"},
    "kasimir": {"elimination": "skip_turns"},
    "m": {"draw_timing": "after_scoring"},
}


def may_end_without_winner(game: Any) -> bool:
    """Whether a finished game of ``game`` may have no winner: only Kater Kasimir under
    ``elimination="out_of_game"`` (the default since issue 41), when every seat ends
    eliminated with no mouse home (KK-11; docs/api.md, ``returns()``)."""
    return bool(
        game.name == "kasimir"
        and game.params["elimination"] == "out_of_game"
        and game.params["all_eliminated"] == "as_elimination"
    )


def profile(name: str) -> Profile:
    """The test profile of game ``name`` (the defaults for a game that has none; every
    registered game has one, ``tests/test_touch_points.py``)."""
    return PROFILES.get(name, Profile())


def configs() -> List[Tuple[str, Dict[str, Any]]]:
    out: List[Tuple[str, Dict[str, Any]]] = []
    for name in mousehole.game_names():
        cls = _api._REGISTRY[name]
        for n in range(cls.min_players, cls.max_players + 1):
            out.append((name, {"players": n}))
        out.extend((name, dict(extra)) for extra in profile(name).extra_configs)
    return out


def config_id(case: Tuple[str, Dict[str, Any]]) -> str:
    name, params = case
    return name + "-" + "-".join(f"{k}={v}" for k, v in sorted(params.items()))


CASES = configs()
IDS = [config_id(c) for c in CASES]


def scale(default: int) -> int:
    """Test sizes scale with MOUSEHOLE_TEST_SCALE (a float, default 1)."""
    return max(1, int(default * float(os.environ.get("MOUSEHOLE_TEST_SCALE", "1"))))


def random_walk(state: Any, seed: int, max_steps: int = 100000) -> Iterator[int]:
    """Play uniformly random legal actions (chance nodes included) until the end, yielding
    each chosen action before it is applied."""
    rng = Rng(derive(seed, 1))
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        legal = state.legal_actions()
        a = int(legal[rng.below(len(legal))])
        yield a
        state.apply_action(a)
        steps += 1


def random_states(game: Any, seed: int) -> Iterator[Any]:
    """Every state of one seeded random game (the same object, one action further each
    time), the start and the end included."""
    s = game.new_state(seed)
    rng = Rng(derive(seed, 5))
    while True:
        yield s
        if s.is_terminal():
            return
        acts = s.legal_actions()
        s.apply_action(int(acts[rng.below(len(acts))]))


def state_clones(game: Any, seed: int, rng: Rng, every: int = 1) -> Iterator[Any]:
    """Copies of every ``every``-th state of one seeded random game whose actions ``rng``
    draws, the start and the end included."""
    s = game.new_state(seed)
    i = 0
    while True:
        if i % every == 0 or s.is_terminal():
            yield s.clone()
        if s.is_terminal():
            return
        legal = s.legal_actions()
        s.apply_action(int(legal[rng.below(len(legal))]))
        i += 1


def reference_pairs(name: str, players: int, seed: int) -> Iterator[Tuple[Any, Any]]:
    """(compiled state, the same state loaded into the pure-Python reference) at every step
    of one seeded random game of ``name`` (``state_clones`` with ``Rng(seed + 7)``)."""
    compiled = mousehole.load(name, players=players, engine="compiled")
    python = mousehole.load(name, players=players, engine="python")
    for state in state_clones(compiled, seed, Rng(seed + 7)):
        yield state, python.state_from_dict(state.to_dict())


def write_out(
    game: Any, seed: int, rng: Rng, check: Optional[Callable[[Any, int, str], None]] = None
) -> Tuple[Any, List[str]]:
    """Play one seeded random game whose actions ``rng`` draws, writing each with
    ``state.describe``: at every step the legal actions' texts are distinct and each reads
    back (``parse_action``) to its action (``check(state, action, text)`` checks more of each);
    then the written game read back on a fresh state reaches the same end. The final state and
    the texts."""
    s = game.new_state(seed)
    written: List[str] = []
    while not s.is_terminal():
        legal = [int(a) for a in s.legal_actions()]
        texts = [s.describe(a) for a in legal]
        assert len(set(texts)) == len(texts), texts
        for a, text in zip(legal, texts):
            assert s.parse_action(text) == a, (a, text)
            if check is not None:
                check(s, a, text)
        a = legal[rng.below(len(legal))]
        written.append(texts[legal.index(a)])
        s.apply_action(a)
    replay = game.new_state(seed)
    for text in written:
        replay.apply_action(replay.parse_action(text))
    assert replay.to_dict() == s.to_dict() and list(replay.history) == list(s.history)
    return s, written


def cgame(state: Any) -> Any:
    """The probe of ``state``'s C game interface (``mousehole._cgame.CGame``, the compiled
    engine only)."""
    from mousehole._cgame import CGame

    return CGame(state)


def same_bits(a: Any, b: Any) -> bool:
    """Arrays with the same dtype, shape and bytes (NaNs and signed zeros included)."""
    return bool(a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes())


def check_observations_against_reference(s: Any, ref: Any, where: str) -> None:
    """Every seat's observation (new array, ``out=``, numpy seat) and the mask of ``s`` equal
    the reference engine's on the same state; neither call changes the state."""
    game = s.game
    r = ref.state_from_dict(s.to_dict())
    before = s.to_dict()
    obuf = np.empty(game.observation_shape, dtype=np.float32)
    for p in range(game.num_players):
        want = r.observation(p)
        assert want.dtype == np.float32 and want.shape == tuple(game.observation_shape)
        got = s.observation(p)
        assert same_bits(got, want), f"{where}, seat {p}: planes {sorted(set(np.argwhere(got != want)[:, 0]))}"
        obuf.fill(np.nan)  # stale values must be overwritten (zero-filled first)
        assert s.observation(p, out=obuf) is obuf
        assert same_bits(obuf, want), f"{where}, seat {p} (out=)"
        assert same_bits(s.observation(np.int64(p)), want)  # numpy seats, as in check_seat
    want_mask = np.zeros(game.num_actions, dtype=np.bool_)
    want_mask[s.legal_actions()] = True
    mask = s.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (game.num_actions,)
    assert np.array_equal(mask, want_mask) and np.array_equal(mask, r.legal_action_mask()), where
    mbuf = np.ones(game.num_actions, dtype=np.bool_)
    assert s.legal_action_mask(out=mbuf) is mbuf
    assert np.array_equal(mbuf, want_mask), f"{where} (out=)"
    assert s.to_dict() == before
