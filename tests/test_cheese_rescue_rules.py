"""One test (at least) per rule of Cheese Rescue, CR-1 .. CR-15 (docs/games/cheese_rescue.md),
on both engines. Each test fails when the rule it names is broken.

After the rules, in sections of their own (``# -- notation``, ``# -- observation``, ``# -- the C
game interface``): the cases only this game has of its notation, its observation planes and its
core's ``mh_game_t``, hand-built positions with their expected strings, planes and values
(what every game has is checked by the generic suites over the registry)."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Tuple

import numpy as np
import pytest

import mousehole
from gamecases import cgame, reference_pairs, scale, state_clones, write_out
from mousehole._api import TERMINAL
from mousehole._rng import Rng, derive
from mousehole.cheese_rescue import CAT_CODE, CHEESE_CODE, DOG_CODE, EMPTY, MOUSE_CODE, START, CRMove

DOG, CAT, MOUSE = DOG_CODE, CAT_CODE, MOUSE_CODE  # table codes, short


def cheese(owner: int, value: int) -> int:
    """Table code of a cheese of ``owner`` with ``value`` (DEFAULT values 1, 2, 3)."""
    return CHEESE_CODE + owner * 3 + (value - 1)


def crafted(game: Any, cells: Dict[Tuple[int, int], int]) -> Any:
    """A reachable state whose table holds ``cells`` (code per (row, col)) plus the start card.

    The history lays those cards in an order the rules allow (each card next to an earlier
    one, each seat in turn laying its own cheeses, CR-7/CR-8), found by a small search; the
    hands have the sizes the deal and the draws give them (CR-5, CR-9), holding their cheeses
    and the first of the remaining animals; the other animals are in the pile."""
    G, n, K, C = game.grid_size, game.num_players, game.num_cheese_kinds, game.num_cells
    todo = {r * G + c: code for (r, c), code in cells.items()}
    after_deal = sum(game.pile_counts) - n * game.initial_draw

    def kind(code: int) -> int:
        return code - DOG_CODE if code < CHEESE_CODE else 3 + (code - CHEESE_CODE) % K

    def nbrs(x: int) -> List[int]:
        r, c = divmod(x, G)
        return [y for y, ok in ((x - G, r > 0), (x + G, r < G - 1), (x - 1, c > 0), (x + 1, c < G - 1)) if ok]

    occupied = {game.center} if game.uses_start else set()
    order: List[int] = []
    received = [game.initial_draw] * n
    laid_animals = [0] * n
    failed = set()

    def search() -> bool:
        if not todo:
            return True
        key = (frozenset(todo), tuple(laid_animals))
        if key in failed:
            return False
        i = len(order)
        q = i % n
        cands = [x for x in sorted(todo) if any(y in occupied for y in nbrs(x))] if occupied else [game.center]
        for x in cands:
            code = todo.get(x)
            if code is None or (code >= CHEESE_CODE and (code - CHEESE_CODE) // K != q):
                continue
            if code < CHEESE_CODE and laid_animals[q] + 1 > received[q]:
                continue
            del todo[x]
            occupied.add(x)
            order.append(x)
            laid_animals[q] += code < CHEESE_CODE
            received[q] += i < after_deal
            if search():
                return True
            received[q] -= i < after_deal
            laid_animals[q] -= code < CHEESE_CODE
            order.pop()
            occupied.discard(x)
            todo[x] = code
        failed.add(key)
        return False

    assert search(), "no order of play lays this table (each seat lays its own cheeses in turn)"
    table = [EMPTY] * (G * G)
    if game.uses_start:
        table[game.center] = START
    for (r, c), code in cells.items():
        table[r * G + c] = code
    history = [kind(table[x]) * C + x for x in order]
    plays = [len(range(p, len(history), n)) for p in range(n)]
    spare = [k for k in range(3) for _ in range(game.pile_counts[k] - table.count(DOG_CODE + k))]
    hands = []
    for p in range(n):
        cheese_in_hand = [game.cheese_counts[ck] - table.count(CHEESE_CODE + p * K + ck) for ck in range(K)]
        animals = sum(game.cheese_counts) + received[p] - plays[p] - sum(cheese_in_hand)
        hand = [0, 0, 0] + cheese_in_hand
        for _ in range(animals):
            hand[spare.pop(0)] += 1
        hands.append(hand)
    d = game.new_state(seed=0).to_dict()
    d.update(
        table=table,
        hands=hands,
        pile=spare,
        history=history,
        truncated=len(history) >= game.max_turns and len(history) < game.cells_to_fill,
    )
    return game.state_from_dict(d)


def at(game: Any, r: int, c: int) -> int:
    return r * game.grid_size + c


# ---- components ---------------------------------------------------------------------------


def test_cr1_animal_cards(engine: str) -> None:
    """CR-1: 36 animals, 6 dogs, 12 cats, 18 mice (4 players: none removed)."""
    game = mousehole.load("cheese_rescue", players=4, engine=engine)
    d = game.new_state(seed=11).to_dict()
    counts = [d["pile"].count(k) + sum(h[k] for h in d["hands"]) for k in range(3)]
    assert counts == [6, 12, 18]


def test_cr2_cheese_sets(engine: str) -> None:
    """CR-2: each player holds one set of six cheeses valued 1, 1, 1, 2, 2, 3."""
    game = mousehole.load("cheese_rescue", players=3, engine=engine)
    for hand in game.new_state(seed=2).to_dict()["hands"]:
        assert hand[3:] == [3, 2, 1]
    assert [game.kind_name(k) for k in range(6)] == ["dog", "cat", "mouse", "cheese1", "cheese2", "cheese3"]


@pytest.mark.parametrize("players,used", [(2, True), (3, False), (4, True)])
def test_cr3_cr14_start_card_with_two_or_four(players: int, used: bool, engine: str) -> None:
    """CR-3, CR-14: the start card is on the table with 2 or 4 players, not with 3."""
    game = mousehole.load("cheese_rescue", players=players, engine=engine)
    table = game.new_state(seed=1).to_dict()["table"]
    assert table.count(START) == (1 if used else 0)
    if used:
        assert table[game.center] == START


def test_table_codes_are_the_documented_ones(engine: str) -> None:
    """The named table codes keep the documented numbers (0 empty, 1 start, 2 dog, 3 cat,
    4 mouse, 5 + owner * K + kind for a cheese), and a laid card shows its code."""
    assert (EMPTY, START, DOG_CODE, CAT_CODE, MOUSE_CODE, CHEESE_CODE) == (0, 1, 2, 3, 4, 5)
    game = mousehole.load("cheese_rescue", players=2, engine=engine)
    seen = set()
    for seed in range(6):
        s = game.new_state(seed=seed)
        while not s.is_terminal():
            p, a = s.current_player, int(s.legal_actions()[(seed * 7 + len(s.history)) % len(s.legal_actions())])
            kind, cell = divmod(a, game.num_cells)
            s.apply_action(a)
            code = s.to_dict()["table"][cell]
            want = DOG_CODE + kind if kind < 3 else CHEESE_CODE + p * game.num_cheese_kinds + kind - 3
            assert code == want, (kind, p, code)
            seen.add(min(kind, 3))
    assert seen == {0, 1, 2, 3}, "every kind of card was laid at least once"


# ---- setup --------------------------------------------------------------------------------


@pytest.mark.parametrize("players,expected", [(2, [3, 6, 9]), (3, [4, 9, 14]), (4, [6, 12, 18])])
def test_cr4_removal_by_player_count(players: int, expected: List[int], engine: str) -> None:
    """CR-4: 2 players remove 3/6/9, 3 players 2/3/4, 4 players none; the rest is shuffled."""
    game = mousehole.load("cheese_rescue", players=players, engine=engine)
    piles = []
    for seed in range(3):
        d = game.new_state(seed=seed).to_dict()
        assert [d["pile"].count(k) + sum(h[k] for h in d["hands"]) for k in range(3)] == expected
        piles.append(d["pile"])
    assert piles[0] != piles[1] or piles[1] != piles[2], "the pile is shuffled"


def test_cr5_deal_from_the_top_seat_zero_first(engine: str) -> None:
    """CR-5: cheese set in hand, then two cards each from the top of the pile, seat 0 first."""
    game = mousehole.load("cheese_rescue", players=4, engine=engine)
    d = game.new_state(seed=123).to_dict()
    pile = [0] * 6 + [1] * 12 + [2] * 18
    Rng(123).shuffle(pile)  # the documented generator (docs/rng.md)
    for p in range(4):
        a, b = pile.pop(), pile.pop()
        expect = [0, 0, 0]
        expect[a] += 1
        expect[b] += 1
        assert d["hands"][p][:3] == expect
        assert sum(d["hands"][p]) == 8
    assert d["pile"] == pile


@pytest.mark.parametrize("players,size", [(2, 5), (3, 6), (4, 7)])
def test_cr6_play_area_size(players: int, size: int, engine: str) -> None:
    """CR-6: the play area is 5x5, 6x6 or 7x7; a full game fills exactly that square."""
    game = mousehole.load("cheese_rescue", players=players, engine=engine)
    assert game.square_size == size
    st = mousehole.simulate(game, 1, seed=4)
    from mousehole._simulate import play_random_game

    final = play_random_game(game, 4, 0).to_dict()["table"]
    occupied = [i for i, c in enumerate(final) if c]
    rows = {i // game.grid_size for i in occupied}
    cols = {i % game.grid_size for i in occupied}
    assert len(occupied) == size * size and len(rows) == size and len(cols) == size
    assert st.lengths[0] == size * size - (1 if players != 3 else 0)


# ---- a turn -------------------------------------------------------------------------------


def test_cr7_adjacent_to_a_card_and_clockwise(engine: str) -> None:
    """CR-7: a card must touch a card on the table (the start card counts); seat 0 starts and
    play passes clockwise."""
    game = mousehole.load("cheese_rescue", players=4, engine=engine)
    s = game.new_state(seed=5)
    r0, c0 = game.square_size - 1, game.square_size - 1
    assert sorted(s.legal_cells()) == sorted(
        [at(game, r0 - 1, c0), at(game, r0 + 1, c0), at(game, r0, c0 - 1), at(game, r0, c0 + 1)]
    )
    with pytest.raises(mousehole.IllegalMoveError, match="CR-7"):
        s.apply(CRMove("cheese1", r0 - 2, c0))  # not adjacent
    with pytest.raises(mousehole.IllegalMoveError, match="CR-7"):
        s.apply(CRMove("cheese1", r0, c0))  # occupied by the start card
    seats = []
    while not s.is_terminal():
        seats.append(s.current_player)
        s.apply_action(int(s.legal_actions()[-1]))
    assert seats == [i % 4 for i in range(48)]


def test_cr7_cards_only_from_the_hand(engine: str) -> None:
    """CR-7: the player lays one of their own hand cards."""
    game = mousehole.load("cheese_rescue", players=2, engine=engine)
    s = game.new_state(seed=8)
    hand = s.to_dict()["hands"][0]
    missing = [k for k in range(3) if hand[k] == 0]
    assert missing, "seat 0 holds two animals, so at least one kind is missing"
    cell = s.legal_cells()[0]
    with pytest.raises(mousehole.IllegalMoveError, match="CR-7: seat 0 holds no"):
        s.apply_action(missing[0] * game.num_cells + cell)
    kinds = {int(a) // game.num_cells for a in s.legal_actions()}
    assert kinds == {k for k in range(6) if hand[k]}


def test_cr7_three_players_first_card_anywhere(engine: str) -> None:
    """CR-7: with 3 players the first card goes anywhere; the engine puts it on the centre
    (translation invariance, docs/games/cheese_rescue.md), then the game is as usual."""
    game = mousehole.load("cheese_rescue", players=3, engine=engine)
    s = game.new_state(seed=3)
    assert s.legal_cells() == [game.center]
    assert len(s.legal_actions()) == sum(1 for k in s.to_dict()["hands"][0] if k)
    s.apply_action(int(s.legal_actions()[0]))
    assert len(s.legal_cells()) == 4


def test_cr8_floating_square(engine: str) -> None:
    """CR-8: all cards must fit in an N x N square that floats with the cards."""
    game = mousehole.load("cheese_rescue", players=2, engine=engine)  # 5 x 5
    c = game.square_size - 1  # start card at (4, 4)
    # a row of five cards: the start card and four to its right
    s = crafted(game, {(c, c + 1): DOG, (c, c + 2): CAT, (c, c + 3): MOUSE, (c, c + 4): DOG})
    legal = set(s.legal_cells())
    assert at(game, c, c - 1) not in legal and at(game, c, c + 5) not in legal  # sixth in the row
    assert {at(game, c - 1, c), at(game, c + 1, c + 4)} <= legal  # the square floats vertically
    with pytest.raises(mousehole.IllegalMoveError, match="CR-8"):
        s.apply(CRMove("cheese1", c, c - 1))
    # it floats in both directions: a 2-high block can grow up or down, left or right
    s2 = crafted(game, {(c + 1, c): MOUSE})
    legal2 = set(s2.legal_cells())
    assert {at(game, c - 1, c), at(game, c + 2, c), at(game, c, c - 1), at(game, c, c + 1)} <= legal2


def test_cr8_placement_always_possible_until_full(engine: str) -> None:
    """CR-8: some legal cell always exists until the square is full."""
    for players in (2, 3, 4):
        game = mousehole.load("cheese_rescue", players=players, engine=engine)
        s = game.new_state(seed=players)
        rng = Rng(99)
        while not s.is_terminal():
            cells = s.legal_cells()
            assert cells
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.below(len(legal))]))
        assert not s.truncated


def test_cr9_draw_after_placing(engine: str) -> None:
    """CR-9: after placing, the player draws the top card of the pile while it has cards."""
    game = mousehole.load("cheese_rescue", players=2, engine=engine)
    s = game.new_state(seed=21)
    rng = Rng(3)
    while not s.is_terminal():
        before = s.to_dict()
        p = s.current_player
        legal = s.legal_actions()
        a = int(legal[rng.below(len(legal))])
        s.apply_action(a)
        after = s.to_dict()
        hand = list(before["hands"][p])
        hand[a // game.num_cells] -= 1
        if before["pile"]:
            hand[before["pile"][-1]] += 1
            assert after["pile"] == before["pile"][:-1]
        else:
            assert after["pile"] == []
        assert after["hands"][p] == hand


def test_cr10_cards_never_move(engine: str) -> None:
    """CR-10: cards on the table are never moved or removed during play."""
    game = mousehole.load("cheese_rescue", players=4, engine=engine)
    s = game.new_state(seed=6)
    rng = Rng(6)
    prev = s.to_dict()["table"]
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply_action(int(legal[rng.below(len(legal))]))
        table = s.to_dict()["table"]
        assert all(t == p for t, p in zip(table, prev) if p)
        assert sum(1 for t in table if t) == sum(1 for t in prev if t) + 1
        prev = table


# ---- end and scoring ------------------------------------------------------------------------


def test_cr11_game_ends_when_the_square_is_full(engine: str) -> None:
    """CR-11: the game ends when the square is full: every player has laid 12 cards; hand
    cards are set aside (they do not score)."""
    game = mousehole.load("cheese_rescue", players=4, engine=engine)
    s = game.new_state(seed=10)
    rng = Rng(10)
    while not s.is_terminal():
        assert len(s.history) < 48
        legal = s.legal_actions()
        s.apply_action(int(legal[rng.below(len(legal))]))
    assert len(s.history) == 48 and s.current_player == mousehole.TERMINAL
    per_seat = [0] * 4
    for i in range(len(s.history)):
        per_seat[i % 4] += 1
    assert per_seat == [12] * 4
    d = s.to_dict()
    assert any(sum(h) for h in d["hands"]), "cards are left in hands"
    # the same table with other hands scores the same: hand cards are set aside
    other = s.determinize(0, 1)
    assert other.to_dict()["table"] == d["table"] and other.to_dict()["hands"] != d["hands"]
    assert s.scores() == other.scores()
    with pytest.raises(mousehole.IllegalMoveError, match="over"):
        s.apply_action(0)


def test_cr12_three_removal_steps(engine: str) -> None:
    """CR-12: cats next to a dog go; then mice next to a *remaining* cat; then cheese next to a
    *remaining* mouse. Dogs stay; the start card neither removes nor is removed."""
    game = mousehole.load("cheese_rescue", players=2, engine=engine)
    c = game.square_size - 1  # start card at (4, 4); 5x5 window rows 4..8, cols 2..6 used below
    cells = {
        # chain 1: dog scares cat, so the mouse beside that cat survives and eats the cheese
        (c + 1, c): DOG,
        (c + 1, c + 1): CAT,
        (c + 1, c + 2): MOUSE,
        (c + 2, c + 2): cheese(0, 3),
        # chain 2: a free cat chases its mouse, so the cheese beside that mouse survives
        (c + 3, c + 2): CAT,
        (c + 4, c + 2): MOUSE,
        (c + 4, c + 1): cheese(1, 2),
        # a cheese next to the start card only survives; a dog next to a dog stays
        (c, c - 1): cheese(0, 1),
        (c + 1, c - 1): DOG,
    }
    s = crafted(game, cells)
    # seat 0: cheese3 eaten by the surviving mouse, cheese1 survives -> 1
    # seat 1: cheese2 survives (its mouse was chased) -> 2
    assert s.scores() == [1, 2]
    assert s.cheese_counts() == [1, 1]
    # without the dog the first cat stays, chases the mouse, and the cheese3 survives
    del cells[(c + 1, c)]
    cells[(c + 1, c)] = MOUSE
    s2 = crafted(game, cells)
    # now cat (c+1,c+1) is free: mice (c+1,c+2) and (c+1,c) are chased; the cheese3 is kept
    assert s2.scores() == [4, 2]


def test_cr12_removal_is_sequential_not_simultaneous(engine: str) -> None:
    """CR-12: each step looks only at the cards that survived the previous steps."""
    game = mousehole.load("cheese_rescue", players=2, engine=engine)
    c = game.square_size - 1
    # dog - cat - mouse - cheese in a column: the cat goes (step 1), so the mouse stays
    # (step 2), so the cheese goes (step 3). A simultaneous reading would keep the cheese.
    s = crafted(game, {(c + 1, c): DOG, (c + 2, c): CAT, (c + 3, c): MOUSE, (c + 4, c): cheese(1, 3)})
    assert s.scores() == [0, 0]
    # (the dog right of the start card only lets seat 1 lay its cheese in turn; it touches
    # no cat)
    s2 = crafted(game, {(c + 1, c): CAT, (c + 2, c): MOUSE, (c, c + 1): DOG, (c + 3, c): cheese(1, 3)})
    assert s2.scores() == [0, 3]


def test_cr13_score_tie_break_and_shared_win(engine: str) -> None:
    """CR-13: own cheese values on the table; tie: more cheese cards; still tied: shared."""
    game = mousehole.load("cheese_rescue", players=2, engine=engine)
    s = game.new_state(seed=31)
    rng = Rng(31)
    outcomes = set()
    for g in range(60):
        s = game.new_state(seed=g)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.below(len(legal))]))
        sc, cnt, w = s.scores(), s.cheese_counts(), s.winners()
        key = list(zip(sc, cnt))
        assert w == [p for p in range(2) if key[p] == max(key)]
        if sc[0] == sc[1]:
            outcomes.add("tie-break" if cnt[0] != cnt[1] else "shared")
        if len(w) == 2:
            assert s.returns() == [0.0, 0.0]
        else:
            assert s.returns()[w[0]] == 1.0 and sum(s.returns()) == 0.0
    assert outcomes, "random games hit score ties"
    c = game.square_size - 1
    # crafted: equal values 3 = 3, seat 1 has more cheese cards (1+2 vs 3); seat 0 also lays
    # a dog, so that seat 1 can lay its second cheese in turn
    cells = {(c, c + 1): cheese(0, 3), (c, c - 1): cheese(1, 1), (c + 1, c - 1): cheese(1, 2), (c - 1, c): DOG}
    t = crafted(game, cells)
    assert t.scores() == [3, 3] and t.cheese_counts() == [1, 2]


def test_cr13_winners_of_a_full_crafted_table(engine: str) -> None:
    """CR-13 on a finished game: the tie-break by cheese count decides, and an exact tie is
    a shared win."""
    plenty = {"dog": 20, "cat": 20, "mouse": 20}
    none = {"dog": 0, "cat": 0, "mouse": 0}
    game = mousehole.load("cheese_rescue", players=2, engine=engine, animals=plenty, removal=none)
    N, c = game.square_size, game.square_size - 1
    # Fill the 5x5 square rows c..c+4, cols c-2..c+2 (start card at (c, c)).
    cells: Dict[Tuple[int, int], int] = {}
    layout = [
        [cheese(0, 3), DOG, EMPTY, DOG, cheese(1, 1)],
        [DOG, DOG, DOG, DOG, cheese(1, 2)],
        [DOG, DOG, DOG, DOG, DOG],
        [DOG, DOG, CAT, CAT, CAT],
        [CAT, CAT, CAT, CAT, CAT],
    ]
    for i in range(N):
        for j in range(N):
            if layout[i][j]:
                cells[(c + i, c - 2 + j)] = layout[i][j]
    s = crafted(game, cells)
    assert s.is_terminal()
    assert s.scores() == [3, 3] and s.cheese_counts() == [1, 2]
    assert s.winners() == [1] and s.returns() == [-1.0, 1.0]
    layout[0][4] = cheese(1, 3)
    layout[1][4] = DOG
    cells = {(c + i, c - 2 + j): layout[i][j] for i in range(N) for j in range(N) if layout[i][j]}
    s2 = crafted(game, cells)
    assert s2.scores() == [3, 3] and s2.cheese_counts() == [1, 1]
    assert s2.winners() == [0, 1] and s2.returns() == [0.0, 0.0]


# ---- what each player sees ----------------------------------------------------------------------


def test_cr15_views(engine: str) -> None:
    """CR-15: public table, hand sizes, pile size and cheese in hand; private own animals;
    hidden pile order (and the generator that would predict it)."""
    game = mousehole.load("cheese_rescue", players=4, engine=engine)
    s = game.new_state(seed=12)
    for a in [int(s.legal_actions()[0]) for _ in range(1)]:
        s.apply_action(a)
    full = s.to_dict()
    for p in range(4):
        v = s.to_dict(for_player=p)
        assert v["table"] == full["table"] and v["history"] == full["history"]
        assert v["pile"] is None and v["rng"] is None and v["pile_size"] == len(full["pile"])
        assert v["hand_sizes"] == [sum(h) for h in full["hands"]]
        for q in range(4):
            assert v["hands"][q][3:] == full["hands"][q][3:]  # cheese in hand: public
            assert v["hands"][q][:3] == (full["hands"][q][:3] if q == p else [None] * 3)
        # the observation shows the own animals, not the others'
        obs = s.observation(p)
        own = 4 + game.num_players
        assert [obs[own + k, 0, 0] for k in range(3)] == full["hands"][p][:3]
        # determinization keeps what p sees and re-deals the rest
        seen = set()
        for seed in range(20):
            det = s.determinize(p, seed).to_dict()
            assert det["hands"][p] == full["hands"][p] and det["table"] == full["table"]
            assert [sum(h) for h in det["hands"]] == [sum(h) for h in full["hands"]]
            seen.add(repr((det["pile"], det["hands"])))
        assert len(seen) > 1, "hidden cards are re-dealt"


def test_cr15_observation_is_a_function_of_the_view(engine: str) -> None:
    """CR-15: two states that differ only in hidden cards look the same to a seat."""
    game = mousehole.load("cheese_rescue", players=3, engine=engine)
    s = game.new_state(seed=40)
    s.apply_action(int(s.legal_actions()[0]))
    for p in range(3):
        other = s.determinize(p, 5)
        assert np.array_equal(other.observation(p), s.observation(p))
        assert other.to_dict(for_player=p) == s.to_dict(for_player=p)
    differs = [
        q for q in range(3) if q != 0 and not np.array_equal(s.determinize(0, 9).observation(q), s.observation(q))
    ]
    assert differs, "another seat can tell the re-dealt state apart"


# ---- parameters ---------------------------------------------------------------------------------


def test_default_tables_are_parameters(engine: str) -> None:
    """CR-1, CR-2, CR-4: the DEFAULT tables can be replaced by the caller, and are checked."""
    game = mousehole.load(
        "cheese_rescue",
        players=2,
        engine=engine,
        animals={"dog": 4, "cat": 10, "mouse": 22},
        removal={"dog": 1, "cat": 2, "mouse": 3},
        cheese_values=[1, 2, 2, 4, 4, 5],
    )
    d = game.new_state(seed=1).to_dict()
    assert [d["pile"].count(k) + sum(h[k] for h in d["hands"]) for k in range(3)] == [3, 8, 19]
    assert game.cheese_kind_values == [1, 2, 4, 5] and d["hands"][0][3:] == [1, 2, 2, 1]
    r = mousehole.simulate(game, 5, seed=1)
    assert r.lengths.tolist() == [24] * 5
    for bad in (
        {"animals": {"dog": 1}},
        {"removal": {"dog": 9, "cat": 0, "mouse": 0}},
        {"cheese_values": []},
        {"cheese_values": [0]},
        {"square": 1},
        {"cheese_values": [1, 2, 3, 4, 5, 6]},
        {"animals": {"dog": 0, "cat": 0, "mouse": 0}},
    ):
        with pytest.raises(mousehole.ParameterError):
            mousehole.load("cheese_rescue", players=2, engine=engine, **bad)


def test_max_turns_truncates(engine: str) -> None:
    """max_turns (a parameter of every game, docs/api.md) stops a game early; it is marked truncated."""
    game = mousehole.load("cheese_rescue", players=2, max_turns=10, engine=engine)
    r = mousehole.simulate(game, 3, seed=0)
    assert r.lengths.tolist() == [10] * 3 and r.truncated.all()
    s = game.new_state(seed=0)
    for _ in range(10):
        s.apply_action(int(s.legal_actions()[0]))
    assert s.is_terminal() and s.truncated and s.winners()


# -- notation ----------------------------------------------------------------------------------
#
# Cheese Rescue moves a person can read and type: ``str(move)`` names the card and an
# absolute grid cell (``cat@6,7``), ``game.parse_move`` reads it back, ``state.describe`` and
# ``state.parse_action`` write and read a whole game (CR-7: a card from the hand on a cell).


@pytest.mark.parametrize("players", [2, 3, 4])
def test_parse_move_round_trips_every_action(players: int, engine: str) -> None:
    game = mousehole.load("cheese_rescue", players=players, engine=engine)
    seen = set()
    for a in range(game.num_actions):
        move = game.action_to_move(a)
        text = str(move)
        assert game.parse_move(text) == move
        assert game.move_to_action(game.parse_move(text)) == a
        assert game.parse_move(f"  {move.card} @ {move.row} , {move.col} ") == move  # spaces are allowed
        seen.add(text)
    assert len(seen) == game.num_actions


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "not a Cheese Rescue move"),
        ("cat", "not a Cheese Rescue move"),
        ("cat@6", "not a Cheese Rescue move"),
        ("lion@6,7", "not a Cheese Rescue move"),
        ("cat@-1,7", "not a Cheese Rescue move"),
        ("cheese4@6,7", "CR-1/CR-2: no card 'cheese4'"),
        ("cat@13,0", "CR-8"),
        ("cat@0,13", "CR-8"),
    ],
)
def test_parse_move_refuses_bad_text(text: str, words: str, engine: str) -> None:
    game = mousehole.load("cheese_rescue", players=4, engine=engine)  # a 13 x 13 grid
    with pytest.raises(ValueError, match=words):
        game.parse_move(text)
    with pytest.raises(ValueError, match="cat@6,7"):
        game.parse_move(7)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_written_out_game_reads_back(players: int, engine: str) -> None:
    """A whole game written with ``describe`` is read back by ``parse_action`` on a fresh
    state, step by step, to the same final state; an illegal move is refused by name."""
    game = mousehole.load("cheese_rescue", players=players, engine=engine)

    def the_str_is_the_text(s: Any, a: int, text: str) -> None:
        assert text == str(game.action_to_move(a)) and s.describe(game.action_to_move(a)) == text

    _, written = write_out(game, players, Rng(5), the_str_is_the_text)
    assert len(written) == game.cells_to_fill


def test_parse_action_refuses_a_move_that_is_not_legal_now(engine: str) -> None:
    game = mousehole.load("cheese_rescue", players=2, engine=engine)
    s = game.new_state(seed=8)
    before = s.to_dict()
    c = game.square_size - 1
    with pytest.raises(mousehole.IllegalMoveError, match="CR-7"):
        s.parse_action(f"cheese1@{c - 2},{c}")  # not next to a card
    missing = [k for k in range(3) if before["hands"][0][k] == 0][0]
    with pytest.raises(mousehole.IllegalMoveError, match="CR-7: seat 0 holds no"):
        s.parse_action(str(CRMove(game.kind_name(missing), c - 1, c)))
    with pytest.raises(ValueError, match="not a Cheese Rescue move"):
        s.parse_action("put the cat next to the dog")
    assert s.to_dict() == before


def test_module_parse_move_reads_every_str_and_refuses_non_text(engine: str) -> None:
    """The module's ``parse_move`` (the notation's one home, as in every game) reads
    ``str(move)`` of every action back, as ``CRMove.from_str`` and the game's ``parse_move``
    do, and refuses what is not text or not a move."""
    from mousehole.cheese_rescue import parse_move

    game = mousehole.load("cheese_rescue", players=4, engine=engine)
    for a in range(game.num_actions):
        move = game.action_to_move(a)
        assert parse_move(str(move)) == move == CRMove.from_str(str(move)) == game.parse_move(str(move))
    with pytest.raises(TypeError, match="from a str, not int"):
        parse_move(7)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a Cheese Rescue move"):
        parse_move("cat@6")


def test_move_to_action_refuses_a_bool_or_a_float_for_a_cell() -> None:
    """CR-8: a move's row and column are ints; a bool read as 1 and a float gave a float
    action before issue 40's one integer check."""
    g = mousehole.load("cheese_rescue", engine="python")
    good = g.move_to_action(CRMove("cat", 1, 2))
    assert type(good) is int
    for move in (CRMove("cat", True, 2), CRMove("cat", 1, False), CRMove("cat", 1.0, 2), CRMove("cat", 1, 2.0)):
        with pytest.raises(mousehole.IllegalMoveError, match=r"CR-8: cell \("):
            g.move_to_action(move)


