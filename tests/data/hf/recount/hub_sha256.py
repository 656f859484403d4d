#!/usr/bin/env python3
"""Fixtures that are byte-for-byte copies of a hub file: each, less its "_source" line (the line
this project adds as the file's second), must have the size and SHA-256 of the hub file.

Usage: python3 hub_sha256.py [DIR]   (DIR: tests/data/hf; exit 1 on a mismatch)
Standard library only.  The pinned values and where they come from:
  minimax-m3.json  https://huggingface.co/MiniMaxAI/MiniMax-M3 config.json at revision
                   f0e1c1e04d40177e4673a22097036854f536e9c0: 5,254 bytes, SHA-256 c9c97ce1...
                   (MINIMAX_M3_CONFIG_BYTES, MINIMAX_M3_CONFIG_SHA256 of a Rust validator in the
                   GitHub code index that checks the downloaded file against them).
"""
import hashlib
import os
import sys

PINNED = {
    "minimax-m3.json": (5254, "c9c97ce1e4eece60012d5a10ea87717458bfb1f19c2c7a615a3dbff83d090c6b"),
}

here = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
bad = 0
for name, (size, sha) in PINNED.items():
    with open(os.path.join(here, name), "rb") as f:
        lines = f.read().split(b"\n")
    if not lines[1].lstrip().startswith(b'"_source":'):
        print(f"{name}: the second line is not its _source")
        bad = 1
        continue
    hub = b"\n".join(lines[:1] + lines[2:])
    got = (len(hub), hashlib.sha256(hub).hexdigest())
    print(f"{name}: {got[0]} bytes, sha256 {got[1]}: {'the hub file' if got == (size, sha) else 'DIFFERS'}")
    bad |= got != (size, sha)
sys.exit(bad)
