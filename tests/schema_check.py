#!/usr/bin/env python3
"""The JSON Schemas of share/moeplan/schemas/ against the binary, run by CTest:

  schemas  every schema parses and is a valid draft 2020-12 schema; every number has a unit
           and a description; a section ($defs) named alike in two schemas is the same;
           `moeplan schema` lists exactly the files and prints each byte for byte; an unknown
           name exits 2 naming the known ones
  outputs  representative commands' JSON (suggest, score, fit, bench, presets, plot) validate
           against their schema (additionalProperties false: a key the schema does not describe
           fails); a single object's null number has KEY_reason beside it and no KEY_reason
           stands without its null
  man      every key a man page's output list names (snake_case words of its OUTPUT sections)
           is a key or section of that command's schema

Usage: schema_check.py WHAT MOEPLAN SOURCE_DIR   (needs python3-jsonschema, Debian 12: 4.10)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    sys.exit("schema_check: no python3 jsonschema module (Debian: apt-get install python3-jsonschema; scripts/setup.sh)")

WHAT, MOEPLAN, SRC = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
SCHEMAS = os.path.join(SRC, "share", "moeplan", "schemas")
DATA = os.path.join(SRC, "tests", "data")
failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message, file=sys.stderr)


def moeplan(*args, ok=(0,)):
    r = subprocess.run([MOEPLAN, "-q", *args], capture_output=True, text=True, cwd="/")
    if r.returncode not in ok:
        fail(f"moeplan {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()[-400:]}")
    return r


def schema_files():
    return sorted(f for f in os.listdir(SCHEMAS) if f.endswith(".schema.json"))


def load_schema(name):
    with open(os.path.join(SCHEMAS, name + ".schema.json"), encoding="utf-8") as f:
        return json.load(f)


def leaves(node, path):
    """(path, schema) of every property schema under node's properties."""
    if not isinstance(node, dict):
        return
    for key, sub in node.get("properties", {}).items():
        if sub is False:  # a key the schema forbids here (score's serving: suggest's --serve-fit keys)
            continue
        yield f"{path}.{key}", sub
        yield from leaves(sub, f"{path}.{key}")


def check_schemas():
    names = [f[: -len(".schema.json")] for f in schema_files()]
    if not names:
        fail(f"no schemas in {SCHEMAS}")
    defs_seen = {}
    for name in names:
        try:
            schema = load_schema(name)
        except (OSError, ValueError) as e:
            fail(f"{name}.schema.json does not parse: {e}")
            continue
        if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
            fail(f"{name}: $schema is not draft 2020-12")
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.SchemaError as e:
            fail(f"{name}: not a valid schema: {e.message}")
        for def_name, definition in schema.get("$defs", {}).items():
            for path, sub in leaves(definition, f"{name}#/$defs/{def_name}"):
                types = sub.get("type", [])
                types = types if isinstance(types, list) else [types]
                if "$ref" in sub or "object" in types or ("array" in types and "$ref" in sub.get("items", {})):
                    continue  # a section: its definition has the description
                if not sub.get("description"):
                    fail(f"{path}: no description")
                if ("number" in types or "integer" in types) and not sub.get("unit"):
                    fail(f"{path}: a number without a unit")
                if sub.get("unit") and sub["unit"] != "1" and f"[{sub['unit']}]" not in sub.get("description", ""):
                    fail(f"{path}: the description does not state the unit [{sub['unit']}]")
            # One meaning per section: suggest's and score's memory (say) are the same text.
            if def_name in defs_seen and defs_seen[def_name][1] != definition:
                fail(f"$defs/{def_name} differs between {defs_seen[def_name][0]} and {name}")
            defs_seen.setdefault(def_name, (name, definition))
    listed = moeplan("schema")
    got = [line.split()[0] for line in listed.stdout.splitlines() if line.strip()]
    if got != names:
        fail(f"moeplan schema lists {got}, the files are {names}")
    for name in names:
        with open(os.path.join(SCHEMAS, name + ".schema.json"), encoding="utf-8") as f:
            if moeplan("schema", name).stdout != f.read():
                fail(f"moeplan schema {name} is not share/moeplan/schemas/{name}.schema.json (rebuild?)")
    bad = moeplan("schema", "no-such-command", ok=(2,))
    if not all(n in bad.stderr for n in names) or bad.stdout:
        fail(f"moeplan schema no-such-command: stderr does not name {names}: {bad.stderr!r}")


