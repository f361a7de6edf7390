#!/usr/bin/env bash
# `npm test`: every check of the project, each phase's time printed as it ends
# (`[npm test] build: 9 s`), so a slow run says where its time went.
#
# With TEST_POSTGRES set to a PostgreSQL URL (CI sets it) the server tests run on PostgreSQL,
# each file on a copy of a migrated template database (scripts/vitest-global-setup.ts), and with
# them what needs PostgreSQL itself: the `*.postgres.test.ts` files (several server processes on
# one database) and the fuzz suite (vitest.config.ts). Without it they run on PGlite, and those
# do not run (a line says so). The embedded default, PGlite, is what the browser tests' server
# runs on, and the tests of PGlite itself (src/server/db) open it whatever the setting.
# `npm run test:postgres` runs only the tests marked for PostgreSQL, for a quick look there.
#
# The suite's work is about 1,150 s of CPU on the 2-core machine, PostgreSQL's aside (lint and
# types 200, the page's tests 100, the server's 490, the browser's 360 in Chromium's headless
# shell); each phase prints its own. Lint and types run first, beside the build and the page's
# tests: ESLint runs on one core for about three minutes, and beside both test lanes it got a
# fourteenth of one (20 minutes). The server tests start once the build is done, and the browser
# tests once lint and the page's tests are; each line is marked with its lane (`[server]`,
# `[browser]`). Both lanes wait on servers, timers and the sandbox's answers for much of their
# time.
# Every lane always finishes; a failure in any fails the run. SERIAL=1 runs every phase one after
# the other.
set -euo pipefail
cd "$(dirname "$0")/.."

# The CPU seconds the shell's finished children have used (user and system, `times`' second
# line): what a phase's processes and theirs used, browsers included; not the PostgreSQL server's.
# Set in CHILDREN_CPU: `times` must run in this shell, not a `$(…)` one (a subshell's children
# are its own).
children_cpu() {
  local file
  file=$(mktemp)
  times >"$file"
  CHILDREN_CPU=$(awk 'function sec(t, p) { sub("s$", "", t); split(t, p, "m"); return p[1] * 60 + p[2] }
    NR == 2 { printf "%d", sec($1) + sec($2) }' "$file")
  rm -f "$file"
}

# Runs a phase, its output marked with `tag` when one is given, and prints its time and the CPU
# its processes used: on the 2-core machine a lane's CPU, not its wall time, is what it costs
# the lanes beside it.
phase() {
  local name=$1 tag=$2 started=$SECONDS status=0 cpu
  shift 2
  children_cpu
  cpu=$CHILDREN_CPU
  if [ -n "$tag" ]; then
    (set -o pipefail && "$@" 2>&1 | sed -u "s/^/[${tag}] /") || status=$?
  else
    "$@" || status=$?
  fi
  children_cpu
  cpu=$((CHILDREN_CPU - cpu))
  echo "[npm test] ${name}: $((SECONDS - started)) s, ${cpu} s of CPU$([ "$status" -eq 0 ] || echo ", failed")"
  return "$status"
}

# Each lane's JSON report, read at the end for the slowest files (scripts/slowest-files.ts).
TIMES=test-times
rm -rf "$TIMES" && mkdir -p "$TIMES"
# vitest's reporters: the default one, and a JSON report named `$1` in $TIMES.
reports() { echo "--reporter=default --reporter=json --outputFile.json=${TIMES}/$1.json"; }

# The Node production runs (.node-version, docs/operations.md "Node"): the server's tests run on
# it. Where the machine's Node is another, npm's `node` package brings it (npx; the npm registry is
# the only download), and the machine's Node still runs the server of the browser tests.
PRODUCTION_NODE=$(cat .node-version)

# The domain's, the page's and the whole tree's tests, on the machine's Node.
unit_tests() {
  # shellcheck disable=SC2046 # the reporter options are separate words
  npm run --silent test:unit -- --project 'domain, page and whole-tree checks' $(reports unit)
}

# Server test files run three at a time here (two in a bare `vitest run`): CI's runs kept the
# two cores little more than half busy, the files waiting on their database, child processes and
# timers, and the server lane was the last to end. Over twenty-four route files three at a time
# took 48 s where two took 62 (four: 48 s too).
SERVER_WORKERS=${SERVER_WORKERS:-3}

# The server's tests, on PRODUCTION_NODE, on PostgreSQL where TEST_POSTGRES names one.
server_tests() {
  if [ -n "${TEST_POSTGRES:-}" ]; then
    export DATABASE_URL="$TEST_POSTGRES"
  else
    unset DATABASE_URL
    echo "[npm test] the server tests run on PGlite; *.postgres.test.ts and the fuzz suite did not run: TEST_POSTGRES is not set"
  fi
  if [ "$(node -p 'process.versions.node.split(".")[0]')" = "$PRODUCTION_NODE" ]; then
    # shellcheck disable=SC2046
    npm run --silent test:unit -- --project server --maxWorkers "$SERVER_WORKERS" $(reports server)
  else
    echo "The server tests run on Node ${PRODUCTION_NODE} (the machine's is $(node --version))"
    # shellcheck disable=SC2046
    npx --yes --prefer-offline "node@${PRODUCTION_NODE}" node_modules/vitest/vitest.mjs run \
      --project server --maxWorkers "$SERVER_WORKERS" $(reports server)
  fi
}

# The slowest files of every lane that wrote its report, whatever the outcome.
slowest() { npx tsx scripts/slowest-files.ts "$TIMES" 10 || true; }
# Playwright's JSON report, beside its list (playwright.config.ts).
export E2E_JSON_REPORT="${TIMES}/browser.json"

if [ "${SERIAL:-0}" = 1 ]; then
  trap slowest EXIT
  phase 'build' '' npm run --silent build
  phase 'page budget' '' npm run --silent check:budget
  phase 'lint and types' '' scripts/lint-and-typecheck.sh
  phase 'unit tests' '' unit_tests
  phase 'server tests' '' server_tests
  phase 'browser tests' '' npm run --silent test:e2e
  exit 0
fi

# Lint and types, and the page's tests, beside the build: after `tsc` (a minute) ESLint leaves a
# core idle for two minutes, which the page's tests fill. Each prints its own time.
phase 'lint and types' '' scripts/lint-and-typecheck.sh &
checks=$!
phase 'unit tests' unit unit_tests &
unit=$!
status=0
built=1
phase 'build' '' npm run --silent build || built=0
# The server tests start as soon as the build is there (some start the built server): they wait
# on their database, child processes and sockets for much of their time, and they are the
# longest lane, so they take what lint and the page's tests leave of the two cores.
phase 'server tests' server server_tests &
server=$!
if [ "$built" = 1 ]; then
  phase 'page budget' '' npm run --silent check:budget || status=1
else
  status=1
fi
wait "$checks" || status=1
wait "$unit" || status=1

# The browser tests run the build: without one they would only fail for want of it. They start
# once lint and the page's tests are done, beside the server tests: ESLint beside both lanes got
# a fraction of a core and ran for twenty minutes.
browser=''
if [ "$built" = 1 ]; then
  phase 'browser tests' browser npm run --silent test:e2e &
  browser=$!
else
  echo "[npm test] the page budget and the browser tests did not run: the build failed"
fi
wait "$server" || status=1
if [ -n "$browser" ]; then wait "$browser" || status=1; fi
slowest
exit "$status"
