"""Build and import ``benchmarks/corebench.pyx``: the microbenchmark loops that run inside
compiled code (legal-action generation, M's connectivity test, Maus au Chocolat's
combination search), kept out of the shipped cores.

    from corebench import load
    cb = load()              # None when it cannot be built (no Cython, no compiler, no cores)
    cb.legal_generation(state, 1000)

The module is compiled once per source and interpreter into a cache folder (the system's
temporary folder unless ``cache`` is given; the generated C file, the object files and the
module all go there, nothing beside the sources), with the ``cengine/`` declarations of this
checkout, which must be those the installed compiled cores were built from (a development
install: ``pip install -e .`` or ``setup.py build_ext --inplace``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import sysconfig
import tempfile
from types import ModuleType
from typing import Optional

HERE = os.path.dirname(os.path.abspath(__file__))
CENGINE = os.path.join(os.path.dirname(HERE), "cengine")
SOURCE = os.path.join(HERE, "corebench.pyx")

_loaded: Optional[ModuleType] = None
why_not: str = ""


def _key() -> str:
    h = hashlib.sha256(repr((sys.version, sys.platform)).encode())
    for folder, names in ((HERE, ["corebench.pyx"]), (os.path.join(CENGINE, "mousehole"), None)):
        for f in sorted(names or os.listdir(folder)):
            if f.endswith((".pyx", ".pxd")):
                with open(os.path.join(folder, f), "rb") as fh:
                    h.update(f.encode() + b"\0" + fh.read())
    return h.hexdigest()[:16]


def load(cache: Optional[str] = None) -> Optional[ModuleType]:
    """The compiled benchmark module, built on first use; None (the reason in ``why_not``)
    when it cannot be built here."""
    global _loaded, why_not
    if _loaded is not None:
        return _loaded
    try:
        from mousehole import _m, _maus_au_chocolat  # noqa: F401  (the cores it cimports)
    except ImportError as e:
        why_not = f"no compiled cores ({e})"
        return None
    out_dir = os.path.join(cache or tempfile.gettempdir(), f"mousehole-corebench-{_key()}")
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    target = os.path.join(out_dir, "corebench" + suffix)
    if not os.path.exists(target):
        try:
            import numpy
            from Cython.Build import cythonize
            from setuptools import Distribution, Extension
        except ImportError as e:
            why_not = f"cannot build the benchmark loops: {e}"
            return None
        os.makedirs(out_dir, exist_ok=True)
        ext = Extension(
            "corebench",
            [SOURCE],
            include_dirs=[numpy.get_include()],
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
            extra_compile_args=["/O2"] if sys.platform == "win32" else ["-O3"],
        )
        try:
            exts = cythonize([ext], include_path=[CENGINE], build_dir=os.path.join(out_dir, "c"), quiet=True)
            dist = Distribution({"ext_modules": exts})
            cmd = dist.get_command_obj("build_ext")
            cmd.build_lib = out_dir
            cmd.build_temp = os.path.join(out_dir, "tmp")
            cmd.inplace = False
            cmd.ensure_finalized()
            cmd.run()
        except Exception as e:  # a compiler error of any kind: report it, do not stop the benchmarks
            why_not = f"cannot build the benchmark loops: {type(e).__name__}: {e}"
            return None
    spec = importlib.util.spec_from_file_location("corebench", target)
    if spec is None or spec.loader is None:
        why_not = f"cannot load {target}"
        return None
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except ImportError as e:  # built against declarations the installed cores do not have yet
        why_not = (
            f"the benchmark loops do not match the installed compiled cores ({e}); rebuild the "
            "cores from this checkout (setup.py build_ext --inplace)"
        )
        return None
    _loaded = mod
    return mod


def load_or_note(who: str) -> Optional[ModuleType]:
    """``load()``, saying on stderr why not (naming ``who``) when it cannot be built."""
    mod = load()
    if mod is None:
        print(f"{who}: compiled loops skipped: {why_not}", file=sys.stderr)
    return mod
