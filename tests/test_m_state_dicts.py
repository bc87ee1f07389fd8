"""Only playable, consistent M states load (``game.state_from_dict``): every broken field of
a state dict is refused with a StateError naming the key or the rule, and every state that
loads behaves the same on both engines."""

from __future__ import annotations

import copy
from typing import Any, Callable, Dict, List, Tuple

import pytest

import mousehole
from mousehole import StateError
from mousehole._rng import Rng
from test_m_rules import Deck, _cross, _row_of_four, build, place

Dict_ = Dict[str, Any]


def _phases(engine: str) -> Dict[str, Dict_]:
    """Full dicts of a seeded 3-player random game: a play state with a past, a take state
    after at least one take, the final state; and a crafted row choice with its placement
    in the log."""
    g = mousehole.load("m", players=3, engine=engine)
    out: Dict[str, Dict_] = {}
    seed = 0
    while len(out) < 3:
        s = g.new_state(seed)
        rng = Rng(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.below(len(legal))]))
            d = s.to_dict()
            if d["phase"] == "play" and len(d["history"]) > 20 and d["pile"] and "play" not in out:
                out["play"] = d
            if d["phase"] == "take" and d["log"][-1][1] >= 0 and d["history"][-1] >= g.A_TAKE and "take" not in out:
                out["take"] = d
        out.setdefault("over", s.to_dict())
        seed += 1
    deck = Deck()
    card = deck("blue", 30, "square")
    s = build(engine, _cross(deck), [[card], [], []])
    s.apply_action(place(s, card, 4, 4))
    out["choose"] = s.to_dict()
    assert out["choose"]["phase"] == "choose"
    return out


def _set(key: str, value: Any) -> Callable[[Dict_], None]:
    def f(d: Dict_) -> None:
        d[key] = value

    return f


def _other(d: Dict_) -> int:
    return int((d["current"] + 1) % d["params"]["players"])


