#!/usr/bin/env bash
# The joint-law fit, moeplan against SciPy, on the identical problem (issue 4 benchmark):
# 446 synthetic runs on paper 001 Table 6's grid, Huber δ = 1e-3 on log residuals, the
# same 324-point initial-value grid and the same search box.
# Needs python3-scipy (Debian) for the SciPy side; prints moeplan's figures regardless.
# Usage: bench/fit_vs_scipy.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
cmake --build "$build" --target moeplan_fit_bench >/dev/null
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "== moeplan (in-process fit, best of 3; dlib L-BFGS-B, analytic gradients by forward AD)"
"$build/bench/moeplan_fit_bench" "$here/tests/data/joint_moe_experiments.csv" "$dir" 3
if /usr/bin/python3 -c 'import scipy' 2>/dev/null; then
  echo "== SciPy L-BFGS-B (fd: defaults + finite differences; jac: defaults + analytic gradient;"
  echo "   tight: analytic gradient, ftol 1e-13 as moeplan)"
  /usr/bin/python3 "$here/bench/fit_scipy.py" "$dir" --variants fd,jac,tight 2>/dev/null |
    /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
print("scipy %s, numpy %s, rows %d, starts %d, bounded %s" % (d["scipy_version"], d["numpy_version"], d["rows"], d["starts"], d["bounded"]))
for v in d["variants"]:
    print("  %-6s %9.2f s  objective %.10g  converged %d  mean nit %.0f" % (v["name"], v["seconds"], v["best_objective"], v["converged_starts"], v["mean_nit"]))'
else
  echo "== SciPy: not installed (apt-get install python3-scipy) — skipped"
fi
