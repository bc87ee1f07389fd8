"""Stub of the compiled search (cengine/mousehole/_search.pyx): UCT, single-observer
ISMCTS and the strong search over the C-level game interface. Use it through ``mousehole.bots.search``."""

from typing import Any, Optional, Tuple

import numpy as np
import numpy.typing as npt

MODE_OPEN: int
MODE_MCTS: int
MODE_ISMCTS: int
MODE_STRONG: int
DEFAULT_C: float
BATCH_SECONDS: float

def has_evaluate(state: Any) -> bool: ...
def sqrt_log(n: int) -> float: ...
def inv_sqrt(n: int) -> Tuple[float, float]: ...
def search(
    state: Any,
    mode: int,
    iterations: Optional[int],
    time_limit: Optional[float],
    seed: int,
    c: float,
    depth: int = ...,
    scale: float = ...,
    greedy: float = ...,
    nodes: int = ...,
) -> Tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int64], int, int, int
]: ...