CASES: List[Tuple[str, str, Callable[[Dict_], None], str]] = [
    # play phase: types of every scalar, then consistency
    ("play", "current bool", _set("current", True), "current must be an int"),
    ("play", "current float", _set("current", 1.0), "current must be an int"),
    ("play", "current out of range", _set("current", 3), "current must be a seat 0..2"),
    ("play", "placer bool", _set("placer", False), "placer must be -1 or a seat"),
    ("play", "placer set", _set("placer", 0), "placer must be -1 in the play phase"),
    ("play", "passes bool", _set("passes", True), r"passes \(M-18\) must be an int"),
    ("play", "passes with a pile", _set("passes", 1), "M-18: passes are only counted while the draw pile is empty"),
    ("play", "phase case", _set("phase", "PLAY"), "phase must be one of"),
    ("play", "phase list", _set("phase", ["play"]), "phase must be one of"),
    ("play", "end while playing", _set("end", "M-17"), "end must be None while the game goes on"),
    ("play", "end unknown", _set("end", "M-99"), "end must be None or one of"),
    ("play", "truncated int", _set("truncated", 0), "truncated must be a bool"),
    ("play", "last floats", _set("last", [0.0, 1.0]), "last must hold ints"),
    ("play", "last bools", _set("last", [True, 1]), "last must hold ints"),
    (
        "play",
        "scoring row outside a scoring",
        lambda d: d.update(scoring_row=[d["table"][0][:2]]),
        "scoring_row must be empty outside a scoring",
    ),
    ("play", "over without terminal seat", _set("phase", "over"), "current must be TERMINAL"),
    ("play", "chips bool", lambda d: d["chips"].__setitem__(0, True), "chips must hold ints"),
    (
        "play",
        "table float",
        lambda d: d["table"][0].__setitem__(0, float(d["table"][0][0])),
        "table cell must hold ints",
    ),
    ("play", "history bool", lambda d: d["history"].__setitem__(0, True), "history must hold ints"),
    ("play", "seat to move against the log", lambda d: d.update(current=_other(d)), "M-11: after the turn of seat"),
    (
        "play",
        "last against the log",
        lambda d: d.update(last=[d["last"][0] + 9, d["last"][1]]),
        "last must be the cell of the latest placement",
    ),
    # the log
    ("play", "log too short", lambda d: d["log"].pop(), "log must hold one"),
    ("play", "log not a list", _set("log", None), "log must hold one"),
    ("play", "log entry short", lambda d: d["log"].__setitem__(0, d["log"][0][:3]), r"log\[0\] must be"),
    ("play", "log bool", lambda d: d["log"][0].__setitem__(0, True), r"log\[0\] must hold ints"),
    ("play", "log seat", lambda d: d["log"][0].__setitem__(0, 3), r"log\[0\]: seat 3 is not a seat"),
    (
        "play",
        "log card range",
        lambda d: d["log"][_first(d, "place")].__setitem__(1, 90),
        r"a placement \(history\[\d+\] = \d+\) names its card 0..89",
    ),
    ("play", "log placement without card", lambda d: d["log"][_first(d, "place")].__setitem__(1, -1), "names its card"),
    (
        "play",
        "log pass with a card",
        lambda d: d["log"][_first(d, "pass")].__setitem__(1, 5),
        r"is logged as \[seat, -1, 0, 0\]",
    ),
    (
        "play",
        "history kind against the log",
        lambda d: d["history"].__setitem__(_first(d, "pass"), 257),
        r"an exchange .* is logged as \[seat, -2, 0, 0\]",
    ),
    (
        "play",
        "log cell far from the table",
        lambda d: d["log"][_first(d, "place")].__setitem__(2, 2**14 + 5),
        "lies more than 16384 rows or columns from the table",
    ),
    (
        "play",
        "laid card back in a hand",
        lambda d: _swap_laid_card_into_hand(d),
        "was laid, so it is on the table or taken",
    ),
    # take phase
    (
        "take",
        "row cut to one card",
        lambda d: d.update(scoring_row=d["scoring_row"][:1]),
        "M-14: the scoring row has no legal take",
    ),
    ("take", "no placer", _set("placer", -1), "the take phase needs the placer"),
    ("take", "taker out of turn", lambda d: d.update(current=_other(d)), "M-13: the takers go around"),
    ("take", "passes during a scoring", _set("passes", 1), "passes must be 0 during a scoring"),
    ("take", "no last", _set("last", None), "needs the cell of the placed card"),
    (
        "take",
        "row off the line",
        lambda d: d.update(last=[d["last"][0] + 1, d["last"][1] + 1]),
        "M-12: the scoring row must lie on a line through the placed card",
    ),
    (
        "take",
        "row float",
        lambda d: d["scoring_row"].__setitem__(0, [float(x) for x in d["scoring_row"][0]]),
        "scoring_row cell must hold ints",
    ),
    ("take", "row cell without a card", lambda d: d["scoring_row"].__setitem__(0, [10**9, 0]), "holds no card"),
    # row choice
    ("choose", "chooser is not the placer", _set("current", 1), "M-12: the placer chooses"),
    (
        "choose",
        "row already chosen",
        lambda d: d.update(scoring_row=[[4, c] for c in range(5)]),
        "M-12: the scoring row is empty until",
    ),
    ("choose", "lines do not qualify", _set("last", [0, 4]), "M-12: a row choice needs both lines"),
    (
        "choose",
        "placement missing from the log",
        lambda d: d.update(history=[256], log=[[0, -1, 0, 0]]),
        "M-12: a scoring follows a placement",
    ),
    # the end
    ("over", "seat to move after the end", _set("current", 0), "current must be TERMINAL"),
    ("over", "no reason", _set("end", None), "needs its reason"),
    ("over", "truncation flag", _set("end", "max_turns"), "truncated must be a bool, True exactly when"),
    (
        "over",
        "short truncated game",
        lambda d: d.update(end="max_turns", truncated=True),
        "max_turns: a truncated game has exactly max_turns actions",
    ),
    (
        "over",
        "M-18 without the passes",
        lambda d: d.update(end="M-18", pile=[], pile_putter=[], removed=sorted(d["removed"] + d["pile"]), passes=0),
        "M-18 ends the game after 3 successive passes",
    ),
    ("over", "placer after the end", _set("placer", 0), "placer must be -1 once the game is over"),
]


def _first(d: Dict_, kind: str) -> int:
    g = mousehole.load("m", players=d["params"]["players"], engine="python")
    return next(i for i, a in enumerate(d["history"]) if g._action_kind(a) == kind)


def _swap_laid_card_into_hand(d: Dict_) -> None:
    """Swap a laid card (on the table) with a card of a hand: still every card once."""
    i = _first(d, "place")
    card = d["log"][i][1]
    h = next(h for h in d["hands"] if h)
    where = next((e for e in d["table"] if e[2] == card), None)
    if where is None:
        t = next(t for t in d["taken"] if card in t)
        t[t.index(card)] = h[0]
    else:
        where[2] = h[0]
    h[0] = card
    h.sort()


@pytest.mark.parametrize("phase,what,mutate,message", CASES, ids=[c[1] for c in CASES])
def test_broken_dicts_are_refused(
    engine: str, phase: str, what: str, mutate: Callable[[Dict_], None], message: str
) -> None:
    base = _phases(engine)[phase]
    game = mousehole.load("m", players=base["params"]["players"], engine=engine)
    assert game.state_from_dict(copy.deepcopy(base)).to_dict() == base  # the base loads
    d = copy.deepcopy(base)
    mutate(d)
    with pytest.raises(StateError, match=message):
        game.state_from_dict(d)