# -- observation -------------------------------------------------------------------------------
#
# Cheese Rescue observations and legal-action masks written by the compiled core.
#
# The compiled engine writes ``observation(p)`` and ``legal_action_mask()`` straight from its
# C struct; they must equal the reference engine's, bit for bit, at every step (CR-15: what a
# seat sees; CR-7/CR-8: the legal actions), with or without a caller's ``out`` array. (Bad
# seats and bad ``out`` arrays: every game's, ``tests/test_observation.py``.)


#: player counts and parameter sets: the defaults, and cheese values whose ratios to the
#: highest one are not exact in float32 (2/7, 3/7), five cheese kinds, another square.
CONFIGS: List[Dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 2, "cheese_values": [2, 3, 7]},
    {"players": 3, "cheese_values": [1, 2, 3, 5, 7]},
    {"players": 4, "cheese_values": [2, 3, 7], "max_turns": 30},
    {"players": 4, "square": 5},
]


CONFIG_IDS = ["-".join(f"{k}={v}" for k, v in sorted(c.items())) for c in CONFIGS]


def _bits(a: Any) -> Any:
    """The raw bits of a float32 array (equal bits: no -0.0 / 0.0 or NaN slack)."""
    return np.ascontiguousarray(a).view(np.uint32)


def _walk(game: Any, seed: int) -> Iterator[Any]:
    """The states of one seeded random game, the terminal one included."""
    state = game.new_state(seed)
    rng = Rng(derive(seed, 31))
    while True:
        yield state
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply_action(int(legal[rng.below(len(legal))]))


