#!/usr/bin/env bash
# Install the system packages the tests use: graphviz (the `dot` binary) and
# Debian's chromium (for Playwright; never a browser download).
set -euo pipefail
missing=()
command -v dot >/dev/null 2>&1 || missing+=(graphviz)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing system packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "WARNING: missing system packages: ${missing[*]}." >&2
  echo "         Install them (e.g. sudo apt-get install ${missing[*]}); until then the tests" >&2
  echo "         that need them are skipped (and fail under CI=true)." >&2
fi
