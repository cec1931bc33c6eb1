#!/usr/bin/env bash
# Self-test of the ClearML API test double (tests/double/clearml_server.py):
# paging and scrolls, 401/30, 703, enqueue semantics, persons, agents, faults.
# The double is what the sync tests stand on; this proves it answers as the
# real server's logic does.
set -u
SRC=$(cd "$2" && pwd)
cd "$SRC/tests/double" || exit 1
PYTHONDONTWRITEBYTECODE=1 exec python3 -W ignore::ResourceWarning -m unittest -q clearml_double_test
