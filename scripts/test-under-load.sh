#!/usr/bin/env bash
# `npm test` on a busy machine: beside it, LOAD_PROCESSES (default 2) processes that each keep one
# core busy for the whole run (on the 2-core machine, a load average of about 2 more than the
# tests' own), stopped when the run ends however it ends. Prints the run's time, and the load
# average seen at its end. Arguments go to `npm test`'s scripts unchanged (none are needed).
set -uo pipefail
cd "$(dirname "$0")/.."
count=${LOAD_PROCESSES:-2}
pids=()
stop_load() { [ "${#pids[@]}" -gt 0 ] && kill "${pids[@]}" 2>/dev/null; }
trap stop_load EXIT
for _ in $(seq 1 "$count"); do
  node -e 'for (;;) {}' &
  pids+=($!)
done
echo "[under load] ${count} busy processes beside npm test"
started=$SECONDS
npm test "$@"
status=$?
echo "[under load] npm test ended with ${status} after $((SECONDS - started)) s; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
