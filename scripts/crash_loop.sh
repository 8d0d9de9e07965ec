#!/usr/bin/env bash
# Crash loop for `sqsctl local --data-dir`: kills the server with SIGKILL while FIFO sends are in
# flight, restarts it, and checks that no acknowledged send was lost or doubled.
#
#   scripts/crash_loop.sh            KILLS=100 by default; build first with `cargo build`
#   KILLS=10 scripts/crash_loop.sh   the short run the test suite does
#   KEEP=1 scripts/crash_loop.sh     keeps the work directory (data, logs, acknowledged sends)
#
# Each round starts the real binary on the same data directory and SENDERS clients (default 3),
# each sending one message at a time to a FIFO queue with its own group and a dedup id of its own.
# After a random 0.1-0.6 s the server gets `kill -9`. A send that was not answered is sent again
# after the restart with the same dedup id, as a client that retries does. At the end the queue
# must hold every acknowledged message exactly once, under the message id its send was answered
# with (a retry answered from the dedup cache included), and nothing else beyond the sends still
# unanswered; a last retry of acknowledged dedup ids must answer with those same ids. Exits 1 on
# any loss, doubling or refused start; the last line says `N passed, M failed`.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN="${SQSCTL:-target/debug/sqsctl}"
KILLS="${KILLS:-100}"
SENDERS="${SENDERS:-3}"
[[ -x "$BIN" ]] || { echo "crash_loop.sh: error: $BIN not found; run 'cargo build' first" >&2; exit 1; }

