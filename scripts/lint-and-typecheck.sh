#!/usr/bin/env bash
# `npm run lint` and `npm run typecheck` side by side: each is one single-threaded process, and
# CI's machine has two cores. Then the commit messages new on the branch (a second at most: they
# are read from the local history). All always finish; the first failure's status is the answer.
set -uo pipefail
cd "$(dirname "$0")/.."
npm run --silent lint &
lint=$!
npm run --silent typecheck
typecheck=$?
wait "$lint"
lint_status=$?
scripts/check-commit-messages.sh
messages=$?
if [ "$lint_status" -ne 0 ]; then exit "$lint_status"; fi
if [ "$typecheck" -ne 0 ]; then exit "$typecheck"; fi
exit "$messages"
