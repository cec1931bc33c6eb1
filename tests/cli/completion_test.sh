#!/usr/bin/env bash
# `rescfg completion bash|zsh`: the scripts are valid, name every command and
# flag the binary accepts, and complete the way a user expects.
# Usage: completion_test.sh BINARY SOURCE_DIR
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$bin" completion bash > "$tmp/rescfg.bash" || fail "completion bash exited $?"
bash -n "$tmp/rescfg.bash" || fail "bash script has syntax errors"
[[ -s $tmp/rescfg.bash ]] || fail "bash script is empty"
if "$bin" completion fish > /dev/null 2>&1; then fail "completion fish should be refused"; fi

# Every subcommand and every flag shown by --help appears in the scripts.
commands=$("$bin" --help | awk '/^Subcommands:/ {on = 1; next} /^$/ {on = 0} on && /^  [a-z]/ {print $1}')
[[ -n $commands ]] || fail "no subcommands found in --help"
# The flags in the Options: section of `--help` (first column: "-c,--config").
flags_of() { "$@" --help | sed -n '/^Options:/,/^$/p' | sed -nE 's/^  (-[^ ]+).*/\1/p' | tr ',' '\n'; }
"$bin" completion zsh > "$tmp/_rescfg"
for flag in $(flags_of "$bin"); do
  grep -qE -- "(^|[ |\"])$flag([ |)\"]|$)" "$tmp/rescfg.bash" || fail "bash script lacks global $flag"
  grep -qE -- "[)*]$flag[=+[]" "$tmp/_rescfg" || fail "zsh script lacks global $flag"
done
for cmd in $commands; do
  grep -qw -- "$cmd" "$tmp/rescfg.bash" || fail "bash script lacks command $cmd"
  grep -q -- "'$cmd:" "$tmp/_rescfg" || fail "zsh script lacks command $cmd"
  for flag in $(flags_of "$bin" "$cmd"); do
    grep -qE -- "(^|[ |\"])$flag([ |)\"]|$)" "$tmp/rescfg.bash" || fail "bash script lacks $cmd $flag"
    grep -qE -- "[)*]$flag[=+[]" "$tmp/_rescfg" || fail "zsh script lacks $cmd $flag"
  done
done

# Drive the bash function as readline would and look at what it offers.
complete_words() {  # complete_words WORD... (the last word is the one being completed)
  bash -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
    _rescfg
    printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$tmp/rescfg.bash" "$@"
}
expect() {  # expect "WANTED LINES" WORD...
  local want=$1; shift
  local got; got=$(complete_words "$@")
  [[ $got == "$want" ]] || fail "completing '$*': got [$got], want [$want]"
}
expect $'schedule\nsimulate\nstatus' rescfg s
expect $'--verbose\n--version' rescfg --ver
expect $'json\njsonl' rescfg schedule --format js
expect $'json\njsonl' rescfg schedule -f js
expect $'json\njsonl' rescfg schedule --format = js
expect $'--jobs\n--jobs-format' rescfg schedule --jobs
expect $'bash\nzsh' rescfg completion ''
expect $'github\njson\ntext' rescfg validate --format ''
touch "$tmp/resources.yaml"
expect "$tmp/resources.yaml" rescfg validate "$tmp/resou"

if command -v zsh > /dev/null; then
  zsh -n "$tmp/_rescfg" || fail "zsh script has syntax errors"
  mkdir "$tmp/fpath"
  cp "$tmp/_rescfg" "$tmp/fpath/_rescfg"
  got=$(zsh -f -c 'fpath=("$1" $fpath); autoload -Uz compinit; compinit -u -d "$1/dump"; print -r -- ${_comps[rescfg]}' _ "$tmp/fpath")
  [[ $got == _rescfg ]] || fail "zsh compinit did not register _rescfg (got '$got')"
else
  echo "zsh not installed: zsh checks skipped"
fi
echo PASS
