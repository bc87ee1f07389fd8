"""Build the compiled engines of mousehole.

Compiler directives are set once, here. ``MOUSEHOLE_DEBUG=1`` turns bounds checks,
wraparound and initialisation checks on (and drops ``-O3``) for debugging.
``MOUSEHOLE_PUREPYTHON_BUILD=1`` builds a wheel without any extension module.
The modules are translated and compiled in parallel, one job per core
(``MOUSEHOLE_BUILD_JOBS=N`` to choose).
"""
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext as _build_ext
from setuptools.command.build_py import build_py as _build_py

PURE = os.environ.get("MOUSEHOLE_PUREPYTHON_BUILD", "") not in ("", "0")
DEBUG = os.environ.get("MOUSEHOLE_DEBUG", "") not in ("", "0")
# parallel jobs of the build (the extension modules are independent of one another)
JOBS = int(os.environ.get("MOUSEHOLE_BUILD_JOBS") or os.cpu_count() or 1)

# The compiled engines: one extension module per game, all under cengine/mousehole/.
# Then the generic modules written once over the C-level game interface (_cgame.pxd).
# Shared declarations, by concern: _rng.pxd (the generator), _bits.pxd (bit tricks, copies),
# _cgame.pxd (the game interface), _boundary.pxd (the Python boundary), _pyalloc.pxd (the
# CPython allocator and GC tricks; MOUSEHOLE_NO_FAST_ALLOC=1 at run time switches them off).
# _statecore: the cores' compiled base class (game, seed and the class-level glue).
MODULES = ["_statecore", "_cheese_rescue", "_m", "_kasimir", "_maus_au_chocolat", "_cgame", "_search", "_vector"]
# MOUSEHOLE_MODULES=_m,_kasimir builds only those (for development).
if os.environ.get("MOUSEHOLE_MODULES"):
    MODULES = os.environ["MOUSEHOLE_MODULES"].split(",")


def extensions():
    if PURE:
        return []
    import numpy
    from Cython.Build import cythonize

    directives = {
        "language_level": 3,
        "boundscheck": DEBUG,
        "wraparound": DEBUG,
        "initializedcheck": DEBUG,
        "cdivision": not DEBUG,
        "nonecheck": DEBUG,
        "embedsignature": True,
        "autotestdict": False,
        "auto_pickle": False,  # states pickle through StateAPI.__reduce__ (to_dict)
        "binding": False,
        # Not declared free-threading safe: a compiled state shared by two threads relies on
        # the GIL (its methods hold it throughout), so on a free-threaded CPython importing
        # these modules turns the GIL back on rather than let two threads race on a state.
        "freethreading_compatible": False,
    }
    if sys.platform == "win32":
        args = ["/O2"] if not DEBUG else ["/Od"]
    else:
        args = ["-O3"] if not DEBUG else ["-O0", "-g"]
    exts = [
        Extension(
            f"mousehole.{name}",
            [f"cengine/mousehole/{name}.pyx"],
            include_dirs=[numpy.get_include()],
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
            extra_compile_args=args,
        )
        for name in MODULES
        if os.path.exists(f"cengine/mousehole/{name}.pyx")
    ]
    return cythonize(
        exts,
        # Cython's translation in parallel worker processes where they fork (Linux; a spawned
        # worker would run this file again), the C compilers in parallel threads below
        nthreads=JOBS if sys.platform.startswith("linux") else 0,
        include_path=["cengine"],
        compiler_directives=directives,
        # per interpreter: the generated C depends on the numpy it was generated against
        build_dir=f"build/cython-cp{sys.version_info[0]}{sys.version_info[1]}",
    )


class build_ext(_build_ext):
    """``build_ext`` compiling the extension modules in parallel: ``-j N`` (or
    ``MOUSEHOLE_BUILD_JOBS``) jobs, by default one per core."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = JOBS


#: the plain-C loops ``mousehole bench`` measures ``simulate`` against: hand-written sources
#: kept in benchmarks/limits, shipped in every wheel as mousehole/limits/ so that ``mousehole
#: bench`` finds them in an installed package too (it compiles them with the C compiler there)
LIMITS = "benchmarks/limits"


class build_py(_build_py):
    """``build_py`` that also copies the C loops of benchmarks/limits into the package."""

    def run(self):
        super().run()
        if not os.path.isdir(LIMITS):  # (a build from a tree without them: bench says so)
            return
        target = os.path.join(self.build_lib, "mousehole", "limits")
        self.mkpath(target)
        for name in sorted(os.listdir(LIMITS)):
            if name.endswith((".c", ".h")) or name == "README.md":
                self.copy_file(os.path.join(LIMITS, name), os.path.join(target, name))


setup(ext_modules=extensions(), cmdclass={"build_ext": build_ext, "build_py": build_py})
