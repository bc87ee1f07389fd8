"""OpenSpiel integration (``mousehole.openspiel``, issue 11 item 4): OpenSpiel's own
``random_sim_test`` on every game at its smallest and largest player count on both engines,
OpenSpiel's ``MCTSBot`` and ``ISMCTSBot`` playing whole games, and the game types, tensors,
strings, chance nodes, resampling and parameters we declare. Needs OpenSpiel (Python 3.11+)."""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any, Dict, List, Tuple

import numpy as np
import pyspiel  # noqa: E402  (the test extra installs open_spiel on Python >= 3.11)
import pytest
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import mousehole
import mousehole.openspiel as mo  # noqa: E402
from gamecases import OLD_DEFAULTS, may_end_without_winner, profile
from mousehole import _api
from test_readings import small_params

GAMES = mousehole.game_names()
NAMES = ["mousehole_" + g for g in GAMES]
GT = pyspiel.GameType


@pytest.fixture(scope="module", autouse=True)
def registered() -> List[str]:
    return mo.register()  # type: ignore[no-any-return]


def _counts(game_id: str) -> Tuple[int, int]:
    cls = _api._REGISTRY[game_id]
    return cls.min_players, cls.max_players


def _random_walk(state: Any, rng: np.random.Generator, steps: int = 10**6) -> Any:
    """Play random actions (chance by its probabilities) on an OpenSpiel state, yielding it
    before each action."""
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state
        if state.is_chance_node():
            acts, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(acts, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


# ---------------------------------------------------------------------------------------
# registration and loading


def test_register_names_every_game_once() -> None:
    assert mo.register() == NAMES  # a second call registers nothing new and says the same
    registered = set(pyspiel.registered_names())
    assert set(NAMES) <= registered


def test_missing_openspiel_is_a_clear_import_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # `import pyspiel` now fails
    with pytest.raises(ImportError, match=r"pip install 'open_spiel>=2\.0'"):
        mo.register()
    with pytest.raises(ImportError, match=r"pip install 'open_spiel>=2\.0'"):
        mo.load_game("m")


def test_module_imports_without_openspiel() -> None:
    import subprocess

    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "import mousehole.openspiel as mo\n"
        "assert mo.parameter_specification('m')['rng_seed'] == -1\n"
        "try:\n    mo.register()\nexcept ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "pip install 'open_spiel>=2.0' (the 'openspiel' extra" in out.stdout


@pytest.mark.parametrize("game_id", GAMES)
def test_load_game_passes_parameters(game_id: str) -> None:
    lo, hi = _counts(game_id)
    g = pyspiel.load_game(f"mousehole_{game_id}(players={hi},engine=python,max_turns=77)")
    assert g.num_players() == hi
    mh = g.mousehole_game
    assert (mh.name, mh.num_players, mh.engine, mh.max_turns) == (game_id, hi, "python", 77)
    assert g.get_parameters()["players"] == hi
    # the game's string loads the same game again
    again = pyspiel.load_game(str(g))
    assert again.mousehole_game == mh
    assert mo.load_game(game_id, players=lo).mousehole_game.num_players == lo


def test_player_count_defaults_are_minus_one() -> None:
    """An int parameter whose default depends on the player count is -1 ("the game's own
    default") in OpenSpiel; any other value is passed through."""
    spec = mo.parameter_specification("cheese_rescue")
    assert spec["square"] == -1 and spec["initial_draw"] == -1
    for n in (2, 3, 4):
        g = pyspiel.load_game(f"mousehole_cheese_rescue(players={n})")
        assert g.mousehole_game.params == mousehole.load("cheese_rescue", players=n).params
    g = pyspiel.load_game("mousehole_cheese_rescue(players=2,initial_draw=3)")
    assert g.mousehole_game.params["initial_draw"] == 3
    assert g.mousehole_game.params["square"] == 5
    assert g.max_game_length() == g.mousehole_game.cells_to_fill == 24
    m = mo.load_game("maus_au_chocolat", players=3, target=12)
    assert m.mousehole_game.params["target"] == 12
    assert mo.parameter_specification("kasimir")["explicit_chance"] is True


def test_kasimir_track_length_is_limited_by_the_default_traps() -> None:
    """docs/openspiel.md, limits: the traps table cannot be set here, and the default one
    has a trap on space 39 (KK-1), so a shorter track is refused, naming the rule."""
    assert mo.load_game("kasimir", track_length=39).mousehole_game.params["track_length"] == 39
    with pytest.raises(mousehole.ParameterError, match="KK-1: traps holds 39, not a space of the track"):
        mo.load_game("kasimir", track_length=38)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(Exception, match="(?i)unknown parameter"):
        pyspiel.load_game("mousehole_m(colour=3)")
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("mousehole_m(players=9)")
    with pytest.raises(Exception, match="engine"):
        pyspiel.load_game("mousehole_m(engine=fast)")
    for bad in ("x", 1.5, True):  # OpenSpiel checks the type (SpielError) ...
        with pytest.raises(Exception, match="rng_seed"):
            mo.load_game("m", rng_seed=bad)
    with pytest.raises(mousehole.ParameterError, match=r"rng_seed must be -1 .* or a seed 0\.\.2147483647"):
        mo.load_game("m", rng_seed=-2)  # ... and the adapter the range
    with pytest.raises(mousehole.ParameterError):
        mo.game_name("chess")


# ---------------------------------------------------------------------------------------
# OpenSpiel's own conformance test


def _sim_cases() -> List[Any]:
    out = []
    for game_id in GAMES:
        for n in _counts(game_id):
            for engine in mousehole.available_engines():
                out.append(pytest.param(game_id, n, engine, id=f"{game_id}-{n}-{engine}"))
    return out


@pytest.mark.parametrize("game_id, players, engine", _sim_cases())
def test_random_sim_test(game_id: str, players: int, engine: str) -> None:
    g = mo.load_game(game_id, rng_seed=0, players=players, engine=engine)
    pyspiel.random_sim_test(g, num_sims=2 if engine == "compiled" else 1, serialize=False, verbose=False)


def test_random_sim_test_kasimir_without_explicit_chance() -> None:
    g = mo.load_game("kasimir", rng_seed=0, players=3, explicit_chance=False)
    assert g.get_type().chance_mode == GT.ChanceMode.SAMPLED_STOCHASTIC
    assert g.max_chance_outcomes() == 0
    pyspiel.random_sim_test(g, num_sims=2, serialize=False, verbose=False)


# ---------------------------------------------------------------------------------------
# the game types we declare, checked against what the games do


def _expected_information(game_id: str) -> Any:
    """From the test profile (the rules: CR-15 animals in hands and the pile, M's hands and
    pile, MC-26 hands, bids and pile are hidden; Kater Kasimir hides nothing)."""
    if profile(game_id).perfect_information:
        return GT.Information.PERFECT_INFORMATION
    return GT.Information.IMPERFECT_INFORMATION


@pytest.mark.parametrize("game_id", GAMES)
def test_game_type(game_id: str) -> None:
    for n in range(_counts(game_id)[0], _counts(game_id)[1] + 1):
        g = mo.load_game(game_id, rng_seed=0, players=n)
        t = g.get_type()
        mh = g.mousehole_game
        assert t.short_name == f"mousehole_{game_id}"
        assert t.dynamics == GT.Dynamics.SEQUENTIAL
        assert t.reward_model == GT.RewardModel.TERMINAL
        assert t.information == _expected_information(game_id)
        explicit = bool(profile(game_id).openspiel_chance_off)  # explicit chance by default here
        want_chance = GT.ChanceMode.EXPLICIT_STOCHASTIC if explicit else GT.ChanceMode.SAMPLED_STOCHASTIC
        assert t.chance_mode == want_chance
        assert t.provides_observation_tensor and t.provides_observation_string
        assert t.provides_information_state_string and not t.provides_information_state_tensor
        assert (g.min_utility(), g.max_utility()) == (-1.0, 1.0)
        assert g.num_distinct_actions() == mh.num_actions
        assert g.observation_tensor_shape() == list(mh.observation_shape)
        if n == 2:
            assert t.utility == GT.Utility.ZERO_SUM and g.utility_sum() == 0.0
        elif profile(game_id).single_winner:
            assert t.utility == GT.Utility.CONSTANT_SUM and g.utility_sum() == 2 - n
        else:
            assert t.utility == GT.Utility.GENERAL_SUM


@pytest.mark.parametrize("game_id", GAMES)
def test_returns_sum_as_declared(game_id: str) -> None:
    """Over many random games (short ones too, ended by max_turns), the returns always add
    up to the declared utility sum, and every game ends with a winner, except Kater Kasimir's
    games in which every seat is eliminated (``elimination="out_of_game"``, the default since
    issue 41), which give every seat 0 with 2 players (zero-sum) and -1 with more (docs/api.md,
    ``returns()``)."""
    for n in _counts(game_id):
        seen = set()
        for max_turns in (3, 1000):
            g = mo.load_game(game_id, rng_seed=0, players=n, max_turns=max_turns)
            res = mousehole.simulate(g.mousehole_game, 150, seed=n)
            k = res.winners.sum(axis=1)
            if not may_end_without_winner(g.mousehole_game):
                assert (k > 0).all()
            # docs/api.md, returns(): 0 each when every seat wins, and when none does with 2 players
            even = (k[:, None] == n) | ((k[:, None] == 0) & (n == 2))
            returns = np.where(even, 0.0, np.where(res.winners, 1.0, -1.0))
            sums = returns.sum(axis=1)
            if g.get_type().utility != GT.Utility.GENERAL_SUM:
                assert np.all(sums == g.utility_sum()), (game_id, n, max_turns)
            seen.update(sums.tolist())
        if g.get_type().utility == GT.Utility.GENERAL_SUM:
            assert len(seen) > 1  # general-sum really: the sum varies


@pytest.mark.parametrize("game_id", GAMES)
def test_max_game_length_bounds_random_games(game_id: str) -> None:
    """max_game_length bounds the decision nodes, for long random games and for games that
    max_turns cuts short (Maus au Chocolat's random rounds reach 4n + 1 of the 5n + 1
    actions its bound allows per round)."""
    for n in _counts(game_id):
        for max_turns in (2, 5, 1000):
            g = mo.load_game(
                game_id, rng_seed=0, players=n, max_turns=max_turns, **profile(game_id).openspiel_chance_off
            )
            res = mousehole.simulate(g.mousehole_game, 200, seed=max_turns)
            assert int(res.lengths.max()) <= g.max_game_length(), (game_id, n, max_turns)


def test_kasimir_chance_nodes_are_die_faces() -> None:
    g = mo.load_game("kasimir", rng_seed=0, players=2)
    mh = g.mousehole_game
    faces = len(mh.params["die"])
    assert g.max_chance_outcomes() == faces
    assert g.max_chance_nodes_in_history() == g.max_game_length()
    s = g.new_initial_state()
    rng = np.random.default_rng(3)
    seen = 0
    for st in _random_walk(s, rng, 200):
        if st.is_chance_node():
            out = st.chance_outcomes()
            assert [a for a, _ in out] == list(range(faces))
            assert all(abs(p - 1 / faces) < 1e-12 for _, p in out)
            assert st.legal_actions() == list(range(faces))
            face = int(rng.integers(faces))
            engine = st.mousehole_state()
            engine.apply_action(mh.num_actions - faces + face)  # KK: chance action P + face
            assert st.action_to_string(pyspiel.PlayerId.CHANCE, face) == st.mousehole_state().describe(
                mh.num_actions - faces + face
            )
            st.apply_action(face)
            assert st.mousehole_state() == engine
            seen += 1
    assert seen > 10


# ---------------------------------------------------------------------------------------
# observations and information states


@pytest.mark.parametrize("game_id", GAMES)
def test_observation_tensor_is_our_observation(game_id: str) -> None:
    for n in _counts(game_id):
        g = mo.load_game(game_id, rng_seed=0, players=n)
        shape = tuple(g.mousehole_game.observation_shape)
        rng = np.random.default_rng(n)
        for i, st in enumerate(_random_walk(g.new_initial_state(), rng)):
            if i % 7:
                continue
            engine = st.mousehole_state()
            for p in range(n):
                got = np.asarray(st.observation_tensor(p), dtype=np.float32).reshape(shape)
                assert np.array_equal(got, engine.observation(p)), (game_id, n, i, p)
                view = engine.to_dict(for_player=p)
                want = {k: v for k, v in view.items() if k not in ("params", "history", "log")}
                assert json.loads(st.observation_string(p)) == want


def _split_info(text: str) -> Tuple[Dict[str, Any], str]:
    body, _, trail = text.rpartition(" trail=")
    return json.loads(body), trail


def _fold(digest: bytes, view: Dict[str, Any]) -> bytes:
    payload = {k: v for k, v in view.items() if k not in ("params", "history", "log")}
    data = json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.blake2b(digest + data, digest_size=16).digest()


@pytest.mark.parametrize("game_id", GAMES)
def test_information_state_is_the_seats_views_only(game_id: str) -> None:
    """The information-state string is the seat's whole view (history included; nothing else
    of the state) and a digest of every view the seat had since the start, step by step."""
    n = _counts(game_id)[0] + 1
    g = mo.load_game(game_id, rng_seed=0, players=n)
    s = g.new_initial_state()
    start = s.mousehole_state()
    rng = np.random.default_rng(11)
    digests = [b""] * n
    replay = start.clone()
    for i, st in enumerate(_random_walk(s, rng)):
        engine = st.mousehole_state()
        if i:
            replay.apply_action(engine.history[-1])
        assert replay == engine
        for p in range(n):
            digests[p] = _fold(digests[p], replay.to_dict(for_player=p))
        if i % 5:
            continue
        texts = [st.information_state_string(p) for p in range(n)]
        assert len(set(texts)) == n  # every seat has its own information state
        for p in range(n):
            view, trail = _split_info(texts[p])
            want = engine.to_dict(for_player=p)
            del want["params"]
            assert view == want  # the view: nothing another seat hides
            assert trail == digests[p].hex()


@pytest.mark.parametrize("game_id", ["cheese_rescue", "m", "maus_au_chocolat"])
def test_information_state_hides_other_seats_cards(game_id: str) -> None:
    """Re-deal everything seat q cannot see (twice): q's information state, observation
    string and tensor stay the same; another seat whose hand changed gets a new one."""
    g = mo.load_game(game_id, rng_seed=0, players=3)
    rng = np.random.default_rng(5)
    checked = 0
    for i, st in enumerate(_random_walk(g.new_initial_state(), rng, 60)):
        if i % 6 or st.is_chance_node():
            continue
        engine = st.mousehole_state()
        q = i % 3
        a = g.from_mousehole(engine.determinize(q, 1 + i))
        b = g.from_mousehole(engine.determinize(q, 1000 + i))
        assert a.mousehole_state() != b.mousehole_state()  # the hidden cards really differ
        assert a.information_state_string(q) == b.information_state_string(q)
        assert a.observation_string(q) == b.observation_string(q)
        assert a.observation_tensor(q) == b.observation_tensor(q)
        for p in range(3):
            if p == q:
                continue
            va = a.mousehole_state().to_dict(for_player=p)
            vb = b.mousehole_state().to_dict(for_player=p)
            if va != vb:  # p's own hidden cards differ between the two deals
                assert a.information_state_string(p) != b.information_state_string(p)
                assert a.observation_string(p) != b.observation_string(p)
                checked += 1
    assert checked > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_information_state_remembers_the_past(game_id: str) -> None:
    """Two OpenSpiel states on the same position, one that went through earlier positions
    and one that starts there: same view and observation, different information states."""
    g = mo.load_game(game_id, rng_seed=0, players=2)
    mh = g.mousehole_game
    start = mh.new_state(4)
    walked = g.from_mousehole(start)
    rng = np.random.default_rng(4)
    for _ in _random_walk(walked, rng, 12):
        pass
    here = g.from_mousehole(walked.mousehole_state())
    assert here.mousehole_state() == walked.mousehole_state()
    for p in range(2):
        assert here.observation_string(p) == walked.observation_string(p)
        assert _split_info(here.information_state_string(p))[0] == _split_info(walked.information_state_string(p))[0]
        assert here.information_state_string(p) != walked.information_state_string(p)


@pytest.mark.parametrize("game_id", ["cheese_rescue", "m", "maus_au_chocolat"])
def test_resample_from_infostate(game_id: str, engine: str) -> None:
    g = mo.load_game(game_id, rng_seed=0, players=3, engine=engine)
    rng = np.random.default_rng(8)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for i, st in enumerate(_random_walk(g.new_initial_state(), rng, 40)):
        if i % 8:
            continue
        p = st.current_player()
        key = st.information_state_string(p)
        others = []
        for _ in range(4):
            r = st.resample_from_infostate(p, sampler)
            assert r.information_state_string(p) == key
            assert r.observation_tensor(p) == st.observation_tensor(p)
            assert r.legal_actions() == st.legal_actions()
            assert r.history() == st.history()
            others.append(json.dumps(r.mousehole_state().to_dict(), sort_keys=True))
            # the resampled state plays on, on its own
            a = r.legal_actions()[0]
            r.apply_action(a)
            assert st.information_state_string(p) == key
        assert len(set(others)) > 1


# ---------------------------------------------------------------------------------------
# deals, copies, actions


def _deal(s: Any) -> str:
    """The whole deal behind an OpenSpiel state (hands, pile, generator state), as text."""
    return json.dumps(s.mousehole_state().to_dict(), sort_keys=True)


def test_seeded_deals_follow_rng_seed() -> None:
    """``rng_seed=s``: the k-th initial state made deals from ``derive(s, k)``, the same
    calls give the same deals, another seed others."""

    def deals(seed: int, clones: bool) -> List[str]:
        g = mo.load_game("cheese_rescue", players=2, rng_seed=seed)
        out = []
        for _ in range(4):
            s = g.new_initial_state()
            if clones:
                s.clone().clone()
                s.observation_tensor(0)  # OpenSpiel makes a fresh state to size the tensor
            out.append(_deal(s))
        return out

    a = deals(1, False)
    assert len(set(a)) == 4  # four different deals
    g = mo.load_game("cheese_rescue", players=2, rng_seed=1)
    assert a == [
        json.dumps(g.mousehole_game.new_state(mousehole._rng.derive(1, k)).to_dict(), sort_keys=True) for k in range(4)
    ]
    b = deals(1, True)  # OpenSpiel's own throwaway states take seeds too: other deals, ...
    assert len(set(b)) == 4 and deals(1, True) == b  # ... all different, and reproducible
    assert set(deals(2, False)).isdisjoint(a)
    s = g.new_initial_state()
    assert s.clone().mousehole_state() == s.mousehole_state()
    assert s.mousehole_state().seed == mousehole._rng.derive(1, 0)


def test_seeded_deals_unchanged() -> None:
    """The seeded deal streams are the ones dealt before initial states took their seeds on
    creation (issue 23): 6 games of each game at rng_seed=5, 40 actions each. The digest was
    printed by this same loop run on commit 01cb012 (before the change), on both engines,
    under the readings of that time (``gamecases.OLD_DEFAULTS``)."""
    h = hashlib.sha256()
    for game_id in GAMES:
        g = mo.load_game(game_id, players=2, rng_seed=5, **OLD_DEFAULTS.get(game_id, {}))
        for i in range(6):
            s = g.new_initial_state()
            for step in range(40):
                if s.is_terminal():
                    break
                legal = s.legal_actions()
                s.apply_action(int(legal[(i + 31 * step) % len(legal)]))
            h.update(json.dumps([game_id, i, s.history(), s.mousehole_state().seed]).encode())
    assert h.hexdigest() == "938675ca82145ebdb2e4cf3e1a51ad106081fa010b6e3ee7034cf9c5294ba7bd"


HIDDEN_DEALS = [g for g in GAMES if not profile(g).perfect_information]  # (Kater Kasimir deals nothing hidden)


FIRST_CALLS = {
    "observation_tensor": lambda s: s.observation_tensor(0),
    "observation_string": lambda s: s.observation_string(1),
    "information_state_string": lambda s: s.information_state_string(0),
    "clone": lambda s: s.clone(),
    "serialize": lambda s: s.serialize(),
    "legal_actions": lambda s: s.legal_actions(),
    "current_player": lambda s: s.current_player(),
    "str": str,
    "nothing": lambda s: None,
}


@pytest.mark.parametrize("first", sorted(FIRST_CALLS))
@pytest.mark.parametrize("game_id", HIDDEN_DEALS)
@pytest.mark.parametrize("rng_seed", [-1, 3])
def test_each_initial_state_has_its_own_deal(game_id: str, first: str, rng_seed: int) -> None:
    """Issue 23: four initial states made before any is used get four deals, whatever is
    called on each first (a state only looked at or cloned took the next deal number without
    reserving it, so all four showed deal 0)."""
    g = mo.load_game(game_id, players=2, rng_seed=rng_seed)
    ss = [g.new_initial_state() for _ in range(4)]
    for s in ss:
        FIRST_CALLS[first](s)
    deals = [_deal(s) for s in ss]
    assert len(set(deals)) == 4
    seeds = [s.mousehole_state().seed for s in ss]
    assert len(set(seeds)) == 4
    for s, seed in zip(ss, seeds):  # each deal is the engine's game of its reported seed
        assert s.mousehole_state() == g.mousehole_game.new_state(seed)
    # and a copy of an untouched state is that same deal, not another one
    fresh = g.new_initial_state()
    copy = fresh.clone()
    assert _deal(copy) == _deal(fresh) and _deal(fresh) not in deals


def test_unseeded_deals_come_from_the_os() -> None:
    """``rng_seed=-1`` (the default): every state deals from a fresh 64-bit seed, so two games
    loaded alike (as in two processes) deal differently, and the seed is reported."""
    a = mo.load_game("m", players=2)
    b = mo.load_game("m", players=2)
    assert a.get_parameters()["rng_seed"] == -1
    seeds = [g.new_initial_state().mousehole_state().seed for g in (a, b, a, b)]
    assert len(set(seeds)) == 4
    assert any(s >= 2**32 for s in seeds)  # 64-bit seeds (all four below 2**32: p = 2**-128)
    s = a.new_initial_state()
    again = a.mousehole_game.new_state(s.mousehole_state().seed)
    assert again == s.mousehole_state()  # the reported seed replays the deal


def test_two_processes_deal_differently_unless_seeded() -> None:
    import subprocess

    code = (
        "import json, mousehole.openspiel as mo, sys\n"
        "kw = {} if sys.argv[1] == 'none' else {'rng_seed': int(sys.argv[1])}\n"
        "g = mo.load_game('maus_au_chocolat', players=3, **kw)\n"
        "print(json.dumps([g.new_initial_state().mousehole_state().to_dict() for _ in range(2)],"
        " sort_keys=True))\n"
    )

    def run(arg: str) -> str:
        out = subprocess.run([sys.executable, "-c", code, arg], capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        return out.stdout

    assert run("none") != run("none")
    assert run("9") == run("9") != run("10")


# ---------------------------------------------------------------------------------------
# pickles


def _pickle_cases() -> List[Any]:
    out = []
    for game_id in GAMES:
        for n in _counts(game_id):
            out.append(pytest.param(game_id, n, id=f"{game_id}-{n}"))
    return out


@pytest.mark.parametrize("game_id, players", _pickle_cases())
def test_games_pickle(game_id: str, players: int) -> None:
    """Issue 23: ``pickle.dumps(pyspiel.load_game("mousehole_kasimir"))`` failed (the
    per-game classes were not module attributes). A game pickles as its parameters."""
    import copy
    import pickle

    for rng_seed in (-1, 4):
        g = pyspiel.load_game(f"mousehole_{game_id}(players={players},rng_seed={rng_seed})")
        g.new_initial_state().legal_actions()  # a game that has dealt pickles all the same
        for h in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g)):
            assert type(h) is type(g) and str(h) == str(g)
            assert h.get_parameters() == g.get_parameters()
            assert h.mousehole_game == g.mousehole_game
            assert h.get_type().chance_mode == g.get_type().chance_mode
            if rng_seed >= 0:  # a seeded copy deals the seed's games from the start
                fresh = pyspiel.load_game(str(g))
                assert [_deal(h.new_initial_state()) for _ in range(2)] == [
                    _deal(fresh.new_initial_state()) for _ in range(2)
                ]
    assert getattr(mo, type(g).__name__) is type(g)  # the per-game class is a module attribute


def _mid_game(g: Any, rng: np.random.Generator, steps: int) -> Any:
    s = g.new_initial_state()
    for st in _random_walk(s, rng, steps):
        if st.current_player() >= 0:
            st.information_state_string(st.current_player())  # trails part-way
    return s


@pytest.mark.parametrize("game_id, players", _pickle_cases())
def test_states_pickle_mid_game(game_id: str, players: int) -> None:
    """A pickled state (and its game, pickled with it) plays on exactly as the original:
    same history, observations, information states, deal and pile, and the same future
    under the same actions."""
    import pickle

    g = mo.load_game(game_id, rng_seed=0, players=players)
    rng = np.random.default_rng(11)
    for steps in (0, 7, 25):
        s = _mid_game(g, rng, steps)
        if s.is_terminal():
            continue
        r = pickle.loads(pickle.dumps(s))
        assert type(r) is type(s) and str(r.get_game()) == str(g)
        pr = np.random.default_rng(steps)
        for _ in range(40):  # both in lockstep, the same actions
            assert s.history() == r.history() and s.move_number() == r.move_number()
            assert s.current_player() == r.current_player()
            assert s.mousehole_state() == r.mousehole_state()  # deal, pile, generator
            for p in range(players):
                assert s.observation_tensor(p) == r.observation_tensor(p)
                assert s.information_state_string(p) == r.information_state_string(p)
            if s.is_terminal():
                break
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes())
                a = int(pr.choice(acts, p=probs))
            else:
                a = int(pr.choice(s.legal_actions()))
            s.apply_action(a)
            r.apply_action(a)
        assert s.history() == r.history() and s.returns() == r.returns()
    # pickled together, a game and its states stay together
    s = _mid_game(g, rng, 5)
    g2, s2 = pickle.loads(pickle.dumps((g, s)))
    assert s2.get_game() is g2 and s2._core.shared is g2._shared
    assert s2.history() == s.history()


