"""Stub of the compiled Cheese Rescue engine (cengine/mousehole/_cheese_rescue.pyx)."""

from typing import List

from typing_extensions import disjoint_base

from mousehole._statecore import _GameCore

@disjoint_base
class CheeseRescueCore(_GameCore):
    def legal_cells(self) -> List[int]: ...
    def cheese_counts(self) -> List[int]: ...
