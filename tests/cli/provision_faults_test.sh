#!/usr/bin/env bash
# Provision under faults: a crash at every write step (deterministic crash
# points), kill -9 at random moments, 20 concurrent provisions, damaged files.
# After each fault the state must load and hold the old or the new revision.
set -u
source "$(dirname "$0")/harness.sh" "$@"

sed 's/resources: 8$/resources: 16/' "$EXAMPLE" > b.yaml
cp "$EXAMPLE" a.yaml
"$RESCFG" fmt a.yaml > a.canonical || exit 1
"$RESCFG" fmt b.yaml > b.canonical || exit 1

# current DIR: prints the current revision (empty when the state does not load).
current() { "$RESCFG" history --state "$1" --format json 2>/dev/null | jq -r .current; }
# check_state DIR REVISION CANONICAL: the state loads, is at REVISION and holds CANONICAL.
check_state() {
  local dir=$1 want_rev=$2 want_text=$3 rev
  rev=$("$RESCFG" history --state "$dir" --format json 2>history.err | jq -r .current)
  [ -n "$rev" ] || { fail "$dir does not load: $(cat history.err)"; return; }
  [ "$rev" = "$want_rev" ] || fail "$dir is at revision $rev, expected $want_rev"
  if [ "$want_rev" -gt 0 ]; then
    "$RESCFG" reset --canonical --state "$dir" > reset.out 2>/dev/null || fail "reset fails on $dir"
    cmp -s reset.out "$want_text" || fail "$dir revision $rev does not hold $want_text"
  fi
}

# 1. Deterministic crash points: crash at step 1, 2, ... of a provision until
#    one runs to the end. Both a first provision and a later one. (Every
#    other step under the sanitizers, where each provision costs far more.)
step=1
[ -n "${RESCFG_TEST_QUICK:-}" ] && step=2
for start in empty one; do
  points=0
  for k in $(seq 1 "$step" 50); do
    rm -rf st
    if [ "$start" = one ]; then "$RESCFG" -q provision a.yaml --state st >/dev/null || exit 1; fi
    RESCFG_TEST_CRASH_POINT=$k "$RESCFG" -q provision b.yaml --state st >/dev/null 2>&1
    code=$?
    [ "$code" = 0 ] && break
    [ "$code" = 86 ] || { fail "crash point $k: exit $code"; break; }
    points=$k
    base=$([ "$start" = one ] && echo 1 || echo 0)
    rev=$(current st)
    case "$rev" in
      "$base") check_state st "$base" a.canonical ;;
      $((base + 1))) check_state st "$rev" b.canonical ;;
      *) fail "crash point $k ($start): state at revision '$rev', expected $base or $((base + 1))" ;;
    esac
    # The next provision completes the work: revision base+1 holds b, no gaps.
    "$RESCFG" -q provision b.yaml --state st >provision.out 2>provision.err || fail "provision after crash $k: $(cat provision.err)"
    check_state st $((base + 1)) b.canonical
    cmp -s st/config.yaml b.canonical || fail "crash point $k: config.yaml not repaired"
    ls st/revisions | grep -q '^\.' && fail "crash point $k: temporary files left behind"
  done
  [ "$points" -ge 7 ] || fail "only $points crash points reached in a provision ($start)"
done

# 2. kill -9 at random moments, alternating configurations, so that the
#    content read back tells whether the killed provision committed.
rm -rf st
"$RESCFG" -q provision a.yaml --state st >/dev/null || exit 1
rev=1; text=a.canonical
kills=100
[ -n "${RESCFG_TEST_QUICK:-}" ] && kills=30  # the sanitizer run: each run is slower
[ -n "${RESCFG_TEST_DEEP:-}" ] && kills=1000  # scripts/deep-check
for i in $(seq 1 "$kills"); do
  if [ "$text" = a.canonical ]; then next=b; else next=a; fi
  "$RESCFG" -q provision $next.yaml --state st >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '0.%03d' $((RANDOM % 60)))"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  if ! "$RESCFG" -q reset --canonical --state st > reset.out 2>reset.err; then
    fail "kill $i: the state does not load: $(cat reset.err)"
    break
  fi
  if cmp -s reset.out "$next.canonical"; then
    rev=$((rev + 1)); text=$next.canonical
  elif ! cmp -s reset.out "$text"; then
    fail "kill $i: the state holds neither the old nor the new configuration"
    break
  fi
done
check_state st "$rev" "$text"
echo "kill -9: $kills runs, $rev revisions committed"