def test_untouched_state_pickles_as_its_deal() -> None:
    """A state pickled before its first use carries its deal (not a seed its unpickled
    game would deal otherwise: with OS seeds that would be another deal)."""
    import pickle

    for rng_seed in (-1, 0):
        g = mo.load_game("m", rng_seed=rng_seed, players=3)
        s = g.new_initial_state()
        r = pickle.loads(pickle.dumps(s))
        assert r.mousehole_state() == s.mousehole_state() and r.history() == []
        assert r.mousehole_state().seed == s.mousehole_state().seed


def test_serialize_round_trips_every_game() -> None:
    """``state.serialize()`` and ``game.deserialize_state`` work on every game (OpenSpiel's
    ``serialize_game_and_state`` needs the game's generator, which Python games cannot give:
    it works for Kater Kasimir with explicit chance only)."""
    rng = np.random.default_rng(5)
    for game_id in GAMES:
        g = mo.load_game(game_id, rng_seed=0, players=2)
        s = _mid_game(g, rng, 9)
        r = g.deserialize_state(s.serialize())
        assert r.history() == s.history() and r.mousehole_state() == s.mousehole_state()
        if profile(game_id).openspiel_chance_off:  # explicit chance: no generator to save
            g2, r2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(g, s))
            assert r2.history() == s.history() and r2.mousehole_state() == s.mousehole_state()
        else:
            with pytest.raises(pyspiel.SpielError, match="GetRNGState"):
                pyspiel.serialize_game_and_state(g, s)


