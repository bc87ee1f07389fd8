"""The installed package is typed for its users (docs/typing.md).

* ``mypy --strict`` passes on the package, and the hand-written stubs of the compiled modules
  match what the extensions really define (``mypy.stubtest``);
* a user's script written against the typed API (``typing_cases/ok_typed_api.py``: every
  game's public State and Move types, ``load`` overloaded on the game id, generic code over
  ``StateAPI`` / ``Game``) checks cleanly under ``mypy --strict`` and basedpyright in strict
  mode, and runs on both engines;
* a script with three classic mistakes (``typing_cases/bad_typed_api.py``) gets exactly
  those errors from both checkers, and ``reveal_type`` names each game's State type.

The test appends to both scripts, from the registry, the cases of every registered game of
the package (``load("<id>")`` typed as its Game and State classes; a ``reveal_type`` of its
State type): a new game needs no edit of the typing cases, only its ``load`` overload.

Every checker runs in an empty temporary directory on the installed package, for the Python
that runs the tests (its own numpy stubs, its own typeshed).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import typing
from typing import Any, Dict, List, Set, Tuple

import pytest

import mousehole
from mousehole import Game, _api

pytestmark = pytest.mark.typing

COMPILED_MODULES = sorted(f"mousehole._{name}" for name in _api._REGISTRY) + [
    "mousehole._statecore",
    "mousehole._cgame",
    "mousehole._search",
    "mousehole._vector",
]
CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "typing_cases")
OK = "ok_typed_api.py"
BAD = "bad_typed_api.py"
PY_VERSION = f"{sys.version_info[0]}.{sys.version_info[1]}"


def _workdir(tmp: str) -> str:
    """An empty directory with the checkers' configs (strict, this interpreter's version)
    and copies of the typing cases, so that nothing of the source tree is picked up."""
    with open(os.path.join(tmp, "mypy.ini"), "w") as f:
        f.write(f"[mypy]\npython_version = {PY_VERSION}\n")
    with open(os.path.join(tmp, "pyrightconfig.json"), "w") as f:
        json.dump({"typeCheckingMode": "strict", "pythonVersion": PY_VERSION}, f)
    for name in (OK, BAD):
        with open(os.path.join(tmp, name), "w") as f:
            f.write(_case_text(name))
    return tmp


def _package_games() -> List[str]:
    """The games registered by a module of the package (each has its ``load`` overload)."""
    return [n for n in mousehole.game_names() if _api._REGISTRY[n].__module__.startswith("mousehole.")]


def _case_text(name: str) -> str:
    """A typing case as the checkers read it: the hand-written file, then the cases this test
    writes for every registered game of the package from the registry (so a new game needs no
    line here): in the good script, ``load("<id>")`` typed as its Game class, its state as its
    State type, the state's ``game`` as its Game class, and a few moves played; in the bad one,
    a ``reveal_type`` of its State type."""
    with open(os.path.join(CASES, name)) as f:
        text = f.read()
    lines = ["", "", "# -- written by tests/test_typing.py: every registered game of the package, from the registry"]
    for game in _package_games():
        cls = _api._REGISTRY[game]
        state = public_state_types()[game]
        if name == BAD:
            lines.append(f'reveal_type(mousehole.load("{game}").new_state())  # reveal: {state}')
            continue
        mod = f"_typed_{game}"
        lines += [
            "",
            f"import {cls.__module__} as {mod}  # noqa: E402",
            "",
            "",
            f"def check_registered_{game}() -> None:",
            f'    game = mousehole.load("{game}")',
            f"    assert_type(game, {mod}.{cls.__qualname__})",
            "    state = game.new_state(seed=1)",
            f"    assert_type(state, {mod}.{state.rsplit('.', 1)[1]})",
            f"    assert_type(state.game, {mod}.{cls.__qualname__})",
            "    assert play(state, 5) > 0",
            "",
            "",
            'if __name__ == "__main__":',
            f"    check_registered_{game}()",
        ]
    return text + "\n".join(lines) + "\n"


def _run(args: List[str], tmp: str, **env: str) -> "subprocess.CompletedProcess[str]":
    full_env = dict(os.environ, MYPYPATH="", **env)
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, cwd=tmp, env=full_env)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: Any) -> str:
    return _workdir(str(tmp_path_factory.mktemp("typing")))


@pytest.fixture(scope="module")
def mypy_cases(workdir: str) -> Dict[str, List[Tuple[int, str, str]]]:
    """mypy --strict on both cases: per file, the (line, severity, code or text) it reports."""
    r = _run(
        ["mypy", "--strict", "--no-incremental", "--show-error-codes", "--config-file", "mypy.ini", OK, BAD], workdir
    )
    assert r.returncode in (0, 1), r.stdout + r.stderr  # 1: errors found (the bad case has some)
    out: Dict[str, List[Tuple[int, str, str]]] = {OK: [], BAD: []}
    for line in r.stdout.splitlines():
        m = re.match(r"^(\w+\.py):(\d+): (error|note|warning): (.*)$", line)
        if m is None:
            continue
        file, lineno, severity, text = m.group(1), int(m.group(2)), m.group(3), m.group(4)
        assert file in out, line  # errors only in the scripts, never inside mousehole
        code = re.search(r"\[([\w-]+)\]$", text)
        out[file].append((lineno, severity, code.group(1) if severity == "error" and code else text))
    assert out[OK] or out[BAD], r.stdout + r.stderr
    return out


@pytest.fixture(scope="module")
def pyright_cases(workdir: str) -> Dict[str, List[Tuple[int, str, str]]]:
    """basedpyright (strict) on both cases: per file, the (line, severity, rule or message)."""
    r = _run(["basedpyright", "--outputjson", "--pythonpath", sys.executable, OK, BAD], workdir)
    try:
        report = json.loads(r.stdout)
    except ValueError:
        raise AssertionError(f"basedpyright did not run: {r.stdout}{r.stderr}") from None
    out: Dict[str, List[Tuple[int, str, str]]] = {OK: [], BAD: []}
    for d in report["generalDiagnostics"]:
        file = os.path.basename(d["file"])
        assert file in out, d  # nothing reported inside mousehole
        line = d["range"]["start"]["line"] + 1
        out[file].append((line, d["severity"], d.get("rule", "") if d["severity"] == "error" else d["message"]))
    assert report["summary"]["filesAnalyzed"] == 2, report["summary"]
    return out


def _expected(marker: str) -> Dict[int, List[str]]:
    """The ``# marker: ...`` annotations of the bad case, by line number."""
    found: Dict[int, List[str]] = {}
    for i, line in enumerate(_case_text(BAD).splitlines(), 1):
        m = re.search(rf"\)\s+#\s*{marker}:\s*(.*)$", line)  # a call, then the comment
        if m:
            found[i] = m.group(1).split()
    return found


