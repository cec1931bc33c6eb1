#!/usr/bin/env bash
# `rescfg completion bash|zsh|fish`: the scripts are valid, name every command and
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
if "$bin" completion tcsh > /dev/null 2> "$tmp/err"; then fail "completion tcsh should be refused"; fi
grep -q "^rescfg: error: .*tcsh" "$tmp/err" || fail "completion tcsh: $(cat "$tmp/err")"
"$bin" completion fish > "$tmp/rescfg.fish" || fail "completion fish exited $?"
[[ -s $tmp/rescfg.fish ]] || fail "fish script is empty"
"$bin" completion fish -o "$tmp/written.fish" || fail "completion fish -o exited $?"
cmp -s "$tmp/rescfg.fish" "$tmp/written.fish" || fail "completion -o differs from stdout"

# Every subcommand and every flag shown by --help appears in the scripts.
commands=$("$bin" --help | awk '/^Subcommands:/ {on = 1; next} /^$/ {on = 0} on && /^  [a-z]/ {print $1}')
[[ -n $commands ]] || fail "no subcommands found in --help"
# The flags in the Options: section of `--help` (first column: "-c,--config").
flags_of() { "$@" --help | sed -n '/^Options:/,/^$/p' | sed -nE 's/^  (-[^ ]+).*/\1/p' | tr ',' '\n'; }
"$bin" completion zsh > "$tmp/_rescfg"
# fish writes "--format" as "-l format" and "-f" as "-s f".
fish_flag_in() {  # fish_flag_in FLAG LINE-PREFIX-REGEX
  local name=${1#-} kind=s
  [[ $1 == --* ]] && { name=${1#--}; kind=l; }
  grep -qE -- "^$2 -$kind $name( |$)" "$tmp/rescfg.fish"
}
for flag in $(flags_of "$bin"); do
  grep -qE -- "(^|[ |\"])$flag([ |)\"]|$)" "$tmp/rescfg.bash" || fail "bash script lacks global $flag"
  grep -qE -- "[)*]$flag[=+[]" "$tmp/_rescfg" || fail "zsh script lacks global $flag"
  fish_flag_in "$flag" "complete -c rescfg( -[sl] [a-z-]+)*" || fail "fish script lacks global $flag"
done
for cmd in $commands; do
  grep -qw -- "$cmd" "$tmp/rescfg.bash" || fail "bash script lacks command $cmd"
  grep -q -- "'$cmd:" "$tmp/_rescfg" || fail "zsh script lacks command $cmd"
  grep -q -- "-n __rescfg_needs_command -a $cmd " "$tmp/rescfg.fish" || fail "fish script lacks command $cmd"
  for flag in $(flags_of "$bin" "$cmd"); do
    grep -qE -- "(^|[ |\"])$flag([ |)\"]|$)" "$tmp/rescfg.bash" || fail "bash script lacks $cmd $flag"
    grep -qE -- "[)*]$flag[=+[]" "$tmp/_rescfg" || fail "zsh script lacks $cmd $flag"
    fish_flag_in "$flag" "complete -c rescfg -n '__fish_seen_subcommand_from $cmd'( -[sl] [a-z-]+)*" ||
      fail "fish script lacks $cmd $flag"
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
expect $'schedule\nsimulate\nstatus\nsync' rescfg s
expect $'--verbose\n--version' rescfg --ver
expect $'json\njsonl' rescfg schedule --format js
expect $'json\njsonl' rescfg schedule -f js
expect $'json\njsonl' rescfg schedule --format = js
expect $'--jobs\n--jobs-format\n--jobs-from-sync' rescfg schedule --jobs
expect $'bash\nfish\nzsh' rescfg completion ''
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

if command -v fish > /dev/null; then
  fish --no-execute "$tmp/rescfg.fish" || fail "fish script has syntax errors"
  # Ask fish itself what it would offer (candidates only, without descriptions).
  fish_expect() {  # fish_expect "WANTED LINES" COMMAND-LINE
    local got
    got=$(cd "$tmp" && fish --no-config -c 'source $argv[1]; complete -C $argv[2]' "$tmp/rescfg.fish" "$2" | cut -f1 | sort)
    [[ $got == "$1" ]] || fail "fish completing '$2': got [$got], want [$1]"
  }
  fish_expect $'schedule\nsimulate\nstatus\nsync' 'rescfg s'
  fish_expect $'schedule\nsimulate\nstatus\nsync' 'rescfg --color never s'
  fish_expect $'--verbose\n--version' 'rescfg --ver'
  fish_expect $'json\njsonl' 'rescfg schedule --format js'
  fish_expect $'clearml\njson\njsonl\ntable\nyaml' 'rescfg schedule -f '
  fish_expect $'--jobs\n--jobs-format\n--jobs-from-sync' 'rescfg schedule --jobs'
  fish_expect $'bash\nfish\nzsh' 'rescfg completion '
  fish_expect $'--check' 'rescfg fmt --ch'
  fish_expect 'resources.yaml' 'rescfg validate resou'
  fish_expect '' 'rescfg history --lock-timeout '
else
  echo "fish not installed: fish checks skipped"
fi
echo PASS
