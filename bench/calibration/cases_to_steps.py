#!/usr/bin/env python3
"""Writes a steps table (`moeplan fit` --law step, docs/calibration.md) from a validation
cases file (bench/validation/cases.csv's columns): one row per benchmark row whose figure is
a step (tokens_per_gpu_s or step_s); a whole training (gpu_hours) is not a measured step and
is left out. The model, --gpus and --gpu become columns; the rest of the args the flags column.
Usage: bench/calibration/cases_to_steps.py CASES.csv > STEPS.csv"""
import csv
import re
import shlex
import sys

rows = list(csv.DictReader(open(sys.argv[1], newline="")))
out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow(["id", "split", "release", "class", "model", "gpus", "gpu", "flags", "step_seconds", "tokens_per_gpu_s"])
for r in rows:
    if r["figure"] not in ("tokens_per_gpu_s", "step_s") or r["expect"] != "run":
        continue
    words = shlex.split(r["args"])
    model, rest = words[0], words[1:]
    if model.startswith("bench/validation/"):  # beside the steps table (bench/calibration/)
        model = "../validation/" + model[len("bench/validation/"):]
    cols, flags, i = {}, [], 0
    while i < len(rest):
        w = rest[i]
        if w in ("--gpus", "--gpu", "--tokens"):
            cols[w] = rest[i + 1]
            i += 2
            continue
        flags.append(w)
        i += 1
    step = r["published"] if r["figure"] == "step_s" else ""
    tps = r["published"] if r["figure"] == "tokens_per_gpu_s" else ""
    # The software release the row was measured on (one stack): a published table's release
    # ("25.09 DGX-H100", "release-25.11-h100"), else the source it came from.
    found = re.search(r"\b(2\d\.\d\d(?:\.\d\d)?)\b", r["split"] + " " + r["source"])
    release = found.group(1) if found else r["source"].split(" ")[0]
    out.writerow([r["id"], r["split"], release, r["class"], model, cols["--gpus"], cols["--gpu"], " ".join(flags), step, tps])
