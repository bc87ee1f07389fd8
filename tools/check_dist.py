#!/usr/bin/env python3
"""Check what mousehole's distributions hold.

    python tools/check_dist.py [--source DIR] [--sdist FILE] [--wheel FILE ...]
                               [--platform-tag PREFIX]

``--source`` is the source tree the distributions were built from (default: the
checkout this script lives in). The compiled modules that must be there are the
names listed in ``MODULES`` of ``setup.py`` (read without running it) that have a
``cengine/mousehole/<name>.pyx`` in that tree.

A wheel must hold, under ``mousehole/``:
  * exactly one extension module (``.so`` or ``.pyd``) per compiled module and one for
    Cython's shared utility code (setup.py's ``SHARED``), and no other;
  * a ``.pyi`` stub per compiled module, every ``.pyi`` of ``src/mousehole`` and ``py.typed``;
  * every ``.py`` of ``src/mousehole``;
  * the plain-C loops of ``benchmarks/limits`` (``.c``, ``.h``) as ``mousehole/limits/``, which
    ``mousehole bench`` compiles in an installed package;
and no ``.pyx``, ``.pxd``, ``.o`` anywhere, no other ``.c``/``.cpp``/``.h``. With
``--platform-tag manylinux`` its file name must carry such a platform tag.

The sdist must hold the Cython sources (every ``.pyx`` and ``.pxd`` of
``cengine/mousehole``, the shared declarations ``_rng``, ``_bits``, ``_cgame``,
``_boundary``, ``_pyalloc`` and ``_statecore`` included), ``setup.py``, ``pyproject.toml``,
``MANIFEST.in``, the package with ``py.typed`` and its stubs, the tests, and the hand-written
C reference loops of ``benchmarks/limits`` (``.c`` and ``.h``, which ``mousehole bench``
compiles); and no compiled or generated files (``.so``,
``.pyd``, ``.o``, or any ``.c``/``.cpp``/``.h`` outside ``benchmarks/limits``).

Exits 0 when every check passes, 1 otherwise (each failure is printed).
Standard library only, so it runs on any Python >= 3.9 without installing anything.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import tarfile
import zipfile
from pathlib import Path, PurePosixPath
from typing import Iterable, List, Sequence, Set

ROOT = Path(__file__).resolve().parents[1]
GENERATED = (".c", ".cpp", ".h", ".o", ".obj")
#: Plain C written by hand (the reference loops ``mousehole bench`` compiles), not generated.
HANDWRITTEN_C = "benchmarks/limits"
EXTENSION_RE = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)(\.[^/]+)?\.(so|pyd)$")


class Report:
    def __init__(self, label: str) -> None:
        self.label = label
        self.errors: List[str] = []

    def error(self, message: str) -> None:
        self.errors.append(message)

    def require(self, condition: bool, message: str) -> None:
        if not condition:
            self.error(message)

    def print(self, detail: str) -> bool:
        if self.errors:
            print(f"FAIL {self.label}")
            for message in self.errors:
                print(f"  - {message}")
            return False
        print(f"ok   {self.label}: {detail}")
        return True


def setup_shared(setup_py: Path) -> str:
    """The module name of ``SHARED = "mousehole._..."`` in setup.py (Cython's utility code,
    compiled once for every module), without its package: ``_cyutility``."""
    tree = ast.parse(setup_py.read_text(encoding="utf-8"), filename=str(setup_py))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "SHARED" for t in node.targets):
            value = ast.literal_eval(node.value)
            if not isinstance(value, str) or not value.startswith("mousehole."):
                raise SystemExit(f"{setup_py}: SHARED is not a module of the mousehole package")
            return value[len("mousehole.") :]
    raise SystemExit(f'{setup_py}: no module-level SHARED = "mousehole...." assignment')


def compiled_modules(source: Path) -> List[str]:
    """The compiled modules of the source tree: every ``cengine/mousehole/*.pyx``, as setup.py
    builds them (it lists none by hand, so a new core is picked up)."""
    return sorted(p.stem for p in (source / "cengine" / "mousehole").glob("*.pyx"))


def files_under(source: Path, sub: str, suffixes: Iterable[str]) -> Set[str]:
    base = source / sub
    wanted = tuple(suffixes)
    return {
        p.relative_to(source).as_posix()
        for p in base.rglob("*")
        if p.is_file() and p.name.endswith(wanted) and "__pycache__" not in p.parts
    }


def check_wheel(path: Path, source: Path, modules: Sequence[str], platform_tag: str) -> bool:
    report = Report(f"wheel {path.name}")
    with zipfile.ZipFile(path) as zf:
        names = [n for n in zf.namelist() if not n.endswith("/")]
    name_set = set(names)

    # Compiled modules: one extension per module with a .pyx, nothing else.
    found = {}
    for n in names:
        p = PurePosixPath(n)
        if p.parent.as_posix() != "mousehole":
            if p.suffix in (".so", ".pyd") and not p.parent.as_posix().endswith(".libs"):
                report.error(f"extension module outside the package: {n}")
            continue
        m = EXTENSION_RE.match(p.name)
        if m:
            found.setdefault(m.group("name"), []).append(n)
    for mod in modules:
        hits = found.get(mod, [])
        report.require(len(hits) == 1, f"expected one compiled module mousehole/{mod}.*.so|pyd, found {hits or 'none'}")
        report.require(
            f"mousehole/{mod}.pyi" in name_set, f"missing stub mousehole/{mod}.pyi for compiled module {mod}"
        )
    # Cython's shared utility code: one extension, no stub (it has no Python-level API)
    shared = setup_shared(source / "setup.py")
    hits = found.get(shared, [])
    report.require(
        len(hits) == 1,
        f"expected one compiled module mousehole/{shared}.*.so|pyd (Cython's shared "
        f"utility code), found {hits or 'none'}",
    )
    for extra in sorted(set(found) - set(modules) - {shared}):
        report.error(f"unexpected extension module(s) {found[extra]} (not a MODULES entry with a .pyx)")

    # Typing: py.typed and every stub of the source package.
    report.require("mousehole/py.typed" in name_set, "missing mousehole/py.typed")
    src_pkg = {f[len("src/") :] for f in files_under(source, "src/mousehole", (".py", ".pyi"))}
    for f in sorted(src_pkg - name_set):
        report.error(f"missing {f} (present in src/)")

    # The C loops of bench, shipped as written.
    loops = {"mousehole/limits/" + f.rsplit("/", 1)[1] for f in files_under(source, HANDWRITTEN_C, (".c", ".h"))}
    for f in sorted(loops - name_set):
        report.error(f"missing {f} (the C loops of {HANDWRITTEN_C}, for mousehole bench)")

    # No build inputs or by-products.
    for n in names:
        if n in loops:
            continue
        if n.endswith((".pyx", ".pxd")) or n.endswith(GENERATED):
            report.error(f"source or build by-product in the wheel: {n}")

    if platform_tag:
        tags = path.name[: -len(".whl")].split("-")[-1]
        report.require(
            any(t.startswith(platform_tag) for t in tags.split(".")),
            f"platform tag {tags!r} is not a {platform_tag} tag",
        )
    return report.print(
        f"{len(modules)} compiled modules {sorted(modules)}, stubs, py.typed, the C loops; no .pyx/.pxd/generated C"
    )


def check_sdist(path: Path, source: Path, modules: Sequence[str]) -> bool:
    report = Report(f"sdist {path.name}")
    with tarfile.open(path) as tf:
        members = [m.name for m in tf.getmembers() if m.isfile()]
    tops = {n.split("/", 1)[0] for n in members}
    report.require(len(tops) == 1, f"expected one top-level directory, found {sorted(tops)}")
    rel = {n.split("/", 1)[1] for n in members if "/" in n}

    cython = files_under(source, "cengine/mousehole", (".pyx", ".pxd"))
    required = {
        "setup.py",
        "pyproject.toml",
        "MANIFEST.in",
        "PKG-INFO",
        "cengine/mousehole/_boundary.pxd",
        "src/mousehole/__init__.py",
        "src/mousehole/py.typed",
        "tests/conftest.py",
    }
    required |= cython
    required |= {f"cengine/mousehole/{m}.pyx" for m in modules}
    required |= files_under(source, "src/mousehole", (".py", ".pyi"))
    handwritten = files_under(source, HANDWRITTEN_C, (".c", ".h"))
    required |= handwritten
    for f in sorted(required - rel):
        report.error(f"missing {f}")
    for n in sorted(rel):
        if n in handwritten:
            continue
        if n.endswith((".so", ".pyd")) or n.endswith(GENERATED):
            report.error(f"compiled or generated file in the sdist: {n}")
    n_pyx = sum(1 for f in rel if f.startswith("cengine/") and f.endswith(".pyx"))
    n_pxd = sum(1 for f in rel if f.startswith("cengine/") and f.endswith(".pxd"))
    return report.print(
        f"{n_pyx} .pyx and {n_pxd} .pxd (the shared declarations included), package, stubs, tests, "
        "C reference loops; nothing generated"
    )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, default=ROOT, help="source tree (default: this checkout)")
    ap.add_argument("--sdist", type=Path, help="sdist (.tar.gz) to check")
    ap.add_argument("--wheel", type=Path, nargs="*", default=[], help="wheel(s) to check")
    ap.add_argument("--platform-tag", default="", help="required platform tag prefix of the wheels, e.g. manylinux")
    args = ap.parse_args(argv)
    if not args.sdist and not args.wheel:
        ap.error("nothing to check: give --sdist and/or --wheel")
    source = args.source.resolve()
    modules = compiled_modules(source)
    ok = True
    if args.sdist:
        ok &= check_sdist(args.sdist, source, modules)
    for wheel in args.wheel:
        ok &= check_wheel(wheel, source, modules, args.platform_tag)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
