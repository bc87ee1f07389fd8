"""Stub of the compiled Kater Kasimir engine (cengine/mousehole/_kasimir.pyx)."""

from typing import List, SupportsIndex

from typing_extensions import disjoint_base

from mousehole._statecore import _GameCore

@disjoint_base
class KasimirCore(_GameCore):
    def free_starts(self, p: SupportsIndex) -> List[int]: ...
    def on_the_way(self) -> int: ...
