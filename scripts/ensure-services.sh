#!/usr/bin/env bash
# The services the tests of the PostgreSQL mode and of shared rate limits need: PostgreSQL on
# 127.0.0.1:5432 and Redis on 127.0.0.1:6379 (or where DATABASE_URL and REDIS_URL point). Each one
# not answering is started (`service postgresql start`; `redis-server --daemonize yes`, keeping
# nothing on disk); one still not answering after that stops the run with one line. The embedded
# default (PGlite, no Redis) needs neither.
set -uo pipefail

answers() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

# host and port of a URL (default port $2)
host_port() {
  local rest=${1#*://}
  rest=${rest#*@}
  rest=${rest%%/*}
  local host=${rest%%:*} port=${rest##*:}
  [ "$port" = "$rest" ] && port=$2
  echo "$host $port"
}

wait_for() {
  local host=$1 port=$2
  for _ in $(seq 1 60); do
    answers "$host" "$port" && return 0
    sleep 1
  done
  return 1
}

ensure() {
  local name=$1 host=$2 port=$3
  shift 3
  answers "$host" "$port" && return 0
  echo "${name} is not answering on ${host}:${port}: starting it."
  "$@" >/dev/null 2>&1 || true
  if ! wait_for "$host" "$port"; then
    echo "${name} is not reachable on ${host}:${port} and could not be started: install and start it (docs/testing.md)." >&2
    return 1
  fi
}

read -r pg_host pg_port < <(host_port "${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}" 5432)
read -r redis_host redis_port < <(host_port "${REDIS_URL:-redis://127.0.0.1:6379}" 6379)
status=0
ensure PostgreSQL "$pg_host" "$pg_port" service postgresql start || status=1
# As the machine's own Redis runs: nothing kept on disk (Debian's service would save snapshots
# where it may not write, and then refuse every write).
ensure Redis "$redis_host" "$redis_port" redis-server --bind "$redis_host" --port "$redis_port" \
  --save '' --appendonly no --daemonize yes || status=1
exit "$status"