def _mask_of(game: Any, legal: Any) -> Any:
    mask = np.zeros(game.num_actions, dtype=np.bool_)
    mask[legal] = True
    return mask


@pytest.mark.differential
@pytest.mark.parametrize("params", CONFIGS, ids=CONFIG_IDS)
def test_compiled_observation_and_mask_equal_the_reference(params: Dict[str, Any]) -> None:
    """CR-15 / CR-7 / CR-8: at every step of seeded random games, every seat's compiled
    observation (fresh, or into a dirty ``out``) has the reference's bits, and the compiled
    mask (fresh, or into a dirty ``out``) is the reference's and marks exactly the legal
    actions."""
    gc = mousehole.load("cheese_rescue", engine="compiled", **params)
    gp = mousehole.load("cheese_rescue", engine="python", **params)
    n = gc.num_players
    obuf = np.empty(gc.observation_shape, dtype=np.float32)
    mbuf = np.empty(gc.num_actions, dtype=np.bool_)
    steps = 0
    for seed in range(scale(6)):
        for c in _walk(gc, 1000 + seed):
            ref = gp.state_from_dict(c.to_dict())
            before = c.to_dict()
            for p in range(n):
                want = ref.observation(p)
                got = c.observation(p)
                assert got.dtype == np.float32 and got.shape == gc.observation_shape
                assert got.flags.c_contiguous and got.flags.writeable
                assert np.array_equal(_bits(got), _bits(want)), f"seed {seed}, step {len(c.history)}, seat {p}"
                obuf.fill(np.nan)  # whatever was in out is overwritten, zeros included
                assert c.observation(p, out=obuf) is obuf
                assert np.array_equal(_bits(obuf), _bits(want)), f"seed {seed}, step {len(c.history)}, seat {p} (out=)"
            want_mask = ref.legal_action_mask()
            assert np.array_equal(want_mask, _mask_of(gp, ref.legal_actions()))
            got_mask = c.legal_action_mask()
            assert got_mask.dtype == np.bool_ and got_mask.shape == (gc.num_actions,)
            assert np.array_equal(got_mask, want_mask)
            assert np.array_equal(np.flatnonzero(got_mask), c.legal_actions())
            mbuf.fill(True)
            assert c.legal_action_mask(out=mbuf) is mbuf
            assert np.array_equal(mbuf, want_mask)
            assert c.to_dict() == before, "observation and mask leave the state unchanged"
            steps += 1
    assert steps > scale(6) * 10


