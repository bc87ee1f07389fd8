"""The tables of ``mousehole serve`` without a server: settings checked as hostile input,
whose decisions are pending (Maus au Chocolat's bids in any order, MC-7, MC-27), moves
checked on a state dealt from the seat's view, the public view of the spectators, the
descriptions of each move per audience, and the record of a served game."""

from __future__ import annotations

import json
import random
from typing import Any, Dict

import pytest

import mousehole
from mousehole import records
from mousehole.serve import views
from mousehole.serve.tables import LEVELS, MAX_BOT_ITERATIONS, MAX_EVENTS, MAX_NAME, Refused, Table, TableSpec, bot_spec


def _spec(game: str, players: int, **extra: Any) -> TableSpec:
    seats = [{"name": f"p{i}"} for i in range(players)]
    return TableSpec.parse({"game": game, "seats": seats, "seconds": 0.05, **extra})


def _play_random(table: Table, rng: random.Random, check: Any = None) -> None:
    """Play to the end, each step a random seat of those with a decision playing a random
    legal move of its twin."""
    while not table.over:
        decisions = table.decisions()
        seat = rng.choice(sorted(decisions))
        if check is not None:
            check(table, seat)
        twin = table.twin(seat)
        action = int(rng.choice(list(twin.legal_actions())))
        assert table.check(seat, table.turns[seat], action) == action
        table.apply_entry(seat, action)


# -- settings --------------------------------------------------------------------------

BAD_SPECS = [
    ([], "a table is a JSON object"),
    ({"game": "m", "seats": [{"name": "a"}, {"name": "b"}], "colour": 1}, "unknown field"),
    ({"game": "chess", "seats": [{"name": "a"}, {"name": "b"}]}, "game must be one of"),
    ({"game": "m", "seats": [{"name": "a"}]}, "seats must be a list of 2 to 6"),
    ({"game": "m", "seats": [{"name": "a"}] * 7}, "seats must be a list of 2 to 6"),
    ({"game": "m", "seats": "ab"}, "seats must be a list"),
    ({"game": "m", "seats": [{"name": "a"}, {"name": "b"}], "players": 3}, "players must be the number"),
    ({"game": "m", "seats": [{"name": "a"}, {"name": "b"}], "players": True}, "players must be the number"),
    ({"game": "m", "seats": [{"name": "a"}, {"name": "x" * (MAX_NAME + 1)}]}, "1 to 32 characters"),
    ({"game": "m", "seats": [{"name": "a"}, {"name": "b\x1b[2J"}]}, "control or invisible"),
    ({"game": "m", "seats": [{"name": "a"}, {"name": 5}]}, "a name is a string"),
    ({"game": "m", "seats": [{"name": "a"}, {"bot": "alphazero"}]}, "unknown bot spec"),
    ({"game": "m", "seats": [{"name": "a"}, {"bot": "mcts:5s"}], "seconds": 1}, "at most the table's 1 seconds"),
    ({"game": "m", "seats": [{"name": "a"}, {"bot": f"mcts:{MAX_BOT_ITERATIONS + 1}"}]}, "iterations a move"),
    ({"game": "m", "seats": [{"name": "a"}, {"bot": "x" * 41}]}, "at most 40 characters"),
    # a search bot's bad budget is refused, not replaced by the table's time
    ({"game": "m", "seats": [{"name": "a"}, {"bot": "mcts:\u00b2"}]}, "a spec is written in ASCII"),
    ({"game": "m", "seats": [{"name": "a"}, {"bot": "ismcts:lots"}]}, "bad bot spec"),
    ({"game": "m", "seats": [{"name": "a"}, {"bot": "strong:nodes=0"}]}, "nodes"),
    ({"game": "m", "seats": [{"bot": "easy"}, {"bot": "hard"}]}, "at least one person"),
    ({"game": "m", "seats": [{"name": "a"}, {"name": "b", "role": "x"}]}, "a seat is"),
    ({"game": "m", "seats": [{"name": "a"}, {"name": "b"}], "seconds": 0}, "seconds (the bots' time"),
    ({"game": "m", "seats": [{"name": "a"}, {"name": "b"}], "seconds": float("nan")}, "seconds (the bots' time"),
    ({"game": "m", "seats": [{"name": "a"}, {"name": "b"}], "seconds": 1e9}, "seconds (the bots' time"),
    ({"game": "m", "seats": [{"name": "a"}, {"name": "b"}], "readings": {"max_turns": 5}}, "unknown reading"),
    ({"game": "m", "seats": [{"name": "a"}, {"name": "b"}], "readings": {"pass_cost": "free"}}, "must be one of"),
    ({"game": "m", "seats": [{"name": "a"}, {"name": "b"}], "readings": ["pass_cost"]}, "readings must be an object"),
]


