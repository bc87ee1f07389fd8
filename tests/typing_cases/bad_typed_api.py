"""Mistakes a type checker must catch in a user's script (never run).

tests/test_typing.py checks that ``mypy --strict`` and basedpyright (strict) report errors
exactly on the lines marked ``# error:``, of the kinds listed after the colon (the mypy error
code, then the pyright rules: pyright also calls the result of a missing attribute of
unknown type), and nowhere else; and that ``reveal_type`` names the public types
(``# reveal:``). The test appends a ``reveal_type`` of every registered game's State type
(from the registry), so a new game needs no line here.
"""

from __future__ import annotations

import mousehole
from mousehole.cheese_rescue import CRMove

state = mousehole.load("m").new_state()
reveal_type(state)  # reveal: mousehole.m.MState
reveal_type(state.legal_moves())  # reveal: list[mousehole.m.MMove]

state.legal_actionz()  # error: attr-defined reportAttributeAccessIssue reportUnknownMemberType
state.apply_action("x")  # error: arg-type reportArgumentType
state.apply(CRMove("cat", 6, 7))  # error: arg-type reportArgumentType
