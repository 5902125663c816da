#!/bin/sh
# Chromium for the browser tests (tests/web/browser), from the system's packages: Playwright's
# own browser download is not used. Nothing is done where a Chromium is already installed.
# As root on Debian/Ubuntu it installs the `chromium` package; elsewhere it says what to do and
# goes on (the browser tests then fail, saying the same).
if command -v chromium >/dev/null 2>&1 || [ -n "${PLUNDER_CHROMIUM:-}" ]; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq chromium >/dev/null && exit 0
    echo "install-chromium: apt-get could not install chromium" >&2
    exit 1
fi
echo "install-chromium: no chromium found; install your system's chromium package (or set PLUNDER_CHROMIUM to a Chromium binary) for the browser tests" >&2
exit 0
