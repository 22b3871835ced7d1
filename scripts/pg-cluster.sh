#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests and the bench, on 127.0.0.1 only.
#   scripts/pg-cluster.sh start   initdb (first time) and start; prints the URL to export as TEST_STORE
#   scripts/pg-cluster.sh stop    stop it (the data stays under $PG_DIR until `destroy`)
#   scripts/pg-cluster.sh destroy stop and delete the data
#   scripts/pg-cluster.sh url     print the URL
# PG_DURABLE=1 starts it with fsync and synchronous commit on (see launch). PG_PORT (default 54329) and PG_DIR (default /tmp/platform-emulator-pg-$PG_PORT) move it. PG_PORT=free takes a
# free port (CI: two runs on one machine must not collide; give PG_DIR then, and read the port from the URL).
# With `free`, a port taken between the pick and the server's bind is picked again (a few times).
# Run as root, the server runs as the `postgres` user (PostgreSQL refuses to run as root).
set -euo pipefail
PG_PORT="${PG_PORT:-54329}"
FREE_PORT=0
if [ "$PG_PORT" = free ]; then
  FREE_PORT=1
  [ -n "${PG_DIR:-}" ] || { echo "pg-cluster: PG_PORT=free needs PG_DIR" >&2; exit 2; }
fi
PG_DIR="${PG_DIR:-/tmp/platform-emulator-pg-$PG_PORT}"
PG_BIN="${PG_BIN:-}"
if [ -z "$PG_BIN" ]; then
  # Debian keeps the server binaries off PATH, under /usr/lib/postgresql/<version>/bin.
  PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
  [ -n "$PG_BIN" ] || PG_BIN="$(dirname "$(readlink -f "$(command -v pg_ctl || echo /nonexistent)")")"
fi
[ -x "$PG_BIN/pg_ctl" ] || { echo "pg-cluster: no PostgreSQL binaries found (install the postgresql package)" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$(printf '%q ' "$@")"; else "$@"; fi
}

url() { echo "postgres://emulator:emulator@127.0.0.1:$PG_PORT/emulator"; }

# A port the kernel hands out for 127.0.0.1 now (Node is there: npm runs the tests).
pick_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# The tests' cluster trades durability for speed; PG_DURABLE=1 keeps PostgreSQL's shipped defaults (fsync and
# synchronous commit on), for the bench figures a real deployment would see.
launch() {
  local durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  [ "${PG_DURABLE:-0}" = 1 ] && durability=""
  as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR" -l "$PG_DIR/server.log" -w start \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR -c max_connections=400 $durability" >/dev/null
}

start() {
  if [ ! -f "$PG_DIR/PG_VERSION" ]; then
    mkdir -p "$PG_DIR"
    [ "$(id -u)" = 0 ] && chown postgres: "$PG_DIR"
    pwfile="$PG_DIR.pw"; echo emulator > "$pwfile"; [ "$(id -u)" = 0 ] && chown postgres: "$pwfile"
    # trust on a loopback-only throwaway cluster: password hashing per connection only slows the tests down.
    as_owner "$PG_BIN/initdb" -D "$PG_DIR" -U emulator --pwfile="$pwfile" -A trust --no-sync >/dev/null
    rm -f "$pwfile"
  fi
  if as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR" status >/dev/null 2>&1; then
    # Already running (a second `start`): its port is the one in its pid file (line 4).
    [ "$FREE_PORT" = 0 ] || PG_PORT="$(sed -n 4p "$PG_DIR/postmaster.pid")"
  elif [ "$FREE_PORT" = 1 ]; then
    local tries=0
    until PG_PORT="$(pick_port)" && launch; do
      tries=$((tries + 1))
      [ "$tries" -lt 5 ] || { echo "pg-cluster: no free port after 5 tries (see $PG_DIR/server.log)" >&2; exit 1; }
    done
  else
    launch
  fi
  PGPASSWORD=emulator "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U emulator -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname = 'emulator'" | grep -q 1 ||
    PGPASSWORD=emulator "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U emulator emulator
  url
}

stop() { as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR" -m fast stop >/dev/null 2>&1 || true; }

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  destroy) stop; rm -rf "$PG_DIR" ;;
  url)
    [ "$FREE_PORT" = 0 ] || PG_PORT="$(sed -n 4p "$PG_DIR/postmaster.pid")"
    url ;;
  *) echo "usage: $0 start|stop|destroy|url" >&2; exit 2 ;;
esac
