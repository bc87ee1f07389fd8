"""Stub of the compiled M engine (cengine/mousehole/_m.pyx)."""
from typing import Any, Dict, Optional, Tuple, TypeVar

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from mousehole._statecore import StateCore

# the C functions of the .pxd that other Cython code may cimport (Cython's export table)
__pyx_capi__: Dict[str, Any]

_S = TypeVar("_S", bound="MGameCore")

PHASES: Tuple[str, str, str, str]
ENDS: Tuple[Optional[str], str, str, str, str]

@disjoint_base
class MGameCore(StateCore):
    @classmethod
    def _from_valid_dict(cls: type[_S], game: Any, d: Dict[str, Any]) -> _S: ...
    def _to_dict(self) -> Dict[str, Any]: ...
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


MCore = MGameCore  # deprecated (DeprecationWarning at run time): use MGameCore