work="$(mktemp -d)"
server=""
passed=0
cleanup() {
    if [[ -n "$server" ]]; then
        kill -9 "$server" 2>/dev/null
        wait "$server" 2>/dev/null
    fi
    if [[ -n "${KEEP:-}" ]]; then echo "crash_loop.sh: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
data="$work/data"
fail() {
    echo "crash_loop.sh: FAILED: $*" >&2
    echo "--- server log (last lines) ---" >&2
    tail -n 20 "$work/server.log" >&2
    echo "$passed passed, 1 failed"
    exit 1
}

# A clean environment: no profile, no real credentials.
for name in $(env | sed -n 's/^\(AWS_[A-Z_]*\)=.*/\1/p'); do unset "$name"; done
export AWS_ACCESS_KEY_ID=crash AWS_SECRET_ACCESS_KEY=crash AWS_REGION=us-east-1 NO_COLOR=1
export AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null

start_server() {
    : >"$work/endpoint"
    "$BIN" local --bind 127.0.0.1:0 --data-dir "$data" >"$work/endpoint" 2>>"$work/server.log" &
    server=$!
    local i
    for ((i = 0; i < 200; i++)); do
        if grep -q '^export AWS_ENDPOINT_URL_SQS=' "$work/endpoint"; then
            export AWS_ENDPOINT_URL_SQS
            AWS_ENDPOINT_URL_SQS="$(sed -n 's/^export AWS_ENDPOINT_URL_SQS=//p' "$work/endpoint")"
            return 0
        fi
        kill -0 "$server" 2>/dev/null || { wait "$server"; fail "the server refused to start (exit $?)"; }
        sleep 0.05
    done
    fail "the server did not start within 10 s"
}

# Writes a state file whole: a client killed while writing leaves the old content or the new.
put() {
    echo "$2" >"$1.tmp" && mv "$1.tmp" "$1"
}

# One client: sends until a send goes unanswered (or it is killed with the server). pending.N
# holds the dedup id of the send in flight, acked.N the "dedup-id message-id" of each answered
# one (twice when the client was killed between the answer and forgetting the pending id).
sender() {
    local n="$1" id out mid next
    while :; do
        id="$(cat "$work/pending.$n" 2>/dev/null)"
        if [[ -z "$id" ]]; then
            next=$(($(cat "$work/next.$n" 2>/dev/null || echo 0) + 1))
            id="s$n-$next"
            put "$work/pending.$n" "$id"
            put "$work/next.$n" "$next"
        fi
        out="$("$BIN" send q.fifo --group-id "g$n" --dedup-id "$id" "body $id" 2>/dev/null)" || return 0
        mid="$(sed -n 's/.*"message_id":"\([^"]*\)".*/\1/p' <<<"$out")"
        [[ -n "$mid" ]] || return 0
        echo "$id $mid" >>"$work/acked.$n"
        put "$work/pending.$n" ""
    done
}

export -f sender put
export BIN work
# With setsid each client runs in a process group of its own, killed with the server: a send that
# would wait out its retries against a dead server is one that was not answered. Without it
# (macOS), clients run until their retries give up, which is slower.
spawn_sender() {
    if command -v setsid >/dev/null; then
        setsid bash -c 'sender "$1"' _ "$1" &
    else
        bash -c 'sender "$1"' _ "$1" &
    fi
}

start_server
"$BIN" queue create q.fifo >/dev/null 2>&1 || fail "could not create the queue"
for ((round = 1; round <= KILLS; round++)); do
    pids=()
    for ((n = 1; n <= SENDERS; n++)); do
        spawn_sender "$n"
        pids+=($!)
    done
    sleep "0.$((RANDOM % 6 + 1))"
    kill -9 "$server"
    wait "$server" 2>/dev/null
    server=""
    if command -v setsid >/dev/null; then
        for pid in "${pids[@]}"; do kill -9 -- "-$pid" 2>/dev/null; done
    fi
    wait "${pids[@]}" 2>/dev/null
    start_server
    passed=$((passed + 1))
done

# Every send still unanswered gets its retry too, then the queue is read back.
for ((n = 1; n <= SENDERS; n++)); do
    id="$(cat "$work/pending.$n" 2>/dev/null)"
    if [[ -n "$id" ]]; then
        out="$("$BIN" send q.fifo --group-id "g$n" --dedup-id "$id" "body $id" 2>/dev/null)" || fail "the retry of $id failed"
        echo "$id $(sed -n 's/.*"message_id":"\([^"]*\)".*/\1/p' <<<"$out")" >>"$work/acked.$n"
    fi
done
cat "$work"/acked.* | sort -u >"$work/acked"
# A retry answered from the dedup cache names the message it was first answered with; the
# reading below checks that the queue holds it (and that the retry added none).
while read -r id mid; do
    n="${id%%-*}"
    out="$("$BIN" send q.fifo --group-id "g${n#s}" --dedup-id "$id" "body $id" 2>/dev/null)" || fail "the last retry of $id failed"
    got="$(sed -n 's/.*"message_id":"\([^"]*\)".*/\1/p' <<<"$out")"
    [[ "$got" == "$mid" ]] || fail "a retry of $id answered $got, not the message $mid the queue holds"
done < <(tail -n 10 "$work/acked")
# Deleted as they are read: a FIFO group hands out its next messages only then.
"$BIN" receive q.fifo --until-empty --delete --yes --visibility 3600 2>/dev/null |
    sed -n 's/.*"message_id":"\([^"]*\)".*"dedup_id":"\([^"]*\)".*/\2 \1/p' | sort >"$work/queue"
acked=$(wc -l <"$work/acked")
held=$(wc -l <"$work/queue")
doubled="$(cut -d' ' -f1 "$work/queue" | uniq -d | head -n 3)"
[[ -z "$doubled" ]] || fail "dedup ids in the queue more than once: $doubled"
missing="$(comm -23 "$work/acked" "$work/queue" | head -n 3)"
[[ -z "$missing" ]] || fail "acknowledged sends missing from the queue (dedup id, message id): $missing"
extra="$(comm -13 "$work/acked" "$work/queue" | head -n 3)"
[[ -z "$extra" ]] || fail "messages in the queue that no send was answered with: $extra"

echo "crash_loop.sh: $KILLS kills of sqsctl local during FIFO sends: $acked sends acknowledged, $held messages in the queue, none lost or doubled"
echo "$KILLS passed, 0 failed"
