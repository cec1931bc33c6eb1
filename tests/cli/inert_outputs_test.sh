#!/usr/bin/env bash
# Outputs pasted elsewhere stay inert: a pull-request comment from
# `diff --format markdown` with names that hold @mentions, issue references,
# links and HTML has none of them live; `graph --format dot` of names that
# end in a backslash is a file Graphviz accepts; the sync lock holder's note
# shows its line break as \n and cannot forge a log line.
# Usage: inert_outputs_test.sh BINARY SOURCE_DIR
source "$(dirname "$0")/harness.sh" "$@"

cat > a.yaml <<'YAML'
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - name: pool\
    resources: 8
    executionPriority: ['p\']
profiles:
  - name: p\
    allotment: 1
    links: [{pool: pool\, name: 'www.evil.example\'}]
    policyPriority: ['@org/team see https://evil.example #12 <b>x</b> me@example.com']
policies:
  - name: '@org/team see https://evil.example #12 <b>x</b> me@example.com'
    reserved: 1
    profiles: ['p\']
YAML
sed 's/reserved: 1/reserved: 2/' a.yaml > b.yaml

# --- Markdown: no live mention, reference, link or tag -------------------------
expect 1 "$RESCFG" -q diff a.yaml b.yaml --format markdown
contains out.txt '@&#8203;org/team'
sed 's/&#8203;/~/g' out.txt | grep -v '^###' > shown.txt
grep -E '[@#][A-Za-z0-9]' shown.txt && fail "a live @mention or #reference in the Markdown"
grep -F '://' shown.txt && fail "a live link in the Markdown"
grep -iF 'www.' shown.txt && fail "a live www. link in the Markdown"
grep -F '<b>' shown.txt && fail "live HTML in the Markdown"

# --- Graphviz: a trailing backslash does not eat the closing quote --------------
expect 0 "$RESCFG" graph --config a.yaml --format dot
contains out.txt 'p\\"]'
if command -v dot > /dev/null; then
  dot -Tsvg out.txt -o out.svg 2> dot.err || fail "dot refuses the file: $(cat dot.err)"
  [ -s dot.err ] && fail "dot warns: $(cat dot.err)"
fi

# --- The sync lock holder's note ------------------------------------------------
export CLEARML_API_ACCESS_KEY=k CLEARML_API_SECRET_KEY=s
"$RESCFG" -q provision "$SRC/testdata/examples/worked-example.yaml" --state st >/dev/null || fail "provision"
mkdir -p st/sync
printf 'process 7 on host since then\nrescfg: error: forged\033[2J\n' > st/sync/lock
if command -v flock > /dev/null; then
  exec 9<> st/sync/lock
  flock -n 9 || fail "the lock was not taken"
  expect 2 "$RESCFG" sync --state st --once --clearml-server http://127.0.0.1:9
  contains err.txt '(process 7 on host since then\nrescfg: error: forged\x1B[2J)'
  [ "$(grep -c 'forged' err.txt)" = 1 ] || fail "the note forged a line"
  grep -qF '\x0A' err.txt && fail "the note's line break shows as \\x0A"
  exec 9>&-
fi

[ "$failures" = 0 ]