@pytest.mark.parametrize("data, message", BAD_SPECS, ids=[m for _, m in BAD_SPECS])
def test_bad_table_settings_are_refused(data: Any, message: str) -> None:
    with pytest.raises(Refused) as e:
        TableSpec.parse(data)
    assert e.value.code == "bad-table"
    assert message in e.value.message
    assert len(e.value.message) < 300


def test_table_settings() -> None:
    spec = TableSpec.parse(
        {
            "game": "maus_au_chocolat",
            "readings": {"henri_bonus": "optional"},
            "seconds": 0.5,
            "seats": [
                {"name": "  ann  "},
                {"bot": "hard"},
                {"bot": "mcts:200", "name": "mc"},
                {"bot": "ismcts:0.25s"},
                {"bot": "Easy"},
            ],
        }
    )
    assert spec.params == {"henri_bonus": "optional", "players": 5}
    assert [s.name for s in spec.seats] == ["ann", "bot hard", "mc", "bot ismcts:0.25s", "bot easy"]
    # a level is the bot of `mousehole play --level`, with the table's time a move
    assert [s.bot for s in spec.seats] == [None, "strong:0.5s", "mcts:200", "ismcts:0.25s", LEVELS["easy"]]
    assert TableSpec.from_json(json.loads(json.dumps(spec.to_json()))) == spec
    assert bot_spec("medium", 2.0) == "ismcts:2.0s"
    # a node budget without a time gets the table's time and keeps its nodes
    assert bot_spec("mcts:nodes=5000", 0.5) == "mcts:0.5s:nodes=5000"


# -- play ------------------------------------------------------------------------------

CASES = [("cheese_rescue", 3), ("kasimir", 2), ("m", 3), ("maus_au_chocolat", 4), ("maus_au_chocolat", 2)]


def test_the_cases_cover_every_game() -> None:
    assert {game for game, _ in CASES} == set(mousehole.game_names())


@pytest.mark.parametrize("game, players", CASES)
def test_random_tables_end_and_record_the_game(game: str, players: int, engine: str) -> None:
    """Random seats and moves (any seat with a decision, Maus au Chocolat's bids in any order)
    play each game to its end: every move checked on the seat's twin is legal in the real
    position, the record is the existing format and replays to the position."""
    spec = _spec(game, players)
    rng = random.Random(players)

    def same_legal(table: Table, seat: int) -> None:
        real = sorted(int(a) for a in table.decisions()[seat].legal_actions())
        assert sorted(int(a) for a in table.twin(seat).legal_actions()) == real

    table = Table("t1", spec, 11, 12, created=0.0, engine=engine)
    _play_random(table, rng, same_legal)
    assert table.decisions() == {}
    rec = records.loads(table.record_text())
    assert rec.final_state(engine=engine) == table.state
    assert rec.seed == 11 and rec.meta == {"table": "t1"} and rec.seats == tuple(f"p{i}" for i in range(players))
    result = table.result()
    assert result["scores"] == table.state.scores() and result["winners"] == table.state.winners()
    assert result["why"] and "(" in result["why"]  # names the rule