# 3. 20 concurrent provisions of 20 different configurations.
rm -rf st
for i in $(seq 1 20); do sed "s/resources: 8$/resources: $((i + 8))/" "$EXAMPLE" > c$i.yaml; done
pids=()
for i in $(seq 1 20); do
  "$RESCFG" -q provision c$i.yaml --state st -m "c$i" --lock-timeout 60 >/dev/null 2>c$i.err &
  pids+=($!)
done
for i in $(seq 1 20); do wait "${pids[$((i - 1))]}" || fail "concurrent provision c$i: $(cat c$i.err)"; done
"$RESCFG" history --state st --format json > h.json || fail "history after concurrent provisions"
[ "$(jq -c '[.revisions[].revision]' h.json)" = "[$(seq -s, 1 20)]" ] || fail "revisions: $(jq -c '[.revisions[].revision]' h.json)"
[ "$(jq -r '.revisions[].message' h.json | sort -V | tr '\n' ' ')" = "$(for i in $(seq 1 20); do printf 'c%s ' $i; done)" ] \
  || fail "each configuration must be provisioned exactly once"
[ "$(jq -r '.revisions[].sha256' h.json | sort -u | wc -l)" = 20 ] || fail "duplicate revisions"
for r in $(seq 1 20); do
  msg=$(jq -r ".revisions[$((r - 1))].message" h.json)
  "$RESCFG" fmt $msg.yaml > want.txt
  "$RESCFG" reset --canonical --state st --revision $r > got.txt || fail "reset --revision $r"
  cmp -s want.txt got.txt || fail "revision $r does not hold $msg"
done

# 4. Damaged state files are detected (exit 2), never repaired.
# damage NAME CURRENT COMMAND: copy the state, run COMMAND inside it; history
# and provision (which verifies the whole state before writing) must refuse
# with exit 2, and so must reset of the damaged revision (the current one
# when CURRENT, else revision 7); history.jsonl must be left as it was.
damage() {
  rm -rf d && cp -a st d
  (cd d && eval "$3")
  rm -f damaged.jsonl && { [ ! -e d/history.jsonl ] || cp d/history.jsonl damaged.jsonl; }
  "$RESCFG" history --state d >/dev/null 2>damage.err
  [ $? = 2 ] || fail "$1: not detected"
  grep -q corrupt damage.err || fail "$1: message '$(cat damage.err)'"
  "$RESCFG" -q provision "$EXAMPLE" --state d >/dev/null 2>&1
  [ $? = 2 ] || fail "$1: provision did not refuse"
  "$RESCFG" -q provision "$EXAMPLE" --state d --dry-run >/dev/null 2>&1
  [ $? = 2 ] || fail "$1: provision --dry-run did not refuse"
  if [ "$2" = current ]; then
    "$RESCFG" reset --state d >/dev/null 2>&1
    [ $? = 2 ] || fail "$1: reset did not refuse"
  else
    "$RESCFG" reset --state d --revision 7 >/dev/null 2>&1
    [ $? = 2 ] || fail "$1: reset --revision 7 did not refuse"
  fi
  if [ -e damaged.jsonl ]; then cmp -s d/history.jsonl damaged.jsonl || fail "$1: history.jsonl was changed"; fi
}
damage "truncated config.yaml" current 'truncate -s 100 config.yaml'
damage "edited config.yaml" current 'echo "# edited" >> config.yaml'
damage "truncated revision" current 'truncate -s 10 revisions/000020.yaml'
damage "edited revision" current 'sed -i "s/queue: \"h100-pool\"/queue: \"h100\"/" revisions/000020.yaml'
damage "edited old revision" old 'sed -i "s/queue: \"h100-pool\"/queue: \"h100\"/" revisions/000007.yaml'
damage "missing old revision" old 'rm revisions/000007.yaml'
damage "history cut mid-line" current 'truncate -s -20 history.jsonl'
damage "history without last line" current 'sed -i "\$d" history.jsonl'
damage "damaged history line" current 'sed -i "5s/\"revision\":5/\"revision\":50/" history.jsonl'
damage "missing history" current 'rm history.jsonl'
damage "missing revisions directory" current 'rm -r revisions'
damage "edited old source" old 'echo "# edited" >> revisions/000007.source.yaml'
damage "missing old source" old 'rm revisions/000007.source.yaml'
damage "edited current source" current 'echo "# edited" >> revisions/000020.source.yaml'
damage "history line out of sequence" current 'sed -i "3d" history.jsonl'

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "provision faults: all passed"
