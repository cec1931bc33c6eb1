#!/usr/bin/env bash
# `cmake --install` lays out the binary, manual pages, schemas and shell
# completions under a prefix, and `cpack` makes a Debian package of them.
# Usage: install_test.sh BINARY SOURCE_DIR   (BINARY is in its build directory)
set -euo pipefail
bin=$1
src=$2
build=$(cd "$(dirname "$bin")" && pwd)
[[ -f $build/cmake_install.cmake ]] || { echo "FAIL: $build is not a build directory" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

root=$tmp/root
DESTDIR=$root cmake --install "$build" --prefix /usr --component rescfg > "$tmp/install.log" ||
  fail "cmake --install: $(cat "$tmp/install.log")"

usr=$root/usr
"$usr/bin/rescfg" --version | grep -qE '^rescfg [0-9]+\.[0-9]+\.[0-9]+' || fail "installed rescfg --version"
for page in man1/rescfg.1 man5/rescfg.5 man7/rescfg-scheduling.7; do
  [[ -s $usr/share/man/$page ]] || fail "missing $page"
  cmp -s "$usr/share/man/$page" "$src/man/${page#*/}" || fail "$page differs from the source"
  [[ -z $(mandoc -Tlint -Wwarning "$usr/share/man/$page" 2>&1) ]] || fail "installed $page does not lint"
  if command -v man > /dev/null; then
    MANWIDTH=80 man -l "$usr/share/man/$page" 2>/dev/null | grep -q '^NAME' || fail "man -l $page"
  fi
done

bash_completion=$usr/share/bash-completion/completions/rescfg
zsh_completion=$usr/share/zsh/vendor-completions/_rescfg
fish_completion=$usr/share/fish/vendor_completions.d/rescfg.fish
[[ -s $bash_completion ]] || fail "missing or empty bash completion"
[[ -s $zsh_completion ]] || fail "missing or empty zsh completion"
[[ -s $fish_completion ]] || fail "missing or empty fish completion"
cmp -s "$bash_completion" <("$bin" completion bash) || fail "installed bash completion is stale"
cmp -s "$zsh_completion" <("$bin" completion zsh) || fail "installed zsh completion is stale"
cmp -s "$fish_completion" <("$bin" completion fish) || fail "installed fish completion is stale"

for schema in "$src"/schemas/*.json; do
  [[ -e $schema ]] || continue
  [[ -s $usr/share/rescfg/schemas/${schema##*/} ]] || fail "schema ${schema##*/} not installed"
done

# Only the files above: nothing stray in the package.
extra=$(cd "$root" && find . -type f | grep -vE '^\./usr/(bin/rescfg|share/man/man[15]/rescfg\.[15]|share/man/man7/rescfg-scheduling\.7|share/bash-completion/completions/rescfg|share/zsh/vendor-completions/_rescfg|share/fish/vendor_completions\.d/rescfg\.fish|share/rescfg/schemas/[^/]+\.json|lib/systemd/system/rescfg-sync\.service)$' || true)
[[ -z $extra ]] || fail "unexpected installed files: $extra"

if command -v dpkg-deb > /dev/null && command -v cpack > /dev/null; then
  (cd "$tmp" && cpack --config "$build/CPackConfig.cmake" -B "$tmp/pkg" > "$tmp/cpack.log" 2>&1) ||
    fail "cpack: $(cat "$tmp/cpack.log")"
  deb=$(ls "$tmp"/pkg/*.deb)
  fields=$(dpkg-deb -f "$deb" Package Maintainer Depends)
  grep -q '^Package: rescfg$' <<< "$fields" || fail "package name: $fields"
  grep -qE '^Maintainer: .+<.+@.+>$' <<< "$fields" || fail "maintainer field: $fields"
  for dep in libyaml-cpp0.7 libspdlog1.10 libfmt9 libsimdjson14 libssl3; do
    grep -qE "^Depends: (.*[ ,])?$dep([ ,(]|$)" <<< "$fields" || fail "package does not depend on $dep: $fields"
  done
  contents=$(dpkg-deb -c "$deb")
  for path in ./usr/bin/rescfg ./usr/share/man/man1/rescfg.1 ./usr/share/man/man5/rescfg.5 ./usr/share/man/man7/rescfg-scheduling.7 \
              ./usr/share/bash-completion/completions/rescfg ./usr/share/zsh/vendor-completions/_rescfg \
              ./usr/share/fish/vendor_completions.d/rescfg.fish; do
    grep -qF " $path" <<< "$contents" || fail "package lacks $path"
  done
else
  echo "dpkg-deb or cpack not installed: package checks skipped"
fi
echo PASS