@pytest.mark.differential
def test_errors_are_the_reference_errors() -> None:
    """A bad seat or a bad ``out`` gives the same exception type and message on both engines
    (the shared checks ``check_seat`` / ``check_out``)."""
    gc = mousehole.load("cheese_rescue", players=3, engine="compiled")
    gp = mousehole.load("cheese_rescue", players=3, engine="python")
    c, r = gc.new_state(4), gp.new_state(4)
    shape = gc.observation_shape
    bad_seats: List[Any] = ["1", 1.0, None, -1, 3, 2**70, -(2**70), np.int64(3), np.int64(-1), np.uint8(7)]
    bad_obs_out: List[Any] = [
        [0.0] * 4,
        np.zeros(shape, dtype=np.float64),
        np.zeros(shape, dtype=">f4"),
        np.zeros(shape[1:], dtype=np.float32),
        np.zeros((shape[0] + 1,) + shape[1:], dtype=np.float32),
        np.zeros(shape, dtype=np.float32, order="F"),
        np.zeros(shape[:2] + (2 * shape[2],), dtype=np.float32)[:, :, ::2],
        np.frombuffer(bytes(4 * int(np.prod(shape))), dtype=np.float32).reshape(shape),
    ]
    bad_mask_out: List[Any] = [
        (True,) * gc.num_actions,
        np.zeros(gc.num_actions, dtype=np.uint8),
        np.zeros(gc.num_actions + 1, dtype=np.bool_),
        np.zeros((1, gc.num_actions), dtype=np.bool_),
        np.zeros(2 * gc.num_actions, dtype=np.bool_)[::2],
        np.frombuffer(bytes(gc.num_actions), dtype=np.bool_),
    ]
    calls: List[Tuple[str, str, Any]] = []
    calls += [(f"seat {x!r}", "seat", x) for x in bad_seats]
    calls += [(f"obs out #{i}", "obs", o) for i, o in enumerate(bad_obs_out)]
    calls += [(f"mask out #{i}", "mask", o) for i, o in enumerate(bad_mask_out)]
    for what, kind, arg in calls:
        errors = []
        for s in (c, r):
            with pytest.raises((TypeError, ValueError)) as info:
                if kind == "seat":
                    s.observation(arg)
                elif kind == "obs":
                    s.observation(0, out=arg)
                else:
                    s.legal_action_mask(out=arg)
            errors.append((type(info.value), str(info.value)))
        assert errors[0] == errors[1], what


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observation_layout(engine: str, players: int) -> None:
    """The documented layout, plane by plane, computed here from the state dict: table
    planes, cheese of each relative seat scaled by the highest value (CR-2), own animals,
    animal and cheese counts per hand (public, CR-15), pile size (CR-9), seat to play."""
    g = mousehole.load("cheese_rescue", players=players, engine=engine)
    n, G, K = g.num_players, g.grid_size, g.num_cheese_kinds
    top = max(g.cheese_kind_values)
    for seed in range(scale(2)):
        for s in _walk(g, 500 + seed):
            d = s.to_dict()
            table = np.array(d["table"]).reshape(G, G)
            for p in range(n):
                obs = s.observation(p)
                assert obs.shape == (4 + n + 3 + n + n * K + 1 + n, G, G)
                for plane, code in enumerate((START, DOG_CODE, CAT_CODE, MOUSE_CODE)):
                    assert np.array_equal(obs[plane], (table == code).astype(np.float32))
                for k in range(n):
                    q = (p + k) % n
                    want = np.zeros((G, G), dtype=np.float32)
                    for ck in range(K):
                        want[table == CHEESE_CODE + q * K + ck] = np.float32(g.cheese_kind_values[ck] / top)
                    assert np.array_equal(obs[4 + k], want)
                c = 4 + n
                for k in range(3):
                    assert (obs[c + k] == d["hands"][p][k]).all()
                c += 3
                for k in range(n):
                    assert (obs[c + k] == sum(d["hands"][(p + k) % n][:3])).all()
                c += n
                for k in range(n):
                    for ck in range(K):
                        assert (obs[c + k * K + ck] == d["hands"][(p + k) % n][3 + ck]).all()
                c += n * K
                assert (obs[c] == len(d["pile"])).all()
                c += 1
                cur = s.current_player
                for k in range(n):
                    on = cur != TERMINAL and (cur - p) % n == k
                    assert (obs[c + k] == (1.0 if on else 0.0)).all()