def test_clone_is_independent() -> None:
    g = mo.load_game("m", rng_seed=0, players=3)
    s = g.new_initial_state()
    for _ in range(5):
        s.apply_action(s.legal_actions()[0])
    c = s.clone()
    assert str(c) == str(s) and c.history() == s.history()
    c.apply_action(c.legal_actions()[-1])
    assert c.history() != s.history()
    assert len(s.mousehole_state().history) == 5


@pytest.mark.parametrize("game_id", GAMES)
def test_action_strings_are_the_notation(game_id: str) -> None:
    g = mo.load_game(game_id, rng_seed=0, players=2)
    rng = np.random.default_rng(2)
    for st in _random_walk(g.new_initial_state(), rng, 30):
        if st.is_chance_node():
            continue
        engine = st.mousehole_state()
        for a in st.legal_actions()[:5]:
            text = st.action_to_string(st.current_player(), a)
            assert text == engine.describe(a)
            assert engine.parse_action(text) == a


def test_from_mousehole_checks_the_game() -> None:
    g = mo.load_game("m", rng_seed=0, players=3)
    with pytest.raises(ValueError, match="from_mousehole"):
        g.from_mousehole(mousehole.load("m", players=4).new_state(0))
    with pytest.raises(ValueError, match="from_mousehole"):
        g.from_mousehole("not a state")


