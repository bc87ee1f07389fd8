"""Stub of the compiled batched stepper (cengine/mousehole/_vector.pyx), used by
``mousehole.vector.VectorGame``. One thread at a time: a method called while another thread
is inside one raises ``RuntimeError`` naming the VectorGame."""

from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

@disjoint_base
class VectorCore:
    def __new__(
        cls,
        proto: Any,
        n: int,
        seed: int,
        threads: int,
        seats: Sequence[int],
        obs: npt.NDArray[np.float32],
        final_obs: npt.NDArray[np.float32],
        rewards: npt.NDArray[np.float64],
        terminated: npt.NDArray[np.uint8],
        truncated: npt.NDArray[np.uint8],
        current: npt.NDArray[np.int32],
        mask: npt.NDArray[np.uint8],
        game_index: npt.NDArray[np.int64],
    ) -> VectorCore: ...
    def blocks(self) -> int: ...
    def set_seed(self, seed: int) -> None: ...
    def reset(self, seed: Optional[int] = None) -> None: ...
    def check_step(
        self, actions: object, observe: bool
    ) -> Union[int, Tuple[int, int, int, npt.NDArray[np.int64]]]: ...
    def legal_actions(self, i: int) -> npt.NDArray[np.int64]: ...
    def _hold(self) -> None: ...
    def _release(self) -> None: ...
    def stepped(self) -> int: ...
    def applied(self) -> npt.NDArray[np.int64]: ...
    def acted(self) -> npt.NDArray[np.int32]: ...
    def state_bytes(self, i: int) -> bytes: ...