def test_mask_is_the_legal_actions(engine: str) -> None:
    """CR-7, CR-8: the mask is True exactly at ``legal_actions()``, at every step and at the
    end (all False), fresh or written into ``out``."""
    g = mousehole.load("cheese_rescue", players=4, engine=engine)
    buf = np.ones(g.num_actions, dtype=np.bool_)
    for seed in range(scale(3)):
        for s in _walk(g, 700 + seed):
            want = _mask_of(g, s.legal_actions())
            assert np.array_equal(s.legal_action_mask(), want)
            buf.fill(True)
            assert s.legal_action_mask(out=buf) is buf
            assert np.array_equal(buf, want)
            if s.is_terminal():
                assert not buf.any()


def test_each_seat_gets_its_own_observation(engine: str) -> None:
    """CR-15: ``observation(p)`` is seat ``p``'s (its own dogs, cats and mice in hand, the
    seats relative to it): two seats of one state get different planes. (Which seats and
    ``out`` arrays are refused: every game's, ``tests/test_observation.py``.)"""
    g = mousehole.load("cheese_rescue", players=3, engine=engine)
    s = g.new_state(2)
    s.apply_action(int(s.legal_actions()[-1]))
    assert not np.array_equal(s.observation(0), s.observation(1))


# -- the C game interface (mh_game_t) ----------------------------------------------------------
#
# Cheese Rescue's C-level interface (``mh_game_t``) and its compiled determinization.
#
# What the generic conformance test (test_cinterface.py) cannot check for this game:
#
# * the C determinization (``determinize`` of the interface, and the compiled
#   ``state.determinize``) equals, struct for struct, the reference path: the Python
#   ``CheeseRescue._determinize`` of seat p's view, loaded into the compiled engine; and equals
#   the reference engine's state dict for dict;
# * CR-15: it keeps everything p may see (table, history, own hand, the cheese in every hand,
#   every hand's size, the pile's size), deals only animals that are hidden from p, changes
#   what p cannot see (that it depends on p's view alone: every game's,
#   ``tests/test_cinterface.py``);
# * structs are byte-canonical: a state reached by play and the same state loaded from its
#   dict are the same bytes (unused pile and history slots are zero), so that search can copy
#   and compare structs;
# * ``returns`` of the interface at a truncated end (max_turns), and the bound ``max_legal``;
# * (seeds and seats of ``determinize``, read as the reference reads them: every game's,
#   ``tests/test_information.py``.)
#
# Every test of this section is marked pytest.mark.differential (it needs the compiled engine).


