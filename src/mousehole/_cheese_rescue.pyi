"""Stub of the compiled Cheese Rescue engine (cengine/mousehole/_cheese_rescue.pyx)."""
from typing import Any, Dict, List, TypeVar

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from mousehole._statecore import StateCore

_S = TypeVar("_S", bound="CheeseRescueCore")

@disjoint_base
class CheeseRescueCore(StateCore):
    @classmethod
    def _from_valid_dict(cls: type[_S], game: Any, d: Dict[str, Any]) -> _S: ...
    def legal_cells(self) -> List[int]: ...
    def cheese_counts(self) -> List[int]: ...
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
