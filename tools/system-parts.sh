#!/usr/bin/env bash
# Install the system parts the tests use, from Debian's packages and npm only:
# - graphviz (the `dot` binary) draws the graph views;
# - Debian's chromium runs the browser tests (Playwright; never a browser download);
# - bubblewrap is the sandbox every graded submission runs in;
# - Node.js + npm install axe-core (the accessibility audit the browser tests load
#   into the page) and configurable-http-proxy (JupyterHub's proxy, tests/hub);
# - a font with Chinese glyphs (the lessons say 动态图 / 静态图; without one,
#   screenshots show empty boxes and text widths are wrong).
set -euo pipefail
CHP_VERSION=4.6.3

missing=()
command -v dot >/dev/null 2>&1 || missing+=(graphviz)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
command -v fc-list >/dev/null 2>&1 || missing+=(fontconfig)
if ! command -v fc-list >/dev/null 2>&1 || [ -z "$(fc-list :lang=zh 2>/dev/null)" ]; then
  missing+=(fonts-wqy-microhei)
fi
if [ ${#missing[@]} -ne 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing system packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "WARNING: missing system packages: ${missing[*]}." >&2
    echo "         Install them (e.g. sudo apt-get install ${missing[*]}); until then the tests" >&2
    echo "         that need them are skipped (and fail under CI=true)." >&2
  fi
fi

# axe-core, pinned in tests/browser/package-lock.json (node_modules is git-ignored).
if command -v npm >/dev/null 2>&1; then
  if [ ! -f tests/browser/node_modules/axe-core/axe.min.js ] || \
     [ tests/browser/package-lock.json -nt tests/browser/node_modules/axe-core/axe.min.js ]; then
    echo "Installing axe-core for the browser tests (npm ci in tests/browser)"
    (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
fi

# JupyterHub's proxy for tests/hub and deploy/ (a global npm package, as the hub docs install it).
if ! command -v configurable-http-proxy >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v npm >/dev/null 2>&1; then
    echo "Installing configurable-http-proxy@$CHP_VERSION (npm)"
    npm install --global --no-fund --no-audit --loglevel=error "configurable-http-proxy@$CHP_VERSION" >/dev/null
  else
    echo "WARNING: configurable-http-proxy is missing: npm install -g configurable-http-proxy@$CHP_VERSION" >&2
    echo "         (as root); until then the hub test is skipped (and fails under CI=true)." >&2
  fi
fi
