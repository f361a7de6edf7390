#!/usr/bin/env bash
# The server tests whose outcome PostgreSQL can change, run on PostgreSQL (DATABASE_URL, default
# the local server). Every test runs on PGlite in `npm test`; this pass adds what differs there:
# row locks and concurrent statements, LISTEN/NOTIFY across connections, several processes on one
# database, the migrations, SQL written for PostgreSQL itself, and the fuzz suite as a smoke test
# of every route. A file joins with a `// @module-tag postgres` line, a single test with
# `{ tags: ['postgres'] }`; the files are found by those marks, and vitest's tag filter runs only
# the marked tests in them.
set -euo pipefail
cd "$(dirname "$0")/.."
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
mapfile -t files < <(grep -rlE "@module-tag postgres|tags: \['postgres'\]" src --include='*.test.ts' | sort)
if [ "${#files[@]}" -eq 0 ]; then
  echo "No test is marked for PostgreSQL." >&2
  exit 1
fi
exec npx vitest run --tags-filter=postgres "$@" "${files[@]}"
