#!/usr/bin/env bash
# Add one person to the course hub: a Unix account in the students' (or, with --instructor,
# the instructors') group, a home only they can read, and a password.
#   sudo deploy/add-learner.sh ana                      # asks for ana's password
#   echo 'S3cret-pass' | sudo deploy/add-learner.sh ana # password from standard input
#   sudo deploy/add-learner.sh --instructor teacher
set -euo pipefail
group="${PADDLECOURSE_HUB_STUDENTS_GROUP:-paddlecourse-students}"
if [ "${1:-}" = "--instructor" ]; then
  group="${PADDLECOURSE_HUB_INSTRUCTORS_GROUP:-paddlecourse-instructors}"
  shift
fi
name="${1:-}"
if [ -z "$name" ] || [ "$(id -u)" != 0 ]; then
  echo "usage: sudo $0 [--instructor] NAME   (run as root; NAME is the login, e.g. ana)" >&2
  exit 2
fi
getent group "$group" >/dev/null || groupadd "$group"
if id "$name" >/dev/null 2>&1; then
  usermod --append --groups "$group" "$name"
else
  useradd --create-home --shell /bin/bash --groups "$group" "$name"
fi
# Debian and Ubuntu make homes readable by everyone (0755): a learner's answers are theirs alone.
chmod 0700 "$(getent passwd "$name" | cut -d: -f6)"
if [ -t 0 ]; then
  passwd "$name"
else
  IFS= read -r password
  printf '%s:%s\n' "$name" "$password" | chpasswd
fi
echo "$name is in $group; they log in at the hub's address with that password."
