#!/usr/bin/env bash
# Try the course on another Paddle release (a learner may have any 3.x): a throw-away venv with paddlepaddle==VERSION and every
# other package at the course's lock (requirements.lock), the course installed from this checkout, its kernel installed into
# that venv only; then `paddlecourse verify`, `paddlecourse verify --facts`, and every solution, counting error cells.
#
#   tools/try-paddle-version.sh 3.0.0 [WORKDIR]      (or: make try-paddle VERSION=3.0.0)
#
# It downloads wheels (not part of `make test`). WORKDIR (default: /tmp/paddlecourse-try-VERSION) is emptied first;
# it ends up holding the venv, facts.txt, the executed solutions and results.json. Nothing else is touched, apart
# from the paddlecourse.egg-info that `pip install -e` writes in this checkout (git ignores it).
set -euo pipefail
VERSION=${1:?usage: tools/try-paddle-version.sh VERSION [WORKDIR]}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${2:-${TMPDIR:-/tmp}/paddlecourse-try-$VERSION}
PYTHON=${PYTHON:-python3}

rm -rf "$WORK" && mkdir -p "$WORK"
"$PYTHON" -m venv "$WORK/venv"
BIN="$WORK/venv/bin"
"$BIN/python" -m pip install --quiet --upgrade pip   # an old pip orders `pip config list` differently (lesson 00)
# every other package at the course's lock (requirements.lock), read as constraints
grep -v '^paddlepaddle==' "$ROOT/requirements.lock" > "$WORK/constraints.txt"
"$BIN/pip" install --quiet -c "$WORK/constraints.txt" "paddlepaddle==$VERSION" -e "$ROOT[lab,teach]"
"$BIN/paddlecourse" kernel --prefix "$WORK/venv"
export JUPYTER_PREFER_ENV_PATH=1   # this venv's kernel before any user-wide one of the same name

echo "== paddlecourse verify (paddle $VERSION)"
"$BIN/paddlecourse" verify || true
echo "== paddlecourse verify --facts (paddle $VERSION)"
"$BIN/paddlecourse" verify --facts | tee "$WORK/facts.txt" || true
echo "== every solution (paddle $VERSION)"
mkdir "$WORK/solutions"
cp "$ROOT"/solutions/0*.ipynb "$WORK/solutions/"
cd "$WORK/solutions"
status=0
"$BIN/python" "$ROOT/tools/run_solutions.py" "$WORK/solutions" "$WORK/results.json" || status=$?
echo "paddle $VERSION: facts in $WORK/facts.txt, executed solutions and results.json in $WORK"
exit $status