@pytest.mark.parametrize("game, players", CASES[:4])
def test_every_audience_is_told_each_move_from_its_views(game: str, players: int) -> None:
    """Each seat's events are describe_seen of its own views before and after each move, the
    spectators' of the public views, and a table rebuilt from its log tells the same."""
    table = Table("t2", _spec(game, players), 5, 6, created=0.0)
    _play_random(table, random.Random(2))
    rec = records.loads(table.record_text())
    states = list(rec.states())
    for audience in range(players + 1):
        want = []
        for k in range(1, len(states)):
            if audience < players:
                before, after = (states[k - 1].to_dict(for_player=audience), states[k].to_dict(for_player=audience))
            else:
                before = views.public_view([states[k - 1].to_dict(for_player=p) for p in range(players)])
                after = views.public_view([states[k].to_dict(for_player=p) for p in range(players)])
            mover = states[k - 1].current_player
            want.append(f"{table.labels[mover]}: {table.game.describe_seen(before, after)}")
        got = [e["text"] for e in table.logs[audience]]
        assert got == want[-len(got) :] and len(got) == min(len(want), MAX_EVENTS)
    replayed = Table("t2", table.spec, 5, 6, created=0.0)
    entries = [(seat, a) for seat, a in _log_of(table)]
    for seat, a in entries:
        replayed.apply_entry(seat, a)
    assert replayed.state == table.state and [list(x) for x in replayed.logs] == [list(x) for x in table.logs]


def _log_of(table: Table) -> Any:
    """The log's entries in order, as a table in memory does not keep them: the history
    (every entry has been applied at the end) with each action's seat."""
    state = table.game.new_state(table.seed)
    for a in table.state.history:
        yield int(state.current_player), int(a)
        state.apply_action(a)


def test_bids_in_any_order_wait_face_down() -> None:
    """MC-7, MC-27: in a bid phase every seat that has not bid has a decision; a later seat
    may bid first; its bid waits face down (shown to itself only) and is applied in seat
    order; once in, the seat has no decision left in the phase."""
    table = Table("t3", _spec("maus_au_chocolat", 3), 3, 4, created=0.0)
    assert table.state.to_dict()["phase"] == "bid"
    assert sorted(table.decisions()) == [0, 1, 2]
    bid2 = int(table.twin(2).legal_actions()[0])
    text2 = table.twin(2).describe(bid2)
    assert text2 == "seat 2 bids " + table.game.card_token(bid2)
    table.apply_entry(2, table.check(2, 0, bid2))
    assert table.state.history == [] and table.queues[2] == [bid2]
    assert sorted(table.decisions()) == [0, 1]
    with pytest.raises(Refused) as e:
        table.check(2, 1, bid2)
    assert e.value.code == "not-your-turn"
    assert table.snapshot(2)["queued"] == [text2]
    assert table.snapshot(0)["queued"] == [] and "queued" not in table.snapshot(3)
    bid0 = int(table.twin(0).legal_actions()[-1])
    table.apply_entry(0, table.check(0, 0, bid0))
    assert [int(a) for a in table.state.history] == [bid0]
    bid1 = int(table.twin(1).legal_actions()[1])
    table.apply_entry(1, table.check(1, 0, bid1))
    assert [int(a) for a in table.state.history] == [bid0, bid1, bid2]
    assert table.state.to_dict()["phase"] != "bid"


