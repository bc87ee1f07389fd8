"""Stub of the compiled Maus au Chocolat engine (cengine/mousehole/_maus_au_chocolat.pyx)."""
from typing import Any, Dict, List, SupportsIndex, TypeVar

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from mousehole._statecore import StateCore

# the C functions of the .pxd that other Cython code may cimport (Cython's export table)
__pyx_capi__: Dict[str, Any]

_S = TypeVar("_S", bound="MausAuChocolatCore")

def _selfcheck_combos(st: MausAuChocolatCore, seed: int, rounds: int) -> int: ...
def _selfcheck_legal(st: MausAuChocolatCore) -> int: ...
@disjoint_base
class MausAuChocolatCore(StateCore):
    @classmethod
    def _from_valid_dict(cls: type[_S], game: Any, d: Dict[str, Any]) -> _S: ...
    def _to_dict(self) -> Dict[str, Any]: ...
    def combination_actions(self, seat: SupportsIndex) -> List[int]: ...
    @staticmethod
    def simulate_chunk(
        game: Any,
        seed: int,
        start: int,
        stop: int,
        scores: npt.NDArray[np.int64],
        winners: npt.NDArray[np.uint8],
        lengths: npt.NDArray[np.int64],
        truncated: npt.NDArray[np.uint8],
    ) -> None: ...
