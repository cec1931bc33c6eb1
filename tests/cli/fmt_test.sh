#!/usr/bin/env bash
# `rescfg fmt --check` lists the files that are not in canonical form (exit 1,
# like gofmt -l); `rescfg fmt -w` rewrites only those, atomically, in place.
# Usage: fmt_test.sh BINARY SOURCE_DIR
source "$(dirname "$0")/harness.sh" "$@"

"$RESCFG" fmt "$EXAMPLE" > canonical.yaml || fail "fmt of the example"
cp "$EXAMPLE" commented.yaml                       # comments, short forms: not canonical
cp "$SRC/testdata/gitops/worked-example-reformatted.yaml" reformatted.yaml
printf 'pools: [\n' > bad-syntax.yaml
cp "$SRC/testdata/invalid/unknown-key.yaml" invalid.yaml

# --check: the names of the files that differ, one a line, in argument order.
expect 0 "$RESCFG" fmt --check canonical.yaml
[ -s out.txt ] && fail "--check listed a canonical file: $(cat out.txt)"
expect 1 "$RESCFG" fmt --check canonical.yaml commented.yaml reformatted.yaml
[ "$(cat out.txt)" = $'commented.yaml\nreformatted.yaml' ] || fail "--check listed: $(cat out.txt)"
[ -s err.txt ] && fail "--check logged: $(cat err.txt)"
cmp -s commented.yaml "$EXAMPLE" || fail "--check changed a file"
# An invalid file has no canonical form: error logged, exit 1, not listed.
expect 1 "$RESCFG" fmt --check canonical.yaml invalid.yaml
[ -s out.txt ] && fail "--check listed an invalid file: $(cat out.txt)"
contains err.txt "rescfg: error: invalid.yaml:"
contains err.txt "the configuration is not valid"
# An unusable file is exit 2, and the other files are still looked at.
expect 2 "$RESCFG" fmt --check bad-syntax.yaml commented.yaml no-such.yaml
[ "$(cat out.txt)" = commented.yaml ] || fail "--check with an unusable file listed: $(cat out.txt)"
contains err.txt "bad-syntax.yaml:2:1: yaml-syntax"
contains err.txt "no-such.yaml: unreadable"
# Standard input is named as such; -o writes the list.
expect 1 "$RESCFG" fmt --check - < commented.yaml
[ "$(cat out.txt)" = "<stdin>" ] || fail "--check of stdin: $(cat out.txt)"
expect 1 "$RESCFG" fmt --check commented.yaml -o list.txt
[ "$(cat list.txt)" = commented.yaml ] || fail "--check -o: $(cat list.txt)"

# -w: rewrites what differs, keeps what does not, keeps modes and links.
cp commented.yaml a.yaml
cp commented.yaml linked-target.yaml
ln -s linked-target.yaml link.yaml
cp canonical.yaml b.yaml
chmod 640 a.yaml
touch -d '2020-01-01 00:00:00' b.yaml
b_inode=$(stat -c %i b.yaml)
expect 0 "$RESCFG" fmt -w a.yaml b.yaml link.yaml
[ -s out.txt ] && fail "-w printed: $(cat out.txt)"
cmp -s a.yaml canonical.yaml || fail "-w did not rewrite a.yaml in canonical form"
[ "$(stat -c %a a.yaml)" = 640 ] || fail "-w changed the mode of a.yaml to $(stat -c %a a.yaml)"
[ "$(stat -c %i b.yaml)" = "$b_inode" ] || fail "-w replaced a file already canonical"
[ "$(stat -c %Y b.yaml)" = "$(date -d '2020-01-01 00:00:00' +%s)" ] || fail "-w touched a file already canonical"
[ -L link.yaml ] || fail "-w replaced the symbolic link by a file"
cmp -s linked-target.yaml canonical.yaml || fail "-w did not rewrite the link's target"
ls -A | grep -q "\.tmp-" && fail "-w left temporary files: $(ls -A)"
expect 0 "$RESCFG" fmt --check a.yaml b.yaml link.yaml
expect 0 "$RESCFG" -v fmt -w commented.yaml
contains err.txt "rewrote commented.yaml"
# -w on an invalid or unusable file leaves it as it is.
cp invalid.yaml invalid-copy.yaml
expect 1 "$RESCFG" fmt -w invalid-copy.yaml
cmp -s invalid-copy.yaml invalid.yaml || fail "-w changed an invalid file"
expect 2 "$RESCFG" fmt -w bad-syntax.yaml
[ "$(cat bad-syntax.yaml)" = 'pools: [' ] || fail "-w changed an unusable file"
# What -w cannot do is refused with an error line, exit 2.
expect 2 "$RESCFG" fmt -w - < commented.yaml
contains err.txt "rescfg: error: -w cannot rewrite standard input"
expect 2 "$RESCFG" fmt -w a.yaml -o out.yaml
contains err.txt "rescfg: error: --write excludes --output"
expect 2 "$RESCFG" fmt -w --check a.yaml
contains err.txt "rescfg: error: "
expect 2 "$RESCFG" fmt a.yaml b.yaml
contains err.txt "rescfg: error: give one FILE to print, or use --check or -w for several"
# --help says that -w drops comments.
expect 0 "$RESCFG" fmt --help
contains out.txt "comments and layout are lost"

[ "$failures" -eq 0 ] || exit 1
echo PASS
