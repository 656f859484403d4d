#!/usr/bin/env bash
# Installs the Debian 12 packages moeplan needs (only those missing), then configures and
# builds in ./build: everything (binary, tests, benchmark), or only the CMake targets named
# (`scripts/setup.sh moeplan`: the binary and the modules it loads, what README command 1
# runs). Idempotent; run as root on a fresh machine, or as any user once the packages are there.
set -euo pipefail
cd "$(dirname "$0")/.."

# libjpeg-dev, libblas-dev, liblapack-dev: Debian 12's dlib CMake target (dlib.cmake) links
# libjpeg.so, libblas.so and liblapack.so, which libdlib-dev does not depend on (a fresh
# machine failed at the link without them). libopenblas0-pthread: the multithreaded BLAS the
# CPU GEMM benchmark measures against Eigen (src/gemm/gemm_cpu.cpp).
packages=(build-essential cmake ninja-build pkg-config
          groff-base libcli11-dev libeigen3-dev libdlib-dev libcsv-dev libfmt-dev libtomlplusplus-dev doctest-dev
          nlohmann-json3-dev
          libjpeg-dev libblas-dev liblapack-dev libopenblas0-pthread)
# PLplot renders `moeplan plot` only (a module the binary loads when asked); its packages bring
# cairo and pango (21 s of apt on a fresh machine), so a build of named targets (README
# command 1) leaves them out and the binary says how to get plots; a full build installs them.
# universal-ctags: the test that no function in src/ is over 150 lines measures with it
# (tests/function_length.sh), so the full build (README command 2) installs it too, and
# python3-jsonschema, with which tests/schema_check.py validates the commands' JSON output.
if [ $# -eq 0 ]; then
  packages+=(libplplot-dev plplot-driver-cairo universal-ctags python3-jsonschema)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing packages and not root; run: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release ${MOEPLAN_CMAKE_ARGS:-} >/dev/null
if [ $# -gt 0 ]; then
  cmake --build build --target "$@"
else
  cmake --build build
fi
