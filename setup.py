"""Build the compiled engines of mousehole.

Compiler directives are set once, here. ``MOUSEHOLE_DEBUG=1`` turns bounds checks,
wraparound and initialisation checks on (and drops ``-O3``) for debugging.
``MOUSEHOLE_PUREPYTHON_BUILD=1`` builds a wheel without any extension module.

The build is one pipeline (``build_ext`` below): Cython translates the modules one after
another, largest first, and each translated module goes straight to a C compiler while the
next is translated, with one compiler job per core (``MOUSEHOLE_BUILD_JOBS=N`` to choose).
The code that Cython would otherwise paste into every module (its utility code: about
0.7 MB of C each) is generated once, as the module ``mousehole._cyutility``.
"""

import os
import sys
from concurrent.futures import ThreadPoolExecutor

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
# Every .pyx of cengine/mousehole/ (a new game's core is picked up, not listed), in the order
# of the build: the longest to compile first (the largest source), so that the last job to
# finish is a short one.
_CENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cengine", "mousehole")
_SOURCES = [f for f in os.listdir(_CENGINE) if f.endswith(".pyx")] if os.path.isdir(_CENGINE) else []
MODULES = [f[:-4] for f in sorted(_SOURCES, key=lambda f: (-os.path.getsize(os.path.join(_CENGINE, f)), f))]
# MOUSEHOLE_MODULES=_m,_kasimir builds only those (for development).
if os.environ.get("MOUSEHOLE_MODULES"):
    MODULES = os.environ["MOUSEHOLE_MODULES"].split(",")
#: Cython's utility code, shared by every module (generated and compiled once)
SHARED = "mousehole._cyutility"

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "nonecheck": DEBUG,
    # signatures in help() and inspect.signature(): the "clinic" format writes them as
    # CPython's own methods do ("name($self, /, ...)" then "--"), which CPython reads into
    # __text_signature__ (the default "c" format's "Class.name(self, ...)" line is read by
    # nothing). Docstrings only: the generated code is otherwise the same.
    "embedsignature": True,
    "embedsignature.format": "clinic",
    "autotestdict": False,
    "auto_pickle": False,  # states pickle through StateAPI.__reduce__ (to_dict)
    "binding": False,
    # Not declared free-threading safe: a compiled state shared by two threads relies on
    # the GIL (its methods hold it throughout), so on a free-threaded CPython importing
    # these modules turns the GIL back on rather than let two threads race on a state.
    "freethreading_compatible": False,
}


def compile_args(hot=True):
    """The C compiler's options: ``-O3`` for the engines, ``-O2`` for Cython's shared utility
    code (the Python boundary, not the games' loops), no debug information (it doubles the
    compile time and the wheel's size) unless ``MOUSEHOLE_DEBUG=1``."""
    if sys.platform == "win32":
        return ["/O2"] if not DEBUG else ["/Od"]
    if DEBUG:
        return ["-O0", "-g"]
    return ["-O3" if hot else "-O2", "-g0"]


def extensions():
    if PURE:
        return []
    import numpy

    exts = [
        Extension(
            f"mousehole.{name}",
            [f"cengine/mousehole/{name}.pyx"],
            include_dirs=[numpy.get_include()],
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
            extra_compile_args=compile_args(),
        )
        for name in MODULES
        if os.path.exists(f"cengine/mousehole/{name}.pyx")
    ]
    # third: it compiles in about as long as a game's module
    exts.insert(min(2, len(exts)), Extension(SHARED, sources=[], extra_compile_args=compile_args(hot=False)))
    return exts


def directives_tag():
    """A short digest of ``DIRECTIVES``: the generated C of each set has its own folder."""
    import hashlib

    return hashlib.sha256(repr(sorted(DIRECTIVES.items())).encode()).hexdigest()[:8]


def translate(ext):
    """Cython's translation of one extension (skipped where its C file is up to date): the
    extension's sources become the generated C file. (``tools/platform_proof.sh`` calls it
    too, to cross-compile the same C.)"""
    from Cython.Build import cythonize

    [translated] = cythonize(
        [ext],
        include_path=["cengine"],
        compiler_directives=DIRECTIVES,
        shared_utility_qualified_name=SHARED,
        quiet=True,
        # per interpreter (the generated C depends on the numpy it was generated against) and
        # per set of directives: cythonize's up-to-date check compares file times only, so
        # a C file generated under other directives (MOUSEHOLE_DEBUG=1, a changed directive)
        # would otherwise be compiled again as it is
        build_dir=f"build/cython-cp{sys.version_info[0]}{sys.version_info[1]}-{directives_tag()}",
    )
    ext.sources = translated.sources


def flavour_stamp(build_temp):
    """The path of a file naming the build's flavour, rewritten only when it changed."""
    flavour = repr((DEBUG, compile_args(), compile_args(hot=False), sorted(DIRECTIVES.items())))
    path = os.path.join(build_temp, "flavour.txt")
    try:
        with open(path) as f:
            same = f.read() == flavour
    except OSError:
        same = False
    if not same:
        os.makedirs(build_temp, exist_ok=True)
        with open(path, "w") as f:
            f.write(flavour)
    return path


class build_ext(_build_ext):
    """``build_ext`` as a pipeline: Cython translates the modules in order in this thread
    while a pool of ``-j N`` threads (or ``MOUSEHOLE_BUILD_JOBS``; one per core by default)
    runs the C compiler on each module as soon as it is translated."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = JOBS

    def build_extensions(self):
        self.check_extensions_list(self.extensions)
        jobs = max(1, int(self.parallel) if self.parallel is not True else JOBS)
        # setuptools compiles a module again only when a source or a dependency is newer than
        # its built file: a stamp of the build's flavour (the compiler's options and the
        # directives), rewritten when the flavour changes, is every module's dependency, so a
        # normal build after a MOUSEHOLE_DEBUG=1 one in the same tree compiles afresh instead
        # of copying the -O0 modules it finds in build/
        stamp = flavour_stamp(self.build_temp)
        for ext in self.extensions:
            ext.depends = [*ext.depends, stamp]

        def compile_one(ext):
            with self._filter_build_errors(ext):
                self.build_extension(ext)

        with ThreadPoolExecutor(jobs) as pool:
            running = []
            for ext in self.extensions:
                translate(ext)
                running.append(pool.submit(compile_one, ext))
            for job in running:
                job.result()  # (raises the first compile error)


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
