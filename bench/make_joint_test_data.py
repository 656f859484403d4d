#!/usr/bin/python3
"""Write synthetic joint_runs.csv / joint_grid.csv for testing bench/fit_scipy.py.

Usage: make_joint_test_data.py OUT_DIR

Losses come from the published joint-law coefficients on a deterministic grid of
runs (446 of the 576 combinations, chosen with numpy seed 0), with 0.5% multiplicative
Gaussian noise; the starting grid is alpha x beta x log_a (27 starts).
"""
import itertools
import os
import sys

import numpy as np

PUB = dict(e=0.1577, f=7.2446, m=5.1395, n=-3.2363, k=0.0013, h=0.0450, a=38.0510,
           alpha=0.2383, b=27129.0488, beta=0.4694, c=31.0958, eps=1.8182)
NAMES = ["log_e", "log_f", "log_m", "n", "log_k", "log_h", "log_a", "alpha",
         "log_b", "beta", "log_c", "log_epsilon"]


def law(N, Na, D, G, S, p=PUB):
    A = p["e"] * G + p["f"] / G + p["m"] * S**2 + p["n"] * S
    B = N**-p["alpha"] + p["k"] * Na**-p["alpha"] + p["h"] * Na / N
    return (A * B + p["a"] * N**-p["alpha"] + p["b"] * D**-p["beta"]
            + p["c"] * Na**-p["alpha"] + p["eps"])


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rows = [(na * r, na, d, g, s)
            for na in (48e6, 99e6, 181e6, 476e6) for r in (2.7, 5, 10, 19)
            for d in (1e10, 2e10, 5e10) for g in (2.5, 5, 10, 20) for s in (0, 0.2, 0.4)]
    rng = np.random.default_rng(0)
    X = np.array(rows)[np.sort(rng.choice(len(rows), 446, replace=False))]
    loss = law(*X.T) * (1 + 0.005 * rng.standard_normal(len(X)))
    with open(os.path.join(out, "joint_runs.csv"), "w") as fh:
        fh.write("# synthetic: published coefficients, 0.5% noise, seed 0\n")
        fh.write("N,N_a,D,G,S,loss\n")
        for x, y in zip(X, loss):
            fh.write(",".join(f"{v:.10g}" for v in (*x, y)) + "\n")
    fixed = dict(log_e=-2, log_f=2, log_m=1, n=-1, log_k=-6, log_h=-3, log_b=8,
                 log_c=3, log_epsilon=0.5)
    with open(os.path.join(out, "joint_grid.csv"), "w") as fh:
        fh.write(",".join(NAMES) + "\n")
        for al, be, la in itertools.product((0.2, 0.35, 0.5), (0.2, 0.35, 0.5), (0, 3, 6)):
            row = dict(fixed, alpha=al, beta=be, log_a=la)
            fh.write(",".join(f"{row[k]:g}" for k in NAMES) + "\n")
    print(f"wrote {len(X)} runs and 27 starts to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
