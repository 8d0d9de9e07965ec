#!/usr/bin/env bash
# Size and start-up time of the release binary, against /bin/true measured in the same run, and the
# wall time of `sqsctl demo` (target: under 30 s).
#
#   scripts/startup.sh [BINARY]     default: target/release/sqsctl (build it with `cargo build --release`)
#
# Start-up is `sqsctl --version` (argument parsing, no runtime, no network), averaged over RUNS runs
# (default 100) after 10 warm-up runs. hyperfine is used when installed; otherwise a shell loop,
# whose own fork/exec cost is the same for both commands and is reported as the baseline.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN="${1:-target/release/sqsctl}"
RUNS="${RUNS:-100}"
BASELINE=/bin/true

[[ -x "$BIN" ]] || { echo "startup.sh: error: $BIN not found; run 'cargo build --release' first" >&2; exit 1; }

bytes=$(stat -c %s "$BIN")
echo "binary: $BIN"
echo "version: $("$BIN" --version)"
awk -v b="$bytes" 'BEGIN { printf "size: %d bytes (%.1f MiB)\n", b, b / 1048576 }'

# Mean wall time of a command in milliseconds, over $RUNS runs.
mean_ms() {
    if command -v hyperfine >/dev/null 2>&1; then
        local json
        json="$(mktemp)"
        hyperfine --shell=none --warmup 10 --runs "$RUNS" --export-json "$json" -- "$*" >/dev/null 2>&1
        sed -n 's/.*"mean": *\([0-9.e+-]*\).*/\1/p' "$json" | head -n 1 | awk '{ printf "%.3f", $1 * 1000 }'
        rm -f "$json"
    else
        local i start end
        for ((i = 0; i < 10; i++)); do "$@" >/dev/null; done
        start=$(date +%s%N)
        for ((i = 0; i < RUNS; i++)); do "$@" >/dev/null; done
        end=$(date +%s%N)
        awk -v ns=$((end - start)) -v n="$RUNS" 'BEGIN { printf "%.3f", ns / n / 1e6 }'
    fi
}

tool=$(command -v hyperfine >/dev/null 2>&1 && echo hyperfine || echo "shell loop")
base=$(mean_ms "$BASELINE")
ours=$(mean_ms "$BIN" --version)
echo "start-up ($tool, mean of $RUNS runs):"
echo "  $BASELINE:            $base ms"
echo "  sqsctl --version:     $ours ms"
awk -v a="$ours" -v b="$base" 'BEGIN { printf "  ratio: %.1fx /bin/true, %.2f ms above it\n", a / b, a - b }'

start=$(date +%s%N)
if "$BIN" demo >/dev/null 2>&1; then
    end=$(date +%s%N)
    awk -v ns=$((end - start)) 'BEGIN { printf "sqsctl demo: %.1f s wall (target: under 30 s)\n", ns / 1e9 }'
else
    echo "sqsctl demo: failed (run it by hand to see why)"
fi
