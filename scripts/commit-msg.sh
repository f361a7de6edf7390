#!/usr/bin/env bash
# The rules of a commit message (STYLE.md "A commit is a subject and a story"): a subject of at
# most 72 characters that does not end with a period, then a blank line, then a body that says
# why. `git log --oneline` is the changelog, and the body is where a reader finds the reason.
#
# Used by the commit-msg hook (.githooks/commit-msg) and by CI (scripts/check-commit-messages.sh).
# Git hands the hook the message as typed: lines that begin with the comment character and all
# below the scissors line are dropped first, as git's own cleanup drops them. Characters are
# counted, not bytes, whatever the locale.
#
# Usage: scripts/commit-msg.sh <file>   (`-` reads standard input)
# Exits 0 when the message holds to the rules, else 1 with one line saying which it breaks.
set -euo pipefail

file=${1:?usage: scripts/commit-msg.sh <commit message file, or - for standard input>}
comment=$(git config --get core.commentChar 2>/dev/null || true)
if [ -z "$comment" ] || [ "$comment" = auto ]; then comment='#'; fi

refuse() {
  echo "commit-msg: $1" >&2
  exit 1
}

# The message as git keeps it: no comment lines, nothing below the scissors, no trailing blanks.
lines=()
while IFS= read -r line || [ -n "$line" ]; do
  line=${line%$'\r'}
  if [[ $line =~ ^${comment}\ -+\ \>8\ -+$ ]]; then break; fi
  if [[ $line == "$comment"* ]]; then continue; fi
  lines+=("${line%"${line##*[![:space:]]}"}")
done < <(if [ "$file" = - ]; then cat; else cat -- "$file"; fi)

# Leading blank lines are not the subject.
first=0
while [ "$first" -lt "${#lines[@]}" ] && [ -z "${lines[$first]}" ]; do first=$((first + 1)); done
if [ "$first" -ge "${#lines[@]}" ]; then refuse 'the message is empty'; fi
subject=${lines[$first]}

# Characters: UTF-8 bytes less their continuation bytes (10xxxxxx), counted in the C locale.
characters=$(
  LC_ALL=C
  leads=${subject//[$'\x80'-$'\xbf']/}
  echo "${#leads}"
)
if [ "$characters" -gt 72 ]; then
  refuse "the subject has ${characters} characters; 72 at most, so that git log --oneline reads whole"
fi
if [[ $subject == *. ]]; then refuse 'the subject ends with a period: a subject is a title'; fi

next=$((first + 1))
if [ "$next" -lt "${#lines[@]}" ] && [ -n "${lines[$next]}" ]; then
  refuse 'the subject runs on to a second line: put a blank line after it, then the body'
fi
for ((i = next + 1; i < ${#lines[@]}; i++)); do
  if [ -n "${lines[$i]}" ]; then exit 0; fi
done
refuse 'there is no body: after the subject, a blank line, then why the change is made'
