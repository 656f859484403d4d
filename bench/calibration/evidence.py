#!/usr/bin/env python3
"""Writes docs/calibration-evidence.md: how well a step profile fitted on some measured runs
predicts others (issue 49, docs/calibration.md). A benchmark script, not a test: it runs the
built binary on the steps tables of this folder and prints markdown.

1. Leave-one-out over the benchmark rows of docs/validation.md (validation_steps.csv): each
   row predicted from a profile fitted on all the others, and on the others of its own GPU
   kind only; the error before (the defaults) and after, per class.
2. The same within each release and GPU kind of same_release_steps.csv (one software stack).
3. The practical case: within one family (model_type) on one GPU kind, a profile fitted on
   every pair of runs predicts the rest; every pair reported.
5. Training steps measured on one H200, each term's kernel time with
   them (docs/measurements/h200-2026-11-29/steps.csv): each stack's runs fitted with and
   without memory_bound_scale, each run in and left out.

Usage: bench/calibration/evidence.py [MOEPLAN] > docs/calibration-evidence.md (repo root)."""
import csv
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/moeplan")
HERE = "bench/calibration"
FAMILY = {"llama": "llama", "qwen3": "qwen3_moe", "deepseek": "deepseek_v3", "gpt-oss": "gpt_oss"}


