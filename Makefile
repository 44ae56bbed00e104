# The two commands that matter (see README):
#   make lab    set up .venv and open JupyterLab on lessons/ with the course kernel
#   make test   set up .venv (with test tools and system parts) and run every test
# Everything else here is what those two need.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8888

.PHONY: lab test setup setup-test system-parts lessons site try-paddle matrix lock clean

# deploy/jupyter/learner: nbgrader's menus are the instructor's and a hub class's, not a self-paced learner's
lab: setup
	JUPYTER_CONFIG_PATH=$(CURDIR)/deploy/jupyter/learner JUPYTER_PREFER_ENV_PATH=0 $(BIN)/jupyter lab --notebook-dir=lessons --ServerApp.open_browser=$${OPEN_BROWSER:-True} \
	  --port=$(PORT) --ip=127.0.0.1 $$( [ "$$(id -u)" = 0 ] && echo --allow-root )

# Three pytest-xdist workers on two cores (conftest.py keeps each notebook and test file on one worker, and
# the many-process tests in two serial lanes; the third worker runs the single-kernel rooms while the lanes
# wait on browsers, hubs and sandboxes: tests/README.md);
# PYTEST_ARGS="-n 0" runs in one process, e.g. with -k for a single test.
PYTEST_ARGS ?= -n 3

test: setup-test system-parts
	@start=$$(date +%s); status=0; $(BIN)/python -m pytest $(PYTEST_ARGS) || status=$$?; \
	  echo "make test: pytest took $$(( $$(date +%s) - start )) s of wall time"; exit $$status

setup: $(VENV)/.course-installed
setup-test: $(VENV)/.test-installed

# The course's own environment: exactly the versions in requirements.lock (pip reads it as constraints, so
# each target takes only its part); a learner's own Python gets pyproject.toml's ranges instead.
# (again when the lock, the kernel's or Lab's defaults change, so an existing .venv gets them too)
$(VENV)/.course-installed: pyproject.toml requirements.lock paddlecourse/kernel.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --upgrade --quiet pip
	$(BIN)/pip install --quiet -c requirements.lock -e ".[lab,teach,hub]"
	$(BIN)/paddlecourse kernel
	touch $@

$(VENV)/.test-installed: $(VENV)/.course-installed pyproject.toml requirements.lock
	$(BIN)/pip install --quiet -c requirements.lock -e ".[test]"
	touch $@

# requirements.lock and the conda environments' pip sections, after a change to pyproject.toml's requirements
# (uv keeps every version it can; `make lock LOCK_ARGS=--upgrade` moves all to the newest allowed)
lock: setup-test
	$(BIN)/python tools/lock.py $(LOCK_ARGS)

# Graphviz draws the graph views; Chromium runs the browser tests. Installed
# with apt where we are root (as on CI); elsewhere the tests that need them skip
# loudly, and under CI=true they fail instead.
system-parts:
	@bash tools/system-parts.sh

# Regenerate the student copies in lessons/ from solutions/ (after editing a solution).
lessons: setup
	$(BIN)/paddlecourse build

# The course as a static website in build/site/ (English and Chinese), from the stored outputs; no kernel,
# no network. HUB_URL=https://hub.example.org adds each lesson's JupyterHub button (see README).
site: setup-test
	$(BIN)/paddlecourse site $(if $(HUB_URL),--hub-url $(HUB_URL)) $(SITE_ARGS)

# The course on another Paddle release, in a throw-away venv (downloads wheels; not part of `make test`):
# make try-paddle VERSION=3.0.0  -> verify, verify --facts, and every solution's error cells (README: "Other Paddle 3.x releases")
try-paddle:
	@test -n "$(VERSION)" || { echo "usage: make try-paddle VERSION=3.0.0"; exit 2; }
	bash tools/try-paddle-version.sh $(VERSION)

# Every lesson on every CPython requires-python admits (pyenv's or on PATH), with the lowest and the newest allowed
# dependencies, from the course's wheel on a plain python3 kernel (noxfile.py), MATRIX_JOBS sessions at a time; then
# the table (tools/matrix_report.py). Downloads wheels; not part of `make test` (tests/test_portability.py is its slice).
MATRIX_JOBS ?= 2
matrix: setup-test
	$(BIN)/nox -s wheel
	$(BIN)/nox -l --json | $(BIN)/python -c "import json, sys; print('\n'.join(s['session'] for s in \
	  json.load(sys.stdin) if s['session'].startswith('lessons')))" | xargs -P $(MATRIX_JOBS) -I{} $(BIN)/nox -s "{}" || true
	$(BIN)/nox -s report

clean:
	rm -rf $(VENV) .pytest_cache test-artifacts
