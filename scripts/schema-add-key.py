#!/usr/bin/env python3
"""Adds (or replaces) one key of a section in every JSON Schema of share/moeplan/schemas/ that
defines that section, so a section shared by several commands (suggest's and score's
step_time, memory, cluster, serving, ...) keeps one text in all of them:

  scripts/schema-add-key.py SECTION KEY TYPE UNIT DESCRIPTION [--after KEY]

TYPE: number | integer | string | boolean | array (of strings). UNIT: for numbers, e.g. s, GiB,
ms, tokens, FLOPs, or 1 for a pure number (ratio, fraction, count); "-" for other types.
The description gets " [UNIT]" appended for a number with a unit other than 1. Example, a
step-time term:

  scripts/schema-add-key.py step_time host number s "host-side time not hidden behind the GPU" --after pipeline
"""
import argparse
import json
import os
import sys

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("section")
parser.add_argument("key")
parser.add_argument("type", choices=["number", "integer", "string", "boolean", "array"])
parser.add_argument("unit")
parser.add_argument("description")
parser.add_argument("--after", help="place the key after this one (default: last)")
a = parser.parse_args()

if a.type in ("number", "integer") and a.unit in ("", "-"):
    sys.exit("schema-add-key: a number needs a unit (1 for a pure number)")
leaf = {"type": [a.type, "null"]}
if a.type == "array":
    leaf["items"] = {"type": "string"}
if a.type in ("number", "integer"):
    leaf["unit"] = a.unit
    leaf["description"] = a.description + ("" if a.unit == "1" else f" [{a.unit}]")
else:
    leaf["description"] = a.description

folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "share", "moeplan", "schemas")
changed = []
for name in sorted(os.listdir(folder)):
    if not name.endswith(".schema.json"):
        continue
    path = os.path.join(folder, name)
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    section = schema.get("$defs", {}).get(a.section)
    if section is None or "properties" not in section:
        continue
    props = section["properties"]
    props.pop(a.key, None)
    if a.after and a.after not in props:
        sys.exit(f"schema-add-key: {name}: {a.section} has no key '{a.after}'")
    items = list(props.items())
    at = len(items) if not a.after else [k for k, _ in items].index(a.after) + 1
    items.insert(at, (a.key, leaf))
    section["properties"] = dict(items)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(schema, f, indent=2, ensure_ascii=False)
        f.write("\n")
    changed.append(name)
if not changed:
    sys.exit(f"schema-add-key: no schema defines a section '{a.section}'")
print("schema-add-key: " + ", ".join(changed) + " (rebuild: the schemas are embedded)")
