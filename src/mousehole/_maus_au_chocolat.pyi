"""Stub of the compiled Maus au Chocolat engine (cengine/mousehole/_maus_au_chocolat.pyx)."""

from typing import Any, Dict, List, SupportsIndex

from typing_extensions import disjoint_base

from mousehole._statecore import _GameCore

# the C functions of the .pxd that other Cython code may cimport (Cython's export table)
__pyx_capi__: Dict[str, Any]

def _selfcheck_combos(st: MausAuChocolatCore, seed: int, rounds: int) -> int: ...
def _selfcheck_legal(st: MausAuChocolatCore) -> int: ...

@disjoint_base
class MausAuChocolatCore(_GameCore):
    def combination_actions(self, seat: SupportsIndex) -> List[int]: ...
