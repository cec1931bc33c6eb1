#!/usr/bin/env bash
# The manual pages are lint-clean, render cleanly (no word rendered as an
# option, no broken quotes) and cannot drift from the binary: every
# command, flag and value choice that `--help` shows is in rescfg(1), and
# every finding code the library emits is in rescfg(5). The documentation
# stands on its own: it points at no contract outside the repository.
# Usage: man_test.sh BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
page1=$src/man/rescfg.1
page5=$src/man/rescfg.5
page7=$src/man/rescfg-scheduling.7
errors=0
fail() { echo "FAIL: $*" >&2; errors=$((errors + 1)); }

for page in "$page1" "$page5" "$page7"; do
  lint=$(mandoc -Tlint -Wwarning "$page" 2>&1 || true)
  [[ -z $lint ]] || fail "mandoc -Tlint $page:"$'\n'"$lint"
  out=$(mandoc -Tascii "$page" 2>&1 | sed $'s/.\b//g') || fail "mandoc cannot render $page"
  grep -qx 'NAME' <<< "$out" || fail "$page renders without a NAME section"
  rendered=$(mktemp)
  printf '%s\n' "$out" > "$rendered"
  problems=$(python3 "$src/tests/cli/man_render_check.py" "$page" "$rendered") || fail "$page renders badly:"$'\n'"$problems"
  rm -f "$rendered"
  if command -v man > /dev/null; then
    MANWIDTH=80 man -l "$page" > /dev/null 2>&1 || fail "man -l $page failed"
  fi
done

# No pointer to a contract the reader does not have.
if refs=$(cd "$src" && grep -rnE 'SPEC|§' README.md docs man); then
  fail "the documentation refers to a SPEC:"$'\n'"$refs"
fi
grep -q 'rescfg-scheduling 7' "$page1" || fail "rescfg.1 does not refer to rescfg-scheduling(7)"
grep -q 'rescfg-scheduling' "$src/CMakeLists.txt" || fail "CMakeLists.txt does not install rescfg-scheduling.7"

# Source lines of one part of rescfg.1.
synopsis_of() {  # the SYNOPSIS lines from `.Cm CMD` to the next `.Nm`
  awk -v cmd="$1" '/^\.Sh SYNOPSIS/ {on = 1; next} /^\.Sh / {on = 0}
    on && $0 == ".Cm " cmd {take = 1; next} on && /^\.Nm/ {take = 0} take' "$page1"
}
section_of() {  # the `.Ss CMD` subsection
  awk -v cmd="$1" '$0 == ".Ss " cmd {on = 1; next} /^\.S[hs] / {on = 0} on' "$page1"
}
# "--state" is written `Fl -state`, "-c" `Fl c`.
has_flag() { grep -qE "(^|[ .])Fl ${2#-}( |$)" <<< "$1"; }

help_options() { "$@" --help | sed -n '/^Options:/,/^$/p'; }
# One line per option, its names joined by commas: "-c,--config".
options_of() { help_options "$@" | sed -nE 's/^  (-[^ ]+).*/\1/p'; }
flags_of() { options_of "$@" | tr ',' '\n'; }
choices_of() { help_options "$@" | grep -oE ':\{[^}]*\}' | tr -d ':{}' | tr ',' '\n'; }

for flag in $(flags_of "$bin"); do
  grep -qE "^\.It Fl .*Fl ${flag#-}( |$)|^\.It Fl ${flag#-}( |$)" "$page1" ||
    fail "rescfg.1 does not describe global option $flag"
done

commands=$("$bin" --help | awk '/^Subcommands:/ {on = 1; next} /^$/ {on = 0} on && /^  [a-z]/ {print $1}')
[[ -n $commands ]] || fail "no commands in $bin --help"
for cmd in $commands; do
  synopsis=$(synopsis_of "$cmd")
  section=$(section_of "$cmd")
  [[ -n $synopsis ]] || fail "rescfg.1 SYNOPSIS lacks '$cmd'"
  [[ -n $section ]] || fail "rescfg.1 has no '.Ss $cmd' section"
  for option in $(options_of "$bin" "$cmd"); do
    [[ $option == -h,--help ]] && continue
    in_synopsis=no
    for flag in ${option//,/ }; do
      has_flag "$synopsis" "$flag" && in_synopsis=yes
      has_flag "$section" "$flag" || fail "rescfg.1 section $cmd lacks $flag"
    done
    [[ $in_synopsis == yes ]] || fail "rescfg.1 SYNOPSIS of $cmd lacks $option"
  done
  for choice in $(choices_of "$bin" "$cmd"); do
    grep -qE "Cm (.* )?$choice( |$)" <<< "$section$synopsis" || fail "rescfg.1 $cmd lacks the value '$choice'"
  done
done

# Reason codes of rescfg(5), JOBS FILE-§5, in both pages.
for code in disabled paused unschedulable fifo-blocked limit reservation capacity \
            invalid-job duplicate-id unknown-queue unknown-policy unknown-profile \
            profile-not-allowed unknown-pool; do
  for page in "$page1" "$page5"; do
    grep -qE "Li $code( |$)" "$page" || fail "${page##*/} lacks reason code $code"
  done
done

# Finding codes the library emits: Error("code", ...), Warning("code", ...)
# or {"code", Severity::...}.
codes=$(grep -rhoE '(Error|Warning|Warn)\("[a-z0-9]+(-[a-z0-9]+)*"|\{"[a-z0-9]+(-[a-z0-9]+)*", *Severity::' \
          "$src/lib" --include='*.cc' | grep -oE '"[^"]+"' | tr -d '"' | sort -u)
[[ -n $codes ]] || fail "found no finding codes under $src/lib"
for code in $codes; do
  grep -qE "Li $code( |$)" "$page5" || fail "rescfg.5 does not document finding code $code"
done

[[ $errors -eq 0 ]] || exit 1
echo PASS
