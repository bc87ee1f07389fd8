"""Mistakes a type checker must catch in a user's script (never run).

tests/test_typing.py checks that ``mypy --strict`` and basedpyright (strict) report errors
exactly on the lines marked ``# error:``, of the kinds listed after the colon (the mypy error
code, then the pyright rules: pyright also calls the result of a missing attribute of
unknown type), and nowhere else; and that ``reveal_type`` names each game's public State
type (``# reveal:``).
"""
from __future__ import annotations

import mousehole
from mousehole.cheese_rescue import CRMove

state = mousehole.load("m").new_state()
reveal_type(state)  # reveal: mousehole.m.MState
reveal_type(mousehole.load("cheese_rescue").new_state(seed=1))  # reveal: mousehole.cheese_rescue.CheeseRescueState
reveal_type(mousehole.load("kasimir").new_state())  # reveal: mousehole.kasimir.KasimirState
reveal_type(mousehole.load("maus_au_chocolat").new_state())  # reveal: mousehole.maus_au_chocolat.MausAuChocolatState
reveal_type(state.legal_moves())  # reveal: list[mousehole.m.MMove]

state.legal_actionz()  # error: attr-defined reportAttributeAccessIssue reportUnknownMemberType
state.apply_action("x")  # error: arg-type reportArgumentType
state.apply(CRMove("cat", 6, 7))  # error: arg-type reportArgumentType
