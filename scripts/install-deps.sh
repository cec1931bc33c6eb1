#!/bin/sh
# Installs the Debian packages rescfg needs to build, test and benchmark.
# Safe to run twice: apt-get skips what is already installed.
set -eu
PACKAGES="cmake ninja-build g++ clang libclang-rt-14-dev pkg-config
  libcli11-dev libyaml-cpp-dev libspdlog-dev libfmt-dev libsimdjson-dev
  libgtest-dev librapidcheck-dev libbenchmark-dev
  libcurl4-openssl-dev libssl-dev ccache
  python3 python3-jsonschema python3-yaml mandoc jq git time curl
  graphviz fish zsh librsvg2-bin"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "installing:$missing" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >&2
fi