def test_illegal_action_is_refused_by_the_engine() -> None:
    g = mo.load_game("cheese_rescue", rng_seed=0, players=2)
    s = g.new_initial_state()
    legal = set(s.legal_actions())
    bad = next(a for a in range(g.num_distinct_actions()) if a not in legal)
    before = s.mousehole_state()
    with pytest.raises(Exception, match="CR-"):
        s.apply_action(bad)
    assert s.mousehole_state() == before


# ---------------------------------------------------------------------------------------
# OpenSpiel's bots play whole games


def _play_bots(g: Any, bots: List[Any], rs: np.random.RandomState) -> Any:
    s = g.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes())
            s.apply_action(int(rs.choice(acts, p=probs)))
        else:
            p = s.current_player()
            a = int(bots[p].step(s))
            assert a in s.legal_actions()
            s.apply_action(a)
    return s


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_mcts_and_ismcts_play_whole_games(game_id: str) -> None:
    g = mo.load_game(game_id, rng_seed=0, players=2)
    rs = np.random.RandomState(7)
    ev = mcts.RandomRolloutEvaluator(1, rs)
    first = mcts.MCTSBot(g, 2.0, 3, ev, random_state=rs, solve=False)
    if g.get_type().information == GT.Information.IMPERFECT_INFORMATION:
        second = ismcts.ISMCTSBot(g, ev, 2.0, 3, random_state=rs)
    else:  # OpenSpiel's ISMCTSBot accepts imperfect-information games only
        second = mcts.MCTSBot(g, 2.0, 3, ev, random_state=rs, solve=True)
    end = _play_bots(g, [first, second], rs)
    r = end.returns()
    assert r in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    assert end.mousehole_state().is_terminal()
    assert len(end.history()) == len(end.mousehole_state().history)