def _short(type_text: str) -> str:
    """A type as pyright prints it: without module paths, ``list`` for ``List``."""
    return re.sub(r"\b(?:\w+\.)+(\w+)", r"\1", type_text).replace("builtins.", "").lower()


# -- the package ---------------------------------------------------------------------------


def test_package_ships_stubs_and_py_typed() -> None:
    pkg = os.path.dirname(mousehole.__file__)
    assert os.path.exists(os.path.join(pkg, "py.typed"))
    for mod in COMPILED_MODULES:
        assert os.path.exists(os.path.join(pkg, mod.split(".")[1] + ".pyi")), mod


def test_mypy_strict(workdir: str) -> None:
    r = _run(["mypy", "--strict", "--no-incremental", "--config-file", "mypy.ini", "-p", "mousehole"], workdir)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("module", COMPILED_MODULES)
def test_stubs_match_the_compiled_module(module: str, workdir: str) -> None:
    r = _run(["mypy.stubtest", "--mypy-config-file", "mypy.ini", module], workdir)
    assert r.returncode == 0, r.stdout + r.stderr


# -- a user's script that uses the types right ---------------------------------------------


def test_user_script_is_clean_under_mypy_strict(mypy_cases: Dict[str, List[Tuple[int, str, str]]]) -> None:
    assert mypy_cases[OK] == []


