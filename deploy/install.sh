#!/usr/bin/env bash
# The course hub on one fresh Debian 12 server (as root, from a checkout of the course):
#   sudo deploy/install.sh
# It installs: Python 3.11 + the course (with JupyterHub, nbgitpuller, nbgrader, the idle
# culler) in /opt/paddlecourse/env, the course kernel, configurable-http-proxy from npm, the
# two role groups, the nbgrader exchange in /srv/nbgrader/exchange, and a systemd service
# `paddlecourse-hub` serving http://<server>:8000. Then add people with deploy/add-learner.sh.
# Read instructors/hub.md first (HTTPS, sizing).
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "run as root: sudo $0" >&2; exit 2; }
checkout="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/paddlecourse
python="${PYTHON:-python3.11}"
chp_version=4.6.3

apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3.11 python3.11-venv git graphviz nodejs npm >/dev/null

# one environment every account can read and run: the course, its kernel, the hub
mkdir -p "$prefix"
"$python" -m venv "$prefix/env"
"$prefix/env/bin/pip" install --quiet --upgrade pip
# an editable install of a copy of the checkout: `paddlecourse course` reads solutions/ from it
rm -rf "$prefix/course"
mkdir -p "$prefix/course"
(cd "$checkout" && git ls-files -z | xargs -0 cp --parents -t "$prefix/course")
# the course's lock: the hub runs exactly the versions the tests ran
"$prefix/env/bin/pip" install --quiet -c "$prefix/course/requirements.lock" -e "$prefix/course[lab,teach,hub]"
"$prefix/env/bin/paddlecourse" kernel
chmod -R a+rX "$prefix"

npm install --global --no-fund --no-audit --loglevel=error "configurable-http-proxy@$chp_version" >/dev/null

getent group paddlecourse-students >/dev/null || groupadd paddlecourse-students
getent group paddlecourse-instructors >/dev/null || groupadd paddlecourse-instructors

# The exchange: anyone may create entries, the sticky bit keeps each entry its owner's.
# nbgrader makes the course's inbound (733: submit, not list) and feedback (711) folders.
mkdir -p /srv/nbgrader/exchange
chmod 1777 /srv/nbgrader/exchange
# the hub's database and cookie secret: root's alone
mkdir -p /srv/jupyterhub
chmod 0700 /srv/jupyterhub

cat > /etc/systemd/system/paddlecourse-hub.service <<UNIT
[Unit]
Description=paddlecourse JupyterHub
After=network.target

[Service]
User=root
WorkingDirectory=/srv/jupyterhub
Environment=PATH=$prefix/env/bin:/usr/local/bin:/usr/bin:/bin
Environment=PADDLECOURSE_HUB_PREFIX=$prefix/env
ExecStart=$prefix/env/bin/jupyterhub -f $prefix/course/deploy/jupyterhub_config.py
Restart=on-failure

[Install]
WantedBy=multi-user.target
UNIT
systemctl daemon-reload
systemctl enable --now paddlecourse-hub
echo "The hub is starting on port 8000. Next: sudo $checkout/deploy/add-learner.sh --instructor NAME"
