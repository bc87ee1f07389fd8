"""Stub of the compiled M engine (cengine/mousehole/_m.pyx)."""

from typing import Any, Dict, Optional, Tuple

from typing_extensions import disjoint_base

from mousehole._statecore import _GameCore

# the C functions of the .pxd that other Cython code may cimport (Cython's export table)
__pyx_capi__: Dict[str, Any]

PHASES: Tuple[str, str, str, str]
ENDS: Tuple[Optional[str], str, str, str, str]

@disjoint_base
class MGameCore(_GameCore): ...

MCore = MGameCore  # deprecated (DeprecationWarning at run time): use MGameCore