def test_user_script_is_clean_under_basedpyright_strict(pyright_cases: Dict[str, List[Tuple[int, str, str]]]) -> None:
    assert pyright_cases[OK] == []


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_user_script_runs(engine: str, workdir: str) -> None:
    """The script's calls are real: it runs (its plain asserts included) on each engine."""
    env = {"MOUSEHOLE_PUREPYTHON": "1" if engine == "python" else "0"}
    r = subprocess.run([sys.executable, OK], capture_output=True, text=True, cwd=workdir, env=dict(os.environ, **env))
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


# -- a user's script with mistakes ---------------------------------------------------------


def test_bad_script_marks_three_mistakes() -> None:
    # the case itself: the three mistakes the issue names, each on its own line
    errors = _expected("error")
    assert len(errors) == 3
    with open(os.path.join(CASES, BAD)) as f:
        lines = f.read().splitlines()
    texts = [lines[i - 1] for i in sorted(errors)]
    assert ".legal_actionz()" in texts[0]
    assert '.apply_action("x")' in texts[1]
    assert ".apply(CRMove(" in texts[2]


def test_mypy_reports_exactly_the_mistakes(mypy_cases: Dict[str, List[Tuple[int, str, str]]]) -> None:
    got: Set[Tuple[int, str]] = {(line, code) for line, sev, code in mypy_cases[BAD] if sev == "error"}
    want = {(line, codes[0]) for line, codes in _expected("error").items()}  # first: the mypy code
    assert got == want
    assert len([1 for _, sev, _ in mypy_cases[BAD] if sev == "error"]) == 3


def test_basedpyright_reports_exactly_the_mistakes(pyright_cases: Dict[str, List[Tuple[int, str, str]]]) -> None:
    got = {(line, rule) for line, sev, rule in pyright_cases[BAD] if sev == "error"}
    # after the mypy code, the pyright rules (a missing attribute is also of unknown type)
    want = {(line, rule) for line, codes in _expected("error").items() for rule in codes[1:]}
    assert got == want
    assert not [d for d in pyright_cases[BAD] if d[1] == "warning"]


def public_state_types() -> Dict[str, str]:
    """Every registered game's public State type, fully qualified, by game id: the first
    argument of its ``Game[State, Move]`` base (``class M(Game["MState", MMove])``)."""
    out = {}
    for name in mousehole.game_names():
        cls = _api._REGISTRY[name]
        base = next(b for b in getattr(cls, "__orig_bases__", ()) if typing.get_origin(b) is Game)
        arg = typing.get_args(base)[0]
        arg = arg.__forward_arg__ if isinstance(arg, typing.ForwardRef) else arg.__qualname__
        out[name] = f"{cls.__module__}.{arg}"
    return out


def test_reveal_type_names_the_state_types(
    mypy_cases: Dict[str, List[Tuple[int, str, str]]], pyright_cases: Dict[str, List[Tuple[int, str, str]]]
) -> None:
    reveals = {line: words[0] for line, words in _expected("reveal").items()}
    states = set(public_state_types().values())  # every registered game's (its load overload types it)
    assert states <= set(reveals.values())
    by_mypy = {
        line: re.sub(r'^Revealed type is "(.*)"$', r"\1", text) for line, sev, text in mypy_cases[BAD] if sev == "note"
    }
    by_pyright = {
        line: re.sub(r'^Type of ".*" is "(.*)"$', r"\1", text)
        for line, sev, text in pyright_cases[BAD]
        if sev == "information"
    }
    assert set(by_mypy) == set(by_pyright) == set(reveals)
    for line, want in reveals.items():
        if want in states:
            assert by_mypy[line] == want  # the fully qualified public type
        assert _short(by_mypy[line]) == _short(want), (line, by_mypy[line])
        assert _short(by_pyright[line]) == _short(want), (line, by_pyright[line])
