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

# "MEAN MEDIAN CPU" in milliseconds for a command over $RUNS runs; CPU (user + system) is the figure
# least disturbed by other load on the machine. Without hyperfine: the mean wall time only.
measure() {
    if command -v hyperfine >/dev/null 2>&1; then
        local json
        json="$(mktemp)"
        hyperfine --shell=none --warmup 10 --runs "$RUNS" --export-json "$json" -- "$*" >/dev/null 2>&1
        field() { sed -n "s/.*\"$1\": *\([0-9.e+-]*\).*/\1/p" "$json" | head -n 1; }
        awk -v mean="$(field mean)" -v median="$(field median)" -v user="$(field user)" -v sys="$(field system)" \
            'BEGIN { printf "%.3f %.3f %.3f", mean * 1000, median * 1000, (user + sys) * 1000 }'
        rm -f "$json"
    else
        local i start end
        for ((i = 0; i < 10; i++)); do "$@" >/dev/null; done
        start=$(date +%s%N)
        for ((i = 0; i < RUNS; i++)); do "$@" >/dev/null; done
        end=$(date +%s%N)
        awk -v ns=$((end - start)) -v n="$RUNS" 'BEGIN { printf "%.3f - -", ns / n / 1e6 }'
    fi
}

tool=$(command -v hyperfine >/dev/null 2>&1 && echo hyperfine || echo "shell loop")
read -r base_mean base_median base_cpu <<<"$(measure "$BASELINE")"
read -r our_mean our_median our_cpu <<<"$(measure "$BIN" --version)"
echo "start-up ($tool, $RUNS runs; milliseconds):"
printf '  %-20s mean %8s  median %8s  cpu %8s\n' "$BASELINE" "$base_mean" "$base_median" "$base_cpu"
printf '  %-20s mean %8s  median %8s  cpu %8s\n' "sqsctl --version" "$our_mean" "$our_median" "$our_cpu"
awk -v a="$our_mean" -v b="$base_mean" 'BEGIN { printf "  ratio of means: %.1fx /bin/true (%.2f ms above it)\n", a / b, a - b }'
if [[ "$base_cpu" != "-" ]]; then
    awk -v a="$our_median" -v b="$base_median" 'BEGIN { printf "  ratio of medians: %.1fx /bin/true (%.2f ms above it)\n", a / b, a - b }'
    awk -v a="$our_cpu" -v b="$base_cpu" 'BEGIN { printf "  ratio of CPU time: %.1fx /bin/true (%.2f ms above it)\n", a / b, a - b }'
fi

start=$(date +%s%N)
if "$BIN" demo >/dev/null 2>&1; then
    end=$(date +%s%N)
    awk -v ns=$((end - start)) 'BEGIN { printf "sqsctl demo: %.1f s wall (target: under 30 s)\n", ns / 1e9 }'
else
    echo "sqsctl demo: failed (run it by hand to see why)"
fi