PLAYERS = [2, 3, 4]


def _states(game: Any, seed: int) -> Iterator[Any]:
    """Every state of one seeded random game (copies), the start and the end included."""
    return state_clones(game, seed, Rng(seed + 7))


def _reference_determinization(game: Any, state: Any, p: int, seed: int) -> Any:
    """The Python path: ``CheeseRescue._determinize`` of p's view, validated and loaded into
    ``game``'s engine (what ``StateAPI.determinize`` does on the reference engine)."""
    return game.determinize_view(state.to_dict(for_player=p), seed)


def _animals(d: Dict[str, Any]) -> List[int]:
    """Dogs, cats, mice anywhere: table, hands and pile (CR-1, CR-4)."""
    return [d["table"].count(2 + k) + sum(h[k] for h in d["hands"]) + d["pile"].count(k) for k in range(3)]


@pytest.mark.differential
@pytest.mark.parametrize("players", PLAYERS)
def test_c_determinize_is_the_python_determinization_of_the_view(players: int) -> None:
    """CR-15: the interface's determinize, the compiled ``state.determinize`` and the Python
    ``_determinize`` of the view (on both engines) give the same state, byte for byte."""
    game = mousehole.load("cheese_rescue", players=players, engine="compiled")
    python = mousehole.load("cheese_rescue", players=players, engine="python")
    checked = 0
    for i, state in enumerate(_states(game, 40 + players)):
        if i % 3:
            continue
        for p in range(players):
            seed = 1000 * i + p
            c = cgame(state)
            c.determinize(p, seed)
            via_python = _reference_determinization(game, state, p, seed)
            assert c.same_struct(cgame(via_python)), (i, p)
            assert c.same_struct(cgame(state.determinize(p, seed))), (i, p)
            ref = _reference_determinization(python, python.state_from_dict(state.to_dict()), p, seed)
            assert ref.to_dict() == via_python.to_dict()
            checked += 1
    assert checked >= players * 8