def reasons_paired(obj, path):
    """null <-> KEY_reason in one section object (the single-object outputs)."""
    for key, value in obj.items():
        if isinstance(value, dict):
            reasons_paired(value, f"{path}.{key}")
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            for i, item in enumerate(value):
                reasons_paired(item, f"{path}.{key}[{i}]")
        elif value is None and not isinstance(obj.get(key + "_reason"), str):
            fail(f"{path}.{key} is null without {key}_reason")
        elif key.endswith("_reason") and key[: -len("_reason")] in obj and obj[key[: -len("_reason")]] is not None:
            fail(f"{path}.{key} beside a {key[: -len('_reason')]} that is not null")


def validate(command, text, label, single):
    try:
        doc = json.loads(text, parse_constant=lambda c: fail(f"{label}: {c} in the JSON"))
    except ValueError as e:
        fail(f"{label}: not JSON: {e}")
        return
    validator = jsonschema.Draft202012Validator(load_schema(command))
    def deepest(error):  # a oneOf (suggest: one plan or an array) says why each branch failed
        if not error.context:
            return [error]
        return [leaf for sub in error.context for leaf in deepest(sub)]
    errors = [leaf for e in validator.iter_errors(doc) for leaf in deepest(e)]
    if errors:  # the branch that went deepest is the one the output meant
        depth = max(len(e.absolute_path) for e in errors)
        errors = [e for e in errors if len(e.absolute_path) == depth]
    for error in errors[:10]:
        where = "/".join(str(p) for p in error.absolute_path)
        fail(f"{label}: at /{where}: {error.message[:300]}")
    if single:
        reasons_paired(doc, label)


def chinchilla_csv(tmp):
    path = os.path.join(tmp, "runs.csv")
    with open(path, "w") as f:
        f.write("N,D,loss\n")
        for n in (1e8, 3e8, 1e9, 3e9, 1e10):
            for d in (1e10, 3e10, 1e11, 3e11, 1e12):  # Hoffmann et al. 2022 Eq. 10's constants
                f.write(f"{n:.17g},{d:.17g},{1.69 + 406.4 * n**-0.34 + 410.7 * d**-0.28:.17g}\n")
    return path


