#!/usr/bin/env python3
"""Median and p99 of each benchmark in a criterion group, from criterion's own samples
(target/criterion/GROUP/NAME/new/sample.json: total time and iterations per sample).

Usage: benches/support/quantiles.py GROUP [BYTES]   e.g. terrain3d 12582912
With BYTES (what one iteration processes), also MB/s at the median.
"""
import json
import pathlib
import sys

group = pathlib.Path("target/criterion") / sys.argv[1]
size = int(sys.argv[2]) if len(sys.argv) > 2 else None
for path in sorted(group.glob("*/new/sample.json")):
    d = json.loads(path.read_text())
    per = sorted(t / i for t, i in zip(d["times"], d["iters"]))
    n = len(per)
    median = per[n // 2] if n % 2 else (per[n // 2 - 1] + per[n // 2]) / 2
    p99 = per[min(n - 1, round(0.99 * (n - 1)))]
    line = f"{path.parts[-3]:20} median {median / 1e6:9.3f} ms   p99 {p99 / 1e6:9.3f} ms   ({n} samples)"
    if size:
        line += f"   {size / (median / 1e9) / 1e6:8.0f} MB/s"
    print(line)
