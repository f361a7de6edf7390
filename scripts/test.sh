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

# Each lane's JSON report, read at the end for the slowest files (scripts/slowest-files.ts).
TIMES=test-times
rm -rf "$TIMES" && mkdir -p "$TIMES"
# vitest's reporters: the default one, and a JSON report named `$1` in $TIMES.
reports() { echo "--reporter=default --reporter=json --outputFile.json=${TIMES}/$1.json"; }

postgres_pass() {
  # shellcheck disable=SC2046 # the reporter options are separate words
  DATABASE_URL="$TEST_POSTGRES" npm run --silent test:postgres -- $(reports postgres)
}

# Said where the pass does not run, since the fuzz suite runs only there (vitest.config.ts).
no_postgres_pass() {
  echo "[npm test] PostgreSQL pass and the fuzz suite did not run: TEST_POSTGRES is not set"
}

# The Node production runs (.node-version, docs/operations.md "Node"): the server's tests run on
# it. Where the machine's Node is another, npm's `node` package brings it (npx; the npm registry is
# the only download), and the machine's Node still runs the server of the browser tests and the
# server tests of the PostgreSQL pass. Once, not twice: a second whole run of the server tests
# would add their 1,100 s to CI.
PRODUCTION_NODE=$(cat .node-version)

# The unit and server tests: the domain's, the page's and the whole tree's on the machine's Node,
# the server's on PRODUCTION_NODE. Both always run; a failure in either fails the phase (set -e
# does not hold inside a phase).
unit_and_server_tests() {
  local status=0
  # shellcheck disable=SC2046 # the reporter options are separate words
  npm run --silent test:unit -- --project 'domain, page and whole-tree checks' $(reports unit) ||
    status=1
  if [ "$(node -p 'process.versions.node.split(".")[0]')" = "$PRODUCTION_NODE" ]; then
    # shellcheck disable=SC2046
    npm run --silent test:unit -- --project server $(reports server) || status=1
  else
    echo "The server tests run on Node ${PRODUCTION_NODE} (the machine's is $(node --version))"
    # shellcheck disable=SC2046
    npx --yes --prefer-offline "node@${PRODUCTION_NODE}" node_modules/vitest/vitest.mjs run \
      --project server $(reports server) || status=1
  fi
  return "$status"
}

phase 'lint and types' '' scripts/lint-and-typecheck.sh
phase 'build' '' npm run --silent build
phase 'page budget' '' npm run --silent check:budget

# The slowest files of every lane that wrote its report, whatever the outcome.
slowest() { npx tsx scripts/slowest-files.ts "$TIMES" 10 || true; }
# Playwright's JSON report, beside its list (playwright.config.ts).
export E2E_JSON_REPORT="${TIMES}/browser.json"

if [ "${SERIAL:-0}" = 1 ]; then
  trap slowest EXIT
  phase 'unit and server tests' '' unit_and_server_tests
  phase 'browser tests' '' npm run --silent test:e2e
  if [ -n "${TEST_POSTGRES:-}" ]; then phase 'PostgreSQL pass' '' postgres_pass; else no_postgres_pass; fi
  exit 0
fi

browser_lane() {
  local status=0
  phase 'browser tests' browser npm run --silent test:e2e || status=1
  if [ -n "${TEST_POSTGRES:-}" ]; then
    phase 'PostgreSQL pass' postgres postgres_pass || status=1
  else
    no_postgres_pass
  fi
  return "$status"
}
browser_lane &
browser=$!
phase 'unit and server tests' unit unit_and_server_tests &
server=$!
status=0
wait "$server" || status=1
wait "$browser" || status=1
slowest
exit "$status"
