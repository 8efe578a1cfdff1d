#!/usr/bin/env bash
# A streaming benchmark job for your CI (docs/bench.md, "In a CI job"): bake or reuse a
# world, bench a route, compare against the kept baseline, leave the results as artifacts.
# Exit status is relief bench's: 0 no regression, 1 regression, 2 bad input.
set -euo pipefail

RELIEF=${RELIEF:-relief}
WORLD=${WORLD:-bench-world}
SEED=${SEED:-relief}
SIZE=${SIZE:-4096}
ROUTE=${ROUTE:-}
SECONDS_PER_ROUTE=${BENCH_SECONDS:-8}
REPEAT=${REPEAT:-3}
BASELINE=${BASELINE:-bench-baseline.json}
OUT=${OUT:-bench-artifacts}

mkdir -p "$OUT"
if [ ! -e "$WORLD" ]; then
    echo "== baking $WORLD (seed \"$SEED\", $SIZE m)"
    "$RELIEF" bake --seed "$SEED" --size "$SIZE" --out "$WORLD"
fi

args=("$WORLD" --seconds "$SECONDS_PER_ROUTE" --repeat "$REPEAT"
      --json "$OUT/bench.json" --plot "$OUT/bench.svg")
if [ -n "$ROUTE" ]; then
    args+=(--route "$ROUTE")
fi
if [ -f "$BASELINE" ]; then
    echo "== bench, compared with $BASELINE"
    args+=(--compare "$BASELINE")
else
    echo "== bench (no baseline at $BASELINE: this run becomes it)"
fi

status=0
"$RELIEF" bench "${args[@]}" 2>&1 | tee "$OUT/bench.txt" || status=${PIPESTATUS[0]}
if [ "$status" -eq 0 ] && [ ! -f "$BASELINE" ]; then
    mkdir -p "$(dirname "$BASELINE")"
    cp "$OUT/bench.json" "$BASELINE"
    echo "== kept $BASELINE"
fi
case $status in
    0) echo "== no regression; artifacts in $OUT" ;;
    1) echo "== REGRESSION (or the run failed): see $OUT/bench.txt; artifacts in $OUT" ;;
    *) echo "== bad input (exit $status): see $OUT/bench.txt" ;;
esac
exit "$status"
