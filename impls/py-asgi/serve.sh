#!/bin/sh
# Starts the app with the server of one variant; reads HOST, PORT and WORKERS.
# Usage: serve.sh uvicorn | serve.sh granian
# The servers' flags are those of py-fastapi and py-blacksheep, the entries this one is the baseline of.
set -eu
cd "$(dirname "$0")"
host=${HOST:-0.0.0.0}
port=${PORT:-8080}
workers=${WORKERS:-1}
case "${1:-${VARIANT:-}}" in
  uvicorn)
    exec .venv/bin/uvicorn app:app --host "$host" --port "$port" --workers "$workers" \
      --loop uvloop --http httptools --no-access-log --log-level warning ;;
  granian)
    exec .venv/bin/granian --interface asgi --host "$host" --port "$port" --workers "$workers" \
      --loop uvloop --http 1 --no-access-log --log-level warning app_orjson:app ;;
  *)
    echo "serve.sh: unknown variant '${1:-}', expected uvicorn or granian" >&2
    exit 2 ;;
esac
