#!/usr/bin/env bash
# `npm test`: every check of the project, cheapest first, each phase's time printed as it ends
# (`[npm test] build: 9 s`), so a slow run says where its time went. With TEST_POSTGRES set to a
# PostgreSQL URL (CI sets it) the PostgreSQL pass runs too (scripts/test-postgres.sh).
#
# After the build, the tests run in two lanes side by side, each line marked with its phase
# (`[unit]`, `[postgres]`, `[browser]`): the unit and server tests, and the browser tests then the
# PostgreSQL pass (in CI the browser tests ended first: 753 s against the unit run's 1,100). A
# browser test spends much of its time waiting on the server, a timer or the sandbox's answers,
# and the browser tests alone left a 2-core machine's cores about half idle; the server tests
# fill them. Both lanes always finish; a failure in either fails the run. SERIAL=1 runs every
# phase one after the other.
set -euo pipefail
cd "$(dirname "$0")/.."

# Runs a phase, its output marked with `tag` when one is given, and prints its time.
phase() {
  local name=$1 tag=$2 started=$SECONDS status=0
  shift 2
  if [ -n "$tag" ]; then
    (set -o pipefail && "$@" 2>&1 | sed -u "s/^/[${tag}] /") || status=$?
  else
    "$@" || status=$?
  fi
  echo "[npm test] ${name}: $((SECONDS - started)) s$([ "$status" -eq 0 ] || echo ", failed")"
  return "$status"
}

postgres_pass() {
  DATABASE_URL="$TEST_POSTGRES" npm run --silent test:postgres
}

phase 'lint and types' '' scripts/lint-and-typecheck.sh
phase 'build' '' npm run --silent build
phase 'page budget' '' npm run --silent check:budget

if [ "${SERIAL:-0}" = 1 ]; then
  phase 'unit and server tests' '' npm run --silent test:unit
  phase 'browser tests' '' npm run --silent test:e2e
  if [ -n "${TEST_POSTGRES:-}" ]; then phase 'PostgreSQL pass' '' postgres_pass; fi
  exit 0
fi

browser_lane() {
  local status=0
  phase 'browser tests' browser npm run --silent test:e2e || status=1
  if [ -n "${TEST_POSTGRES:-}" ]; then phase 'PostgreSQL pass' postgres postgres_pass || status=1; fi
  return "$status"
}
browser_lane &
browser=$!
phase 'unit and server tests' unit npm run --silent test:unit &
server=$!
status=0
wait "$server" || status=1
wait "$browser" || status=1
exit "$status"
