#!/usr/bin/env bash
# Every commit new on the branch holds to the rules of a commit message (scripts/commit-msg.sh):
# npm test's lint phase runs this (scripts/lint-and-typecheck.sh), so CI refuses what the
# commit-msg hook would have refused on a machine without it. Reads the local history only: fast,
# no network. Merges are git's own messages and are not checked.
#
# Usage: scripts/check-commit-messages.sh [from]   (in the repository to check)
set -euo pipefail

# The first commit checked comes after this one: HEAD when the check was added. The history before
# it was written without the check, and is left as it is.
FROM=${1:-ee117e7e99b780cb53327957dcedf3c0a9846aa7}
check=$(dirname "$0")/commit-msg.sh

if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo 'commit messages: not checked, this copy has no git history'
  exit 0
fi
if git cat-file -e "${FROM}^{commit}" 2>/dev/null; then
  range="${FROM}..HEAD"
elif [ "$(git rev-parse --is-shallow-repository)" = true ]; then
  # A shallow clone that stops short of FROM holds only commits made after it: all are checked.
  range=HEAD
else
  echo "commit messages: ${FROM} is not in this repository's history; name the commit to start after (scripts/check-commit-messages.sh <from>)" >&2
  exit 1
fi

checked=0
refused=0
while read -r commit; do
  checked=$((checked + 1))
  if ! reason=$(git log -1 --format=%B "$commit" | "$check" - 2>&1); then
    refused=$((refused + 1))
    echo "$(git log -1 --format='%h "%s"' "$commit"): ${reason#commit-msg: }" >&2
  fi
done < <(git rev-list --no-merges "$range")

if [ "$refused" -gt 0 ]; then
  echo "commit messages: ${refused} of ${checked} break the rules (scripts/commit-msg.sh); reword them (git rebase -i ${FROM:0:7})" >&2
  exit 1
fi
echo "commit messages: ${checked} since ${FROM:0:7}, each a subject and a story"
