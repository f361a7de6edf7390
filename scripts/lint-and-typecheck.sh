#!/usr/bin/env bash
# `npm run lint` and `npm run typecheck` side by side: each is one single-threaded process, and
# CI's machine has two cores. Both always finish; the first failure's status is the answer.
set -uo pipefail
cd "$(dirname "$0")/.."
npm run --silent lint &
lint=$!
npm run --silent typecheck
typecheck=$?
wait "$lint"
lint_status=$?
if [ "$lint_status" -ne 0 ]; then exit "$lint_status"; fi
exit "$typecheck"
