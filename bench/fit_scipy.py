#!/usr/bin/python3
"""SciPy side of the joint-law fitting comparison in bench/.

Fits the 12-coefficient joint loss law with scipy.optimize.minimize(method="L-BFGS-B")
from every row of a starting grid, as the C++ tool does, and reports the time taken and
the best fit, so the two implementations can be compared on the same inputs.

Usage: fit_scipy.py DIR [--variants fd,jac] [--max-starts K] [--delta D] [--check-grad]

Reads DIR/joint_runs.csv (N,N_a,D,G,S,loss; leading '#' lines skipped) and
DIR/joint_grid.csv (one starting theta per row, columns named as PARAMS).
  pred = (e G + f/G + m S^2 + n S)(N^-alpha + k Na^-alpha + h Na/N)
         + a N^-alpha + b D^-beta + c Na^-alpha + eps
  objective = sum huber_delta(log pred - log loss)   (1e30 if any pred <= 0 or non-finite)
Variants: fd  = SciPy's default finite-difference gradient; jac = analytic gradient.
Prints one JSON object to stdout; progress goes to stderr. Needs Debian's python3-scipy.
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import scipy
from scipy.optimize import minimize

PARAMS = ["log_e", "log_f", "log_m", "n", "log_k", "log_h", "log_a", "alpha",
          "log_b", "beta", "log_c", "log_epsilon"]
RUN_COLS = ["N", "N_a", "D", "G", "S", "loss"]
BAD = 1e30


def read_csv(path, cols):
    """Read a CSV with a header naming `cols` (any order); '#' and blank lines skipped."""
    with open(path) as fh:
        lines = [ln.strip() for ln in fh if ln.strip() and not ln.lstrip().startswith("#")]
    header = [h.strip() for h in lines[0].split(",")]
    idx = [header.index(c) for c in cols]
    data = np.array([[float(v) for v in ln.split(",")] for ln in lines[1:]], dtype=float)
    return data.reshape(-1, len(header))[:, idx]


class JointLaw:
    def __init__(self, runs, delta):
        N, Na, D, self.G, self.S, loss = runs.T
        self.lN, self.lNa, self.lD = np.log(N), np.log(Na), np.log(D)
        self.Na_over_N = Na / N
        self.S2 = self.S**2
        self.log_loss = np.log(loss)
        self.delta = delta

    def _terms(self, th):
        le, lf, lm, n, lk, lh, la, al, lb, be, lc, leps = th
        e, f, m, k, h, a, b, c, eps = np.exp([le, lf, lm, lk, lh, la, lb, lc, leps])
        pN, pNa, pD = np.exp(-al * self.lN), np.exp(-al * self.lNa), np.exp(-be * self.lD)
        A = e * self.G + f / self.G + m * self.S2 + n * self.S
        B = pN + k * pNa + h * self.Na_over_N
        pred = A * B + a * pN + b * pD + c * pNa + eps
        return (e, f, m, k, h, a, b, c, eps), (pN, pNa, pD), A, B, pred

    def _huber(self, r):
        ar, d = np.abs(r), self.delta
        return np.sum(np.where(ar <= d, 0.5 * r * r, d * (ar - 0.5 * d)))

    def value(self, th):
        with np.errstate(all="ignore"):
            pred = self._terms(th)[-1]
            if not np.all(np.isfinite(pred)) or np.any(pred <= 0):
                return BAD
            v = self._huber(np.log(pred) - self.log_loss)
        return float(v) if np.isfinite(v) else BAD

    def value_and_grad(self, th):
        with np.errstate(all="ignore"):
            (e, f, m, k, h, a, b, c, eps), (pN, pNa, pD), A, B, pred = self._terms(th)
            if not np.all(np.isfinite(pred)) or np.any(pred <= 0):
                return BAD, np.zeros(12)
            r = np.log(pred) - self.log_loss
            v = self._huber(r)
            w = np.clip(r, -self.delta, self.delta) / pred  # d huber / d pred
            dalpha = (-A * (self.lN * pN + k * self.lNa * pNa)
                      - a * self.lN * pN - c * self.lNa * pNa)
            J = np.stack([e * self.G * B, f / self.G * B, m * self.S2 * B, self.S * B,
                          A * k * pNa, A * h * self.Na_over_N, a * pN, dalpha,
                          b * pD, -b * self.lD * pD, c * pNa, np.full_like(pred, eps)])
            g = J @ w
        if not (np.isfinite(v) and np.all(np.isfinite(g))):
            return BAD, np.zeros(12)
        return float(v), g


def check_grad(law, n=5, h=1e-6):
    """Max relative error of the analytic gradient vs central differences at random theta."""
    rng = np.random.default_rng(1)
    base = np.array([np.log(0.1577), np.log(7.2446), np.log(5.1395), -3.2363, np.log(0.0013),
                     np.log(0.045), np.log(38.051), 0.2383, np.log(27129.0488), 0.4694,
                     np.log(31.0958), np.log(1.8182)])
    worst = 0.0
    for _ in range(n):
        th = base + 0.1 * rng.standard_normal(12)
        _, g = law.value_and_grad(th)
        fd = np.array([(law.value(th + h * u) - law.value(th - h * u)) / (2 * h)
                       for u in np.eye(12)])
        err = np.max(np.abs(g - fd) / np.maximum(np.maximum(np.abs(g), np.abs(fd)),
                                                 1e-6 * np.linalg.norm(g)))
        print(f"check-grad: |g|={np.linalg.norm(g):.4g} max rel err={err:.3g}", file=sys.stderr)
        worst = max(worst, err)
    return worst


def run_variant(name, law, starts, bounds):
    """fd: SciPy defaults, finite-difference gradient. jac: defaults, analytic gradient.
    tight: analytic gradient and tolerances as strict as moeplan's (ftol 1e-13 relative)."""
    fun, jac = (law.value, None) if name == "fd" else (law.value_and_grad, True)
    opts = {"ftol": 1e-13, "gtol": 1e-12, "maxiter": 15000, "maxfun": 150000} if name == "tight" else {}
    best_f, best_x, conv, nfev, nit = np.inf, None, 0, 0, 0
    t0 = time.perf_counter()
    for i, th0 in enumerate(starts):
        res = minimize(fun, th0, jac=jac, method="L-BFGS-B", bounds=bounds, options=opts)
        conv += bool(res.success)
        nfev += res.nfev
        nit += res.nit
        if res.fun < best_f:
            best_f, best_x = float(res.fun), res.x
        print(f"{name} start {i}: f={res.fun:.6g} nit={res.nit} nfev={res.nfev} "
              f"success={res.success}", file=sys.stderr)
    secs = time.perf_counter() - t0
    k = len(starts)
    return {"name": name, "seconds": secs, "best_objective": best_f,
            "best_theta": [float(x) for x in best_x], "converged_starts": conv,
            "mean_nfev": nfev / k, "mean_nit": nit / k}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--variants", default="fd,jac")
    ap.add_argument("--max-starts", type=int, default=None)
    ap.add_argument("--delta", type=float, default=1e-3)
    ap.add_argument("--check-grad", action="store_true")
    args = ap.parse_args()
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    if any(v not in ("fd", "jac", "tight") for v in variants):
        ap.error("--variants takes a comma list of fd, jac, tight")
    runs = read_csv(os.path.join(args.dir, "joint_runs.csv"), RUN_COLS)
    starts = read_csv(os.path.join(args.dir, "joint_grid.csv"), PARAMS)[:args.max_starts]
    if len(starts) == 0:
        sys.exit("no starting points")
    law = JointLaw(runs, args.delta)
    out = {"scipy_version": scipy.__version__, "numpy_version": np.__version__,
           "rows": len(runs), "starts": len(starts), "delta": args.delta}
    if args.check_grad:
        out["check_grad_max_rel_err"] = check_grad(law)
    # The same box moeplan searches, when the C++ side wrote it (rows: lower, upper).
    bounds = None
    bpath = os.path.join(args.dir, "joint_bounds.csv")
    if os.path.exists(bpath):
        lo, hi = read_csv(bpath, PARAMS)[:2]
        bounds = list(zip(lo, hi))
    out["bounded"] = bounds is not None
    out["variants"] = [run_variant(v, law, starts, bounds) for v in variants]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
