#!/usr/bin/env bash
# `npm test`: every check of the project but the PostgreSQL pass, cheapest first, each phase's
# time printed as it ends (`[npm test] build: 9 s`), so a slow run says where its time went.
set -euo pipefail
cd "$(dirname "$0")/.."
phase() {
  local name=$1 started=$SECONDS
  shift
  "$@"
  echo "[npm test] ${name}: $((SECONDS - started)) s"
}
phase 'lint and types' scripts/lint-and-typecheck.sh
phase 'build' npm run --silent build
phase 'page budget' npm run --silent check:budget
phase 'unit and server tests' npm run --silent test:unit
phase 'browser tests' npm run --silent test:e2e
