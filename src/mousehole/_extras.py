"""The optional extras (``pyproject.toml``'s ``[project.optional-dependencies]``): how to
install one, in the one wording every message of the package uses, and whether the
``render`` extra can draw pictures here.

mousehole is not on a package index yet:
``pip install 'mousehole[gymnasium]'`` finds nothing. Until the first release an extra is
installed by naming its requirements (``pip install 'gymnasium>=1.0'``: nothing is compiled)
or, in a clone of the repository, with ``pip install --no-build-isolation '.[gymnasium]'``
(which reuses the compiled modules of an install made the same way). :func:`install_hint`
says both; it is the one place to change when the first release is published.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
from typing import List, Optional

__all__ = ["install_hint", "requirements", "can_rasterize"]

_EXTRA = re.compile(r"""\bextra\s*==\s*["']([^"']+)["']""")


def requirements(extra: str) -> List[str]:
    """The requirements of the extra ``extra`` as the installed package's metadata lists
    them (``["gymnasium>=1.0"]``; markers such as a Python version dropped), in order;
    empty when the metadata cannot be read (a source tree that was never installed) or the
    extra does not exist."""
    from importlib.metadata import PackageNotFoundError, requires

    try:
        listed = requires("mousehole") or []
    except PackageNotFoundError:
        return []
    out: List[str] = []
    for req in listed:
        spec, _, marker = req.partition(";")
        m = _EXTRA.search(marker)
        if m and m.group(1) == extra:
            out.append(spec.strip())
    return out


def install_hint(extra: str) -> str:
    """How to install the extra ``extra``, as one phrase for an error message or an
    output line: ``pip install 'openskill>=6' (the 'arena' extra of mousehole; in a clone of
    mousehole: pip install --no-build-isolation '.[arena]')``."""
    clone = f"pip install --no-build-isolation '.[{extra}]'"
    reqs = requirements(extra)
    if not reqs:
        return f"{clone} in a clone of mousehole (the '{extra}' extra)"
    named = "pip install " + " ".join(shlex.quote(r) for r in reqs)
    return f"{named} (the '{extra}' extra of mousehole; in a clone of mousehole: {clone})"


_CAIRO_NAMES = ("cairo-2", "cairo", "libcairo-2")
_CAIRO_FILES = ("libcairo.so.2", "libcairo.2.dylib", "libcairo-2.dll")
_can_rasterize: Optional[bool] = None


def can_rasterize() -> bool:
    """Whether :func:`mousehole.render.rgb_array` can work here: CairoSVG and Pillow (the
    ``render`` extra) are installed and the system cairo library loads. Decided once, without
    importing CairoSVG (whose import parses cairo's whole C interface, about half a second):
    the library is looked up by the names and files cairocffi tries, the files first (a
    ``dlopen``), the names through ``ctypes.util.find_library`` only when no file loads."""
    global _can_rasterize
    if _can_rasterize is None:
        _can_rasterize = _probe_raster()
    return _can_rasterize


def _probe_raster() -> bool:
    for module in ("cairosvg", "cairocffi", "PIL"):
        try:
            if importlib.util.find_spec(module) is None:
                return False
        except (ImportError, ValueError):  # a parent that fails to import; a __spec__ of None
            return False
    import ctypes
    import ctypes.util

    for name in _CAIRO_FILES:
        try:
            ctypes.CDLL(name)
            return True
        except OSError:
            pass
    for name in _CAIRO_NAMES:
        found = ctypes.util.find_library(name)
        if found:
            try:
                ctypes.CDLL(found)
                return True
            except OSError:
                pass
    return False