def test_moves_are_refused_with_the_table_unchanged() -> None:
    table = Table("t4", _spec("m", 3), 8, 9, created=0.0)
    seat = int(table.state.current_player)
    other = (seat + 1) % 3
    before = (table.state.clone(), table.seq, list(table.turns))
    cases = [
        ((None, 0, 0), "spectator"),
        ((other, 0, int(table.state.legal_actions()[0])), "not-your-turn"),
        ((seat, 1, int(table.state.legal_actions()[0])), "stale"),
        ((seat, "0", int(table.state.legal_actions()[0])), "stale"),
        ((seat, 0, table.game.num_actions), "illegal"),
        ((seat, 0, True), "illegal"),
        ((seat, 0, 1.0), "illegal"),
    ]
    for (s, turn, action), code in cases:
        with pytest.raises(Refused) as e:
            table.check(s, turn, action)
        assert e.value.code == code, (s, turn, action)
    legal = set(int(x) for x in table.state.legal_actions())
    illegal = next(a for a in range(table.game.num_actions) if a not in legal)
    with pytest.raises(Refused) as e:
        table.check(seat, 0, illegal)
    assert e.value.code == "illegal" and "M-" in e.value.message  # the rule it breaks
    with pytest.raises(Refused) as e:
        table.check(seat, 0, None, "no such move")
    assert e.value.code == "illegal"
    text = table.twin(seat).describe(int(table.state.legal_actions()[0]))
    assert table.check(seat, 0, None, text) == int(table.state.legal_actions()[0])
    assert (table.state, table.seq, table.turns) == before
    _play_random(table, random.Random(1))
    with pytest.raises(Refused) as e:
        table.check(seat, table.turns[seat], 0)
    assert e.value.code == "over"


# -- the public view -------------------------------------------------------------------


@pytest.mark.parametrize("game, players", [("cheese_rescue", 2), ("kasimir", 3), ("m", 4), ("maus_au_chocolat", 3)])
def test_the_public_view_is_what_every_seat_sees(game: str, players: int) -> None:
    """The spectators' view holds only what every seat sees: each of its parts is in every
    seat's view, it is the same for every re-deal of what any one seat cannot see, and so is
    its picture; it never holds the generator or the seed."""
    g = mousehole.load(game, players=players)
    state = g.new_state(21)
    rng = random.Random(4)
    k = 0
    while not state.is_terminal():
        if k % 9 == 0:
            seat_views = [state.to_dict(for_player=p) for p in range(players)]
            pub = views.public_view(seat_views)
            assert pub["rng"] is None and pub["view"] == players
            for v in seat_views:
                _assert_part_of(pub, v)
            picture = views.public_svg(state, pub)
            assert "spectator&#39;s view" in picture or "spectator's view" in picture
            for q in range(players):
                other = state.determinize(q, k + 1)
                pub2 = views.public_view([other.to_dict(for_player=p) for p in range(players)])
                assert pub2 == pub
                assert views.public_svg(other, pub2) == picture
        state.apply_action(int(rng.choice(list(state.legal_actions()))))
        k += 1


def _assert_part_of(pub: Any, view: Any) -> None:
    """Every part of ``pub`` that is not None is the same in ``view``."""
    if pub is None:
        return
    if isinstance(pub, dict):
        for key, value in pub.items():
            if key != "view":
                _assert_part_of(value, view[key])
    elif isinstance(pub, list):
        assert len(pub) == len(view)
        for a, b in zip(pub, view):
            _assert_part_of(a, b)
    else:
        assert pub == view


def test_the_public_view_of_disagreeing_views() -> None:
    a: Dict[str, Any] = {"game": "x", "view": 0, "hands": [[1, 2], [None, None]], "n": 3, "flag": True}
    b: Dict[str, Any] = {"game": "x", "view": 1, "hands": [[None, None], [4, 5]], "n": 3, "flag": 1}
    assert views.public_view([a, b]) == {
        "game": "x",
        "view": 2,
        "hands": [[None, None], [None, None]],
        "n": 3,
        "flag": None,
    }
    assert views.public_view([{"k": [1]}, {"k": [1, 2]}])["k"] is None
    assert views.public_view([{"k": {"a": 1}}, {"k": {"b": 1}}])["k"] is None
    with pytest.raises(ValueError):
        views.public_view([])


def test_every_game_says_why_it_ended() -> None:
    """One list of games: every registered game has its sentence of why a game ends."""
    assert set(views.END_TEXTS) == set(mousehole.game_names())
    g = mousehole.load("m", players=2)
    for reason in ("M-16", "M-17", "M-18"):
        assert reason in views.end_text(g, {"end": reason}, truncated=False)
    assert "max_turns" in views.end_text(g, {"end": "max_turns"}, truncated=True)
