#!/bin/sh
# What the test suite needs beyond Python, from the system's packages: Chromium for the browser
# tests (tests/web/browser; Playwright's own browser download is not used) and PostgreSQL for
# the store's tests (tests/web: each run starts a throwaway cluster of its own with initdb), and
# nginx for the test of the documented deployment behind a reverse proxy (tests/web/test_proxy.py).
# Nothing is installed that is already there (or named by PLUNDER_CHROMIUM /
# PLUNDER_TEST_POSTGRES). As root on Debian/Ubuntu the missing packages are installed with
# apt-get; elsewhere it says what to do and goes on (those tests then fail, saying the same).
missing=""
if ! command -v chromium >/dev/null 2>&1 && [ -z "${PLUNDER_CHROMIUM:-}" ]; then
    missing="chromium"
fi
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1 \
    && [ -z "${PLUNDER_TEST_POSTGRES:-}" ]; then
    missing="$missing postgresql"
fi
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
    missing="$missing nginx-light"
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086 # the package names are meant to split
    apt-get update -qq >/dev/null && apt-get install -y -qq $missing >/dev/null && exit 0
    echo "install-test-deps: apt-get could not install:$missing" >&2
    exit 1
fi
echo "install-test-deps: missing$missing; install your system's packages of that name (or set PLUNDER_CHROMIUM to a Chromium binary, PLUNDER_TEST_POSTGRES to a database URL) for the browser, PostgreSQL and proxy tests" >&2
exit 0