def test_issue_example_take_phase_cut_to_one_card(engine: str) -> None:
    """Issue 9: a take phase whose scoring row was cut to one card has no legal take
    (M-13 a): not terminal, a seat to move, no action. Refused, naming M-14."""
    d = Deck()
    card = d("blue", 20, "square")
    s = build(engine, _row_of_four(d), [[card], []])
    s.apply_action(place(s, card, 0, 4))
    full = s.to_dict()
    assert full["phase"] == "take" and len(full["scoring_row"]) == 5
    full["scoring_row"] = full["scoring_row"][:1]
    with pytest.raises(StateError, match="M-14"):
        s.game.state_from_dict(full)


def test_m17_play_phase_needs_a_card_that_fits(engine: str) -> None:
    """M-17: a game in its play phase has a card in play that fits (else it is over); a
    game that ended by M-17 has none."""
    d = Deck()
    base, unfit, fits = d("blue", 10, "square"), d("pink", 30, "eight"), d("green", 10, "circle")
    with pytest.raises(StateError, match="M-17: no card in a hand or in the draw pile fits"):
        build(engine, {(0, 0): base}, [[unfit], []], pile=[])
    build(engine, {(0, 0): base}, [[unfit], [fits]], pile=[])  # seat 1's card fits
    build(engine, {(0, 0): base}, [[unfit], []], pile=[fits])  # a card in the pile fits
    build(engine, {(0, 0): base}, [[unfit], []], pile=[], phase="over", end="M-17")
    with pytest.raises(StateError, match="M-17: the game ended because no card fits, yet"):
        build(engine, {(0, 0): base}, [[unfit], []], pile=[fits], phase="over", end="M-17")


def test_m16_end_needs_an_empty_pile(engine: str) -> None:
    d = Deck()
    base = d("blue", 10, "square")
    build(engine, {(0, 0): base}, [[], []], pile=[], phase="over", end="M-16")
    with pytest.raises(StateError, match="M-16"):
        build(engine, {(0, 0): base}, [[], []], phase="over", end="M-16")


@pytest.mark.differential
def test_loaded_states_play_alike_on_both_engines() -> None:
    """Every dict of the cases above that still loads after a small change (another hand
    slot in a history placement, another seat in a log entry) gives the same game on both
    engines, and the compiled engine survives whatever the validation accepts."""
    bases = _phases("python")
    loaded = 0
    for name, d in bases.items():
        n = d["params"]["players"]
        for i in range(len(d["history"])):
            for change in ("seat", "slot"):
                x = copy.deepcopy(d)
                if change == "seat":
                    x["log"][i][0] = (x["log"][i][0] + 1) % n
                elif x["history"][i] < 64 * 4:
                    x["history"][i] = (x["history"][i] + 64) % 256
                results: List[Tuple[str, Any]] = []
                for engine in ("python", "compiled"):
                    game = mousehole.load("m", players=n, engine=engine)
                    try:
                        s = game.state_from_dict(x)
                    except StateError as e:
                        results.append(("refused", str(e)))
                        continue
                    trace = [s.to_dict()]
                    for _ in range(4):
                        if s.is_terminal():
                            break
                        s.apply_action(int(s.legal_actions()[-1]))
                        trace.append(s.to_dict())
                    results.append(("loaded", trace))
                assert results[0] == results[1], (name, i, change)
                loaded += results[0][0] == "loaded"
    assert loaded > 10, loaded


def test_m18_passes_agree_with_the_log(engine: str) -> None:
    """M-18: with the pile empty, ``passes`` counts the passes since the last other action."""
    d = Deck()
    base = d("blue", 10, "square")
    hands = [[d("blue", 20, "square")], [d("blue", 30, "square")], [d("blue", 40, "square")]]
    s = build(engine, {(0, 0): base}, hands, pile=[])
    s.apply_action(s.parse_action("pass"))
    s.apply_action(s.parse_action("pass"))
    full = s.to_dict()
    assert full["passes"] == 2
    for wrong, message in ((1, "at least 2"), (0, "at least 2")):
        with pytest.raises(StateError, match=message):
            s.game.state_from_dict(dict(full, passes=wrong))
    s.game.state_from_dict(dict(full, passes=2))
    t = build(engine, {(0, 0): base}, hands, pile=[])
    t.apply_action(t.parse_action("place blue 20 square at 0,1"))
    t.apply_action(t.parse_action("pass"))
    full = t.to_dict()
    assert full["passes"] == 1
    with pytest.raises(
        StateError,
        match=r"M-18: the log ends with 1 pass\(es\) with an empty pile, so passes "
        "must be 1",
    ):
        t.game.state_from_dict(dict(full, passes=2))
