#!/bin/sh
# PostgreSQL for the store's tests (tests/web: each run starts a throwaway cluster of its own
# with the system's initdb), from the system's packages. Nothing is done where a server is
# already installed or PLUNDER_TEST_POSTGRES names one. As root on Debian/Ubuntu it installs
# the `postgresql` package; elsewhere it says what to do and goes on (the PostgreSQL tests then
# fail, saying the same).
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 \
    || [ -n "${PLUNDER_TEST_POSTGRES:-}" ]; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq postgresql >/dev/null && exit 0
    echo "install-postgresql: apt-get could not install postgresql" >&2
    exit 1
fi
echo "install-postgresql: no PostgreSQL server found; install your system's postgresql package (or set PLUNDER_TEST_POSTGRES to a database URL) for the store's tests" >&2
exit 0