def family(model):
    name = os.path.basename(model)
    for k, v in FAMILY.items():
        if name.startswith(k):
            return v
    return name


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def fit(rows, holdout=None, extra=()):
    """Runs `moeplan fit` on rows (dicts); returns {id: run section}, the step_fit section."""
    fields = list(rows[0].keys()) + (["holdout"] if holdout is not None else [])
    with tempfile.NamedTemporaryFile("w", suffix=".csv", dir=HERE, delete=False, newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        for r in rows:
            row = dict(r)
            if holdout is not None:
                row["holdout"] = "1" if r["id"] in holdout else "0"
            w.writerow(row)
        name = f.name
    try:
        args = [BIN, "fit", name, "--law", "step", "--bootstrap", "0", "--format", "json", *extra]
        if holdout is not None:
            args += ["--holdout", "holdout"]
        p = subprocess.run(args, capture_output=True, text=True)
        if p.returncode != 0:
            return None, p.stderr.strip().splitlines()[-1]
        d = json.loads(p.stdout)
        d["step_fit"]["parameter_values"] = {q["name"]: q["value"] for q in d["parameter"]}
        runs = {}
        for run, r in zip(d["run"], rows):
            runs[r["id"]] = run
        return runs, d["step_fit"]
    finally:
        os.unlink(name)


def err(ratio):
    return ratio - 1


def fmt_err(e):
    return "–" if e is None else f"{100 * e:+.0f} %"


def fmt_abs(e):
    return "–" if e is None else f"{100 * e:.0f} %"


def med_abs(v):
    v = [abs(x) for x in v if x is not None]
    return statistics.median(v) if v else None


def usable(rows):
    good, bad = [], []
    for r in rows:
        runs, why = fit([r])
        (good if runs else bad).append((r, why))
    return [r for r, _ in good], bad


def loo_table(rows, title, group_key, group_label):
    """Leave-one-out over all rows and within each group."""
    out = [f"### {title}", ""]
    runs_all, s = fit(rows)
    within = {}
    for key, grp in itertools.groupby(sorted(rows, key=group_key), key=group_key):
        grp = list(grp)
        if len(grp) < 2:
            continue
        g, _ = fit(grp)
        within.update({i: r for i, r in g.items()})
    out.append(f"| id | class | model | GPU | split | defaults | left out (all) | left out ({group_label}) |")
    out.append("|---|---|---|---|---|---|---|---|")
    by_class = {}
    for r in rows:
        run = runs_all[r["id"]]
        d = err(run["speed_ratio_default"])
        a = err(run["speed_ratio_left_out"]) if run["speed_ratio_left_out"] is not None else None
        w = within.get(r["id"])
        g = err(w["speed_ratio_left_out"]) if w and w["speed_ratio_left_out"] is not None else None
        by_class.setdefault(r["class"], []).append((d, a, g))
        out.append(f"| {r['id']} | {r['class']} | {os.path.basename(r['model'])} | {r['gpu']} | {r['split']} | "
                   f"{fmt_err(d)} | {fmt_err(a)} | {fmt_err(g)} |")
    out += ["", "Median absolute error of the predicted speed, per class:", "",
            f"| class | runs | defaults | left out (all) | left out ({group_label}) |", "|---|---|---|---|---|"]
    for c, v in sorted(by_class.items()) + [("all", [x for v in by_class.values() for x in v])]:
        out.append(f"| {c} | {len(v)} | {fmt_abs(med_abs([x[0] for x in v]))} | {fmt_abs(med_abs([x[1] for x in v]))} | "
                   f"{fmt_abs(med_abs([x[2] for x in v]))} |")
    out.append("")
    out.append(f"Fit on all of them: parameters {', '.join(s['parameters'])}; "
               f"band {s['band_speed_ratio_min']:.3g}-{s['band_speed_ratio_max']:.3g} ({s['band_source']}).")
    out.append("")
    return out


def pairs_table(rows, heading, key, name):
    out = [heading, "",
           "Each pair of runs of a group fits a profile (the default parameters: the "
           "GEMM efficiency of each precision the pair uses); every other run of the group is predicted with it. "
           "Error = predicted speed / measured speed - 1.", ""]
    all_errors, summary = [], []
    for k, grp in itertools.groupby(sorted(rows, key=key), key=key):
        grp = list(grp)
        if len(grp) < 3:
            continue
        fam, gpu = k[0], k[1]
        out += [f"### {name(k)} ({len(grp)} runs: {', '.join(r['id'] for r in grp)})", "",
                "| pair | predicted runs (error) | median abs. error | max abs. error |", "|---|---|---|---|"]
        errors = []
        for a, b in itertools.combinations(grp, 2):
            rest = [r["id"] for r in grp if r is not a and r is not b]
            runs, why = fit(grp, holdout=set(rest))
            if runs is None:
                out.append(f"| {a['id']}+{b['id']} | fit failed: {why} | | |")
                continue
            e = [err(runs[i]["speed_ratio_fitted"]) for i in rest]
            errors += e
            out.append(f"| {a['id']}+{b['id']} | " + ", ".join(f"{i} {fmt_err(x)}" for i, x in zip(rest, e)) +
                       f" | {fmt_abs(med_abs(e))} | {fmt_abs(max(abs(x) for x in e))} |")
        all_errors += errors
        within10 = sum(abs(x) <= 0.10 for x in errors)
        within20 = sum(abs(x) <= 0.20 for x in errors)
        summary.append(f"| {name(k)} | {len(grp)} | {len(errors)} | {fmt_abs(med_abs(errors))} | "
                       f"{fmt_abs(max(abs(x) for x in errors))} | {within10} | {within20} |")
        out.append("")
    head = ["| group | runs | predictions | median abs. error | max abs. error | within ±10 % | within ±20 % |",
            "|---|---|---|---|---|---|---|"]
    tot = (f"| all | | {len(all_errors)} | {fmt_abs(med_abs(all_errors))} | "
           f"{fmt_abs(max(abs(x) for x in all_errors))} | {sum(abs(x) <= 0.1 for x in all_errors)} | "
           f"{sum(abs(x) <= 0.2 for x in all_errors)} |")
    return out, head + summary + [tot]


GPU_STEPS = "docs/measurements/h200-2026-11-29"
GPU_PARAMS = "gemm_efficiency,hbm_efficiency,attention_efficiency"


def gpu_steps_section():
    """Section 5: the H200's measured steps, each stack fitted on its own runs."""
    rows = read(f"{GPU_STEPS}/steps.csv")
    for r in rows:  # the table's model paths are read beside it; the fit's copy lives elsewhere
        r["model"] = os.path.normpath(os.path.join(GPU_STEPS, r["model"]))
    stacks = [("compiled (torch.compile)", [r for r in rows if "-compiled-" in r["id"]]),
              ("eager, routed experts by grouped_mm, and dense",
               [r for r in rows if "-compiled-" not in r["id"] and "-loop-" not in r["id"]])]
    out = ["## 5. Training steps measured on one H200, terms included", "",
           f"PyTorch steps of Granite 3.0 and TinyLlama shapes on one H200 ({GPU_STEPS}, bench/gpu_training_step.py), "
           "each with its kernels' GPU time by term; the runs whose time is the host's (one matmul per expert from "
           "Python) are not fitted. Each stack is fitted on its own runs, with "
           f"`--fit-params {GPU_PARAMS}` and with memory_bound_scale added. Error = predicted speed / measured "
           "speed - 1.", ""]
    for name, grp in stacks:
        out += [f"### {name}", "", "| run | defaults | fitted, 3 parameters | left out | fitted, 4 | left out |",
                "|---|---|---|---|---|---|"]
        fits = [fit(grp, extra=("--fit-params", params)) for params in (GPU_PARAMS, GPU_PARAMS + ",memory_bound_scale")]
        for r in grp:
            cells = [fmt_err(err(fits[0][0][r["id"]]["speed_ratio_default"]))]
            for runs, _ in fits:
                run = runs[r["id"]]
                left = run["speed_ratio_left_out"]
                cells += [fmt_err(err(run["speed_ratio_fitted"])), fmt_err(err(left) if left is not None else None)]
            out.append(f"| {r['id']} | " + " | ".join(cells) + " |")
        out.append("")
        for (runs, s), label in zip(fits, ("3 parameters", "4 parameters")):
            values = ", ".join(f"{k} {v:.3g}" for k, v in s["parameter_values"].items())
            out.append(f"{label}: {values}; median left-out error "
                       f"{fmt_abs(med_abs([err(x['speed_ratio_left_out']) for x in runs.values() if x['speed_ratio_left_out'] is not None]))}"
                       f"{'; ' + '; '.join(s['warnings']) if s.get('warnings') else ''}.")
            out.append("")
    return out


def main():
    validation = read(f"{HERE}/validation_steps.csv")
    release = read(f"{HERE}/same_release_steps.csv")
    release_ok, release_bad = usable(release)
    lines = ["<!-- Generated by bench/calibration/evidence.py from bench/calibration/*.csv; do not edit. -->",
             "# Calibration evidence (issue 49)", "",
             "What a step profile fitted on measured runs does to the predictions of other runs. "
             "Error = predicted speed / measured speed - 1 (> 0: moeplan too fast). How the profiles are fitted: "
             "[calibration.md](calibration.md).", ""]
    lines += ["## 1. Leave-one-out over the benchmark rows of docs/validation.md", ""]
    lines += loo_table(validation, "Benchmark rows (bench/calibration/validation_steps.csv)", lambda r: r["gpu"],
                       "same GPU kind")
    lines += ["## 2. Leave-one-out within one release and GPU kind (one software stack)", "",
              "Megatron-Bridge's published performance tables, one release at a time (bench/validation/"
              "same_release.csv; first predictions recorded there before any change)."]
    if release_bad:
        lines += ["Runs moeplan cannot lay out, left out: " +
                  "; ".join(f"{r['id']} ({why.split(': ', 1)[1]})" for r, why in release_bad) + ".", ""]
    lines += loo_table(release_ok, "Same-release rows (bench/calibration/same_release_steps.csv)", lambda r: r["split"],
                       "same release and GPU kind")
    everything = validation + release_ok
    stack, stack_summary = pairs_table(
        everything, "## 3. One stack: one family, GPU kind and release; every pair calibrates, the rest is predicted",
        lambda r: (family(r["model"]), r["gpu"], r["release"]), lambda k: f"{k[0]} on {k[1]}, release {k[2]}")
    pairs, summary = pairs_table(
        everything, "## 4. One family on one GPU kind, any release: every pair calibrates, the rest is predicted",
        lambda r: (family(r["model"]), r["gpu"]), lambda k: f"{k[0]} on {k[1]}")
    lines += ["## Summary of the pair calibrations", "", "One stack (section 3):", ""] + stack_summary
    lines += ["", "One family and GPU kind, releases mixed (section 4):", ""] + summary + [""] + stack + pairs
    lines += gpu_steps_section()
    print("\n".join(lines))


main()
