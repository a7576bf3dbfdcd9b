#!/bin/sh
# Writes the calibration server's configuration for HOST, PORT and WORKERS and runs nginx in the
# foreground (its master process supervises WORKERS worker processes).
set -eu
prefix="${NGINX_PREFIX:-$(pwd)/build}"
mkdir -p "$prefix"
sed -e "s|@HOST@|${HOST:-127.0.0.1}|" -e "s|@PORT@|${PORT:-8080}|" -e "s|@WORKERS@|${WORKERS:-1}|" \
    -e "s|@PREFIX@|$prefix|g" "$(dirname "$0")/nginx.conf.in" > "$prefix/nginx.conf"
exec nginx -p "$prefix" -c "$prefix/nginx.conf" -e stderr