@pytest.mark.differential
@pytest.mark.parametrize("players", PLAYERS)
def test_determinize_keeps_what_the_seat_sees_and_redeals_the_rest(players: int) -> None:
    """CR-15: p's view is unchanged (table, history, own hand, cheese in every hand, hand
    sizes, pile size), every animal is still somewhere exactly once (CR-1, CR-4), the other
    seats' animals and the pile are re-dealt (they differ for some seeds), the generator is
    re-seeded, and the original state is left alone."""
    game = mousehole.load("cheese_rescue", players=players, engine="compiled")
    state = list(_states(game, 7))[players * 3]  # some turns in: hands and pile hold animals
    before = state.to_dict()
    totals = _animals(before)
    for p in range(players):
        view = state.to_dict(for_player=p)
        hidden_seen = set()
        for seed in range(40):
            det = state.determinize(p, seed)
            d = det.to_dict()
            assert det.to_dict(for_player=p) == view
            assert d["table"] == before["table"] and d["history"] == before["history"]
            assert d["hands"][p] == before["hands"][p]
            assert _animals(d) == totals
            assert d["rng"] != before["rng"]
            assert game.state_from_dict(d).to_dict() == d  # a valid, playable state
            hidden_seen.add(repr(([h[:3] for q, h in enumerate(d["hands"]) if q != p], d["pile"])))
        assert len(hidden_seen) > 1, "determinize never changed what the seat cannot see"
    assert state.to_dict() == before