def test_openspiel_ismcts_plays_a_four_seat_game() -> None:
    g = mo.load_game("cheese_rescue", rng_seed=0, players=4)
    rs = np.random.RandomState(3)
    ev = mcts.RandomRolloutEvaluator(1, rs)
    bots = [ismcts.ISMCTSBot(g, ev, 2.0, 2, random_state=rs) for _ in range(4)]
    end = _play_bots(g, bots, rs)
    assert sorted(end.returns()) in (
        [-1.0, -1.0, -1.0, 1.0],
        [-1.0, -1.0, 1.0, 1.0],
        [-1.0, 1.0, 1.0, 1.0],
        [0.0, 0.0, 0.0, 0.0],
    )


def test_mousehole_bots_play_openspiel_states() -> None:
    """docs/openspiel.md: mousehole's compiled bots (for OpenSpiel's C++ bots, which cannot
    search Python games) choose OpenSpiel actions from ``state.mousehole_state()``."""
    from mousehole.bots import ISMCTSBot, MCTSBot

    for game_id in ("kasimir", "maus_au_chocolat"):
        g = mo.load_game(game_id, players=2, rng_seed=1)
        bots = [MCTSBot(20, seed=1), ISMCTSBot(20, seed=2)]
        rs = np.random.RandomState(0)
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes())
                s.apply_action(int(rs.choice(acts, p=probs)))
            else:
                a = bots[s.current_player()].step(s.mousehole_state())
                assert a in s.legal_actions()
                s.apply_action(a)
        assert sorted(s.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_docs_example_runs() -> None:
    """The example of docs/openspiel.md (with a smaller budget) plays a whole game."""
    import os
    import re

    path = os.path.join(os.path.dirname(__file__), os.pardir, "docs", "openspiel.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    block = re.search(r"## Running OpenSpiel's algorithms\n\n```python\n(.*?)```", text, re.S)
    assert block
    code = block.group(1).replace("500", "3").replace("(players=2)", "(players=2,rng_seed=0)")
    assert "rng_seed=0" in code  # a seeded deal, so the test plays the same game every run
    namespace: Dict[str, Any] = {}
    exec(compile(code, "docs/openspiel.md", "exec"), namespace)
    assert namespace["state"].is_terminal()
    assert sorted(namespace["state"].returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_rl_environment_uses_the_observation_tensor() -> None:
    from open_spiel.python import rl_environment

    g = mo.load_game("kasimir", rng_seed=0, players=2)
    env = rl_environment.Environment(g)  # resolves the die's chance nodes itself
    ts = env.reset()
    rng = np.random.default_rng(0)
    steps = 0
    while not ts.last():
        p = ts.observations["current_player"]
        want = env.get_state.mousehole_state().observation(p).ravel()
        assert np.array_equal(np.asarray(ts.observations["info_state"][p], dtype=np.float32), want)
        ts = env.step([int(rng.choice(ts.observations["legal_actions"][p]))])
        steps += 1
    assert steps > 0 and sorted(ts.rewards) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("game_id, params", small_params())
def test_readings_pass_through_openspiel_parameter_strings(game_id: str, params: Dict[str, Any]) -> None:
    """A reading is an OpenSpiel string parameter: the game string loads it, ``str(game)``
    gives it back, and OpenSpiel's own random_sim_test plays it."""
    spec = mo.parameter_specification(game_id)
    ((param, value),) = [(k, v) for k, v in params.items() if k != "players"]
    assert isinstance(spec[param], str) and spec[param] == _api._REGISTRY[game_id].DEFAULTS[param]
    g = pyspiel.load_game(f"mousehole_{game_id}(players={params['players']},{param}={value},rng_seed=3)")
    assert g.mousehole_game.params[param] == value and g.get_parameters()[param] == value
    assert pyspiel.load_game(str(g)).mousehole_game == g.mousehole_game
    pyspiel.random_sim_test(g, num_sims=1, serialize=False, verbose=False)
    with pytest.raises(Exception, match=param):
        pyspiel.load_game(f"mousehole_{game_id}({param}=nonsense)")
