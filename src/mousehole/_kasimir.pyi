"""Stub of the compiled Kater Kasimir engine (cengine/mousehole/_kasimir.pyx)."""
from typing import Any, Dict, List, SupportsIndex, TypeVar

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from mousehole._statecore import StateCore

_S = TypeVar("_S", bound="KasimirCore")

@disjoint_base
class KasimirCore(StateCore):
    @classmethod
    def _from_valid_dict(cls: type[_S], game: Any, d: Dict[str, Any]) -> _S: ...
    def free_starts(self, p: SupportsIndex) -> List[int]: ...
    def on_the_way(self) -> int: ...
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