@pytest.mark.differential
@pytest.mark.parametrize("players", PLAYERS)
def test_structs_are_canonical(players: int) -> None:
    """A state reached by play, the same state loaded from its dict and a fresh reset are
    the same bytes: unused pile slots (drawn cards) and history slots are zero."""
    game = mousehole.load("cheese_rescue", players=players, engine="compiled")
    for state in _states(game, 3):
        loaded = game.state_from_dict(state.to_dict())
        assert cgame(state).same_struct(cgame(loaded))
    end = cgame(state)
    end.reset(3)  # reset over a finished game: its history and pile are cleared
    assert end.same_struct(cgame(game.new_state(3)))


@pytest.mark.differential
def test_returns_at_a_truncated_end() -> None:
    """``returns`` of the interface equals ``state.returns()`` when max_turns ends the game
    before the square is full (CR-13 on the table as it is), and before the end (all 0)."""
    game = mousehole.load("cheese_rescue", players=4, max_turns=9, engine="compiled")
    seen = set()
    for seed in range(30):
        for state in _states(game, seed):
            c = cgame(state)
            assert c.returns() == state.returns()
            if state.is_terminal():
                assert state.truncated
                seen.add(tuple(state.returns()))
    assert len(seen) > 1  # several outcomes, not one constant


@pytest.mark.differential
@pytest.mark.parametrize("players", PLAYERS)
def test_max_legal_bounds_the_legal_cells(players: int) -> None:
    """CR-7/CR-8: the legal cells lie in the bounding box of the table or on one of its
    sides while that side is shorter than N: at most N * N + 2N cells, which ``dims`` uses."""
    game = mousehole.load("cheese_rescue", players=players, engine="compiled")
    d = cgame(game.new_state(0)).dims()
    bound = min(game.square_size * game.square_size + 2 * game.square_size, game.num_cells)
    assert d["max_legal"] == game.num_kinds * bound
    most = 0
    for seed in range(20):
        for state in _states(game, seed):
            most = max(most, len(state.legal_cells()))
    assert 0 < most <= bound


@pytest.mark.differential
def test_interface_capsules_and_call_fast_paths() -> None:
    """``_c_game``/``_c_state`` name this game's interface and this state's struct; an
    action given as numpy int64 (what ``legal_actions`` holds) plays as the same int; Cheese
    Rescue has no chance node."""
    game = mousehole.load("cheese_rescue", players=3, engine="compiled")
    a, b = game.new_state(8), game.new_state(8)
    c = cgame(a)
    assert c.name == "cheese_rescue"
    assert c.size == cgame(b).size
    rng = Rng(2)
    while not a.is_terminal():
        assert a.is_chance_node() is False
        legal = a.legal_actions()
        x = legal[rng.below(len(legal))]
        a.apply_action(x)  # numpy int64
        b.apply_action(int(x))
        assert a.to_dict() == b.to_dict()
    assert a.is_chance_node() is False
    with pytest.raises(mousehole.IllegalMoveError):
        a.apply_action(np.int64(0))


@pytest.mark.differential
@pytest.mark.parametrize("players", PLAYERS)
def test_legal_actions_match_the_reference(players: int) -> None:
    """The compiled ``legal_actions`` (written straight into the array) equals the
    reference's at every step: sorted, kind-major, only kinds held (CR-7, CR-8)."""
    for c, r in reference_pairs("cheese_rescue", players, 21):
        la, lr = c.legal_actions(), r.legal_actions()
        assert la.dtype == np.int64 and la.flags.c_contiguous and la.flags.owndata
        np.testing.assert_array_equal(la, lr)