def check_outputs():
    tmp = tempfile.mkdtemp(prefix="moeplan-schema-")
    runs = chinchilla_csv(tmp)
    hf = os.path.join(DATA, "hf")
    no_budget = os.path.join(tmp, "no-budget.toml")
    with open(no_budget, "w") as f:  # a preset without its [training] table: nulls with reasons
        skip = False
        for line in moeplan("presets", "show", "qwen3-30b-a3b").stdout.splitlines(keepends=True):
            if line.startswith("["):
                skip = line.startswith("[training]")
            if not skip:
                f.write(line)
    # A step profile (docs/calibration.md): its parameters and their sources in score's and
    # suggest's step_profile section, every parameter of the table there.
    profile = os.path.join(tmp, "profile.toml")
    moeplan("fit", os.path.join(SRC, "docs", "examples", "calibration", "steps.csv"), "--fit-params",
            "gemm_efficiency,attention_efficiency", "--bootstrap", "0", "--out", profile)
    cases = [
        ("suggest", ["suggest", "--flops", "1e22", "--no-bench"], True),
        ("suggest", ["suggest", "--flops", "1e22", "--gpus", "64", "--gpu", "h100", "--step-profile", profile,
                     "--no-bench"], True),
        ("score", ["score", "qwen3-30b-a3b", "--gpus", "16", "--gpu", "h100", "--step-profile", profile], False),
        ("suggest", ["suggest", "--flops", "1e20", "--no-gpu", "--bench-seconds", "0.05"], True),
        ("suggest", ["suggest", "--flops", "1e22", "--tokens", "5e11", "--no-bench"], True),
        ("suggest", ["suggest", "--flops", "1e21", "--inference-tokens", "1e13", "--no-bench"], True),
        ("suggest", ["suggest", "--flops", "1e22", "--gpus", "1024", "--gpu", "h100", "--no-bench"], True),
        ("suggest", ["suggest", "--flops", "1e23", "--gpus", "2048", "--gpu", "h800", "--precision", "fp8",
                     "--batch-ramp", "64:469e9", "--no-bench"], True),
        ("suggest", ["suggest", "--days", "10", "--gpus", "256", "--gpu", "h100", "--no-bench"], True),
        ("suggest", ["suggest", "--target-loss", "2.3", "--gpus", "256", "--gpu", "h100", "--no-bench"], True),
        ("suggest", ["suggest", "--flops", "1e22", "--serve-gpus", "8", "--serve-gpu", "h100", "--no-bench"], True),
        ("suggest", ["suggest", "--flops", "1e22", "--serve-gpus", "16", "--serve-gpu", "h100", "--serve-engine",
                     "sglang", "--serve-dp-attention", "--no-bench"], True),
        ("suggest", ["suggest", "--flops", "1e18:1e26:2", "--no-bench"], False),  # a sweep: an array
        ("score", ["score", "deepseek-v3.1", "qwen3-235b-a22b", "moe-mini"], False),
        ("score", ["score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tp", "2"], False),
        ("score", ["score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--precision", "fp8",
                   "--serve-gpus", "8", "--serve-gpu", "h100"], False),
        ("score", ["score", "deepseek-v3.1", "--serve-gpus", "16", "--serve-gpu", "h200", "--serve-weights", "fp8",
                   "--serve-mtp"], False),
        ("score", ["score", no_budget], False),
        ("score", [os.path.join(hf, f) for f in ("qwen3-next-80b-a3b.json", "jamba-v0.1.json", "gpt-oss-120b.json",
                                                 "kimi-linear-48b-a3b.json", "granite-4.0-h-small.json")], False),
        ("fit", ["fit", runs, "--starts", "10"], True),
        ("fit", ["fit", runs, "--starts", "10", "--holdout", "0.2", "--bootstrap", "4", "--seed", "3"], True),
        ("fit", ["fit", os.path.join(DATA, "moe_vs_dense_runs.csv"), "--law", "activation", "--column", "loss=BPC"], True),
        ("fit", ["fit", os.path.join(SRC, "bench", "calibration", "validation_steps.csv"), "--bootstrap", "0"], True),
        ("bench", ["bench", "moe-mini", "--no-gpu", "--seconds", "0.05"], False),
        ("bench", ["bench", "moe-mini", "qwen3-30b-a3b", "--no-gpu", "--seconds", "0.05", "--summary"], False),
        ("presets", ["presets"], True),
    ]
    for command, args, single in cases:
        if command == "score" and args[0] != "score":
            args = ["score", *args]
        label = " ".join(a.replace(tmp, "$TMP").replace(SRC, "$SRC") for a in args)
        r = moeplan(*args, "--format", "json")
        if r.returncode == 0:
            validate(command, r.stdout, label, single)
    # score's serving object: an engine that does not start (exit 3: nulls with reasons) validates;
    # one without a key score always prints, or with suggest's --serve-fit keys, does not.
    r = moeplan("score", os.path.join(hf, "kimi-k2.json"), "--serve-gpus", "8", "--serve-gpu", "h200",
                "--serve-weights", "fp8", "--serve-context", "131072", "--format", "json", ok=(3,))
    validate("score", r.stdout, "score kimi-k2 (vLLM does not start)", False)
    r = moeplan("score", "qwen3-30b-a3b", "--serve-gpus", "1", "--serve-gpu", "h100", "--format", "json")
    validator = jsonschema.Draft202012Validator(load_schema("score"))
    doc = json.loads(r.stdout)
    if list(validator.iter_errors(doc)):
        fail("score qwen3-30b-a3b --serve-gpus 1: not valid")
    for key, value, why in (("kv_cache_tokens", None, "without kv_cache_tokens"),
                            ("engine", None, "without engine"),
                            ("serve_fit_cap", 1.0, "with suggest's serve_fit_cap"),
                            ("uncapped_N", 1.0, "with suggest's uncapped_N")):
        bad = json.loads(r.stdout)
        serving = bad[0]["serving"] if isinstance(bad, list) else bad["serving"]
        if value is None:
            del serving[key]
        else:
            serving[key] = value
        if not list(validator.iter_errors(bad)):
            fail(f"score's schema takes a serving object {why}")
    for kind, extra in (("el", ["--flops", "1e22"]), ("d", ["--flops", "1e22", "--blind-ok"]),
                        ("loss-vs-compute", ["--flops", "1e22", "-m", "deepseek-v3.1"]),
                        ("overtraining", ["--flops", "1e22"]), ("frontier", ["--gpus", "1024", "--gpu", "h100"]),
                        ("step", ["moe-mini", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11"])):
        out = os.path.join(tmp, f"{kind}.json")
        if moeplan("plot", kind, *extra, "-o", out).returncode == 0:
            with open(out, encoding="utf-8") as f:
                validate("plot", f.read(), f"plot {kind}", True)


# Words of an OUTPUT list that are no key: flags' values, formulas, file names.
MAN_NOT_KEYS = {"cpu_layer_op", "gpu_layer_op", "key_reason", "hbm_driver_mib"}
# The man sections that list output keys; (SECTION, FIRST WORDS) is the paragraph of a section
# from those words to the next paragraph (.PP, .TP, .SH or a line starting with .B).
MAN_PAGES = {"suggest": ["OUTPUT", ("CLUSTER", "Output sections (data formats)"), ("SERVING", "Keys:")],
             "score": ["OUTPUT KEYS"], "fit": ["OUTPUT"], "bench": ["OUTPUT"]}


def schema_names(node, out):
    if isinstance(node, dict):
        for key in ("properties", "$defs"):
            out.update(node.get(key, {}).keys())
        for value in node.values():
            schema_names(value, out)
    return out


def man_sections(text, wanted):
    sections, current = {}, None
    for line in text.splitlines():
        if line.startswith(".SH "):
            current = line[4:].strip().strip('"')
            sections.setdefault(current, [])
        elif current:
            sections[current].append(line)
    parts = []
    for w in wanted:
        if isinstance(w, str):
            parts += sections.get(w, [])
            continue
        lines = sections.get(w[0], [])
        start = next((i for i, line in enumerate(lines) if line.startswith(w[1])), None)
        if start is None:
            fail(f"man section {w[0]} has no paragraph starting '{w[1]}'")
            continue
        for line in lines[start:]:
            if line != lines[start] and re.match(r"^\.(PP|TP|SH|B )", line):
                break
            parts.append(line)
    return "\n".join(parts)


def check_man():
    for command, wanted in MAN_PAGES.items():
        with open(os.path.join(SRC, "man", f"moeplan-{command}.1"), encoding="utf-8") as f:
            text = man_sections(f.read(), wanted).replace("\\-", "-").replace("\\(mu", "x")
        # A page may name another command's key (suggest's: "score ... gives total_params_as_built").
        names = set()
        for f in schema_files():
            names |= schema_names(load_schema(f[: -len(".schema.json")]), set())
        # Keys are snake_case with an underscore; man writes prefixes as "compute_optimal_" and
        # key groups as "cpu_/gpu_tokens_per_second": skip those fragments.
        for word in sorted(set(re.findall(r"(?<![\w\-./])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w/(-])", text))):
            if word.lower() in MAN_NOT_KEYS or word in names or word.endswith("_reason"):
                continue
            if re.match(r"^[A-Z]", word) or re.match(r"^[A-Za-z]_[A-Za-z0-9]+$", word):
                continue  # symbols such as D_opt, N_a, d_m: paper notation in prose
            fail(f"man/moeplan-{command}.1 names '{word}' in its output keys; no such key in {command}.schema.json")


{"schemas": check_schemas, "outputs": check_outputs, "man": check_man}[WHAT]()
if failures:
    print(f"{len(failures)} failure(s)", file=sys.stderr)
    sys.exit(1)
print(f"schema_check {WHAT}: ok")
