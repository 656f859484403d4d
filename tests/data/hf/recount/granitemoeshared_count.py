#!/usr/bin/env python3
"""Exact parameter count for HF `granitemoeshared` configs.

GraniteMoeShared = GraniteMoe + one always-on GraniteMoeSharedMLP per layer
(input_linear Linear(H, 2*shared_intermediate_size), output_linear
Linear(shared_intermediate_size, H), no biases; absent when
shared_intermediate_size == 0).  The counting code lives in granitemoe_count.py
(same folder), which handles both model_types; this wrapper only runs it.
Standard library only.  Usage: granitemoeshared_count.py CONFIG.json [...]
"""
import os
import runpy
import sys

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    sys.argv[0] = os.path.join(here, "granitemoe_count.py")
    runpy.run_path(sys.argv[0], run_name="__main__")
