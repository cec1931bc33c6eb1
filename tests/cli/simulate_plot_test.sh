#!/usr/bin/env bash
# rescfg simulate --plot: the SVG renders with a real renderer (rsvg-convert,
# Debian's librsvg2-bin) and the picture, not the markup, is checked: at 6
# teams and 32 pools each team's colour is in the legend, in the pools'
# stacked usage and in the wait distribution, the labels are dark text on
# white, and the file is written atomically (nothing on exit 2). With
# preemption, each preemption instant is marked in its pool's panel and the
# legend counts the jobs preempted; without, no mark is drawn.
source "$(dirname "$0")/harness.sh" "$@"
command -v rsvg-convert > /dev/null || { echo "SKIP: rsvg-convert (librsvg2-bin) is not installed"; exit 0; }

# 32 pools of 8 GPUs; team t's profile links the pools x with x mod 6 = t
# or t + 1, so every pool serves two teams; every team reserves 8.
{
  echo "apiVersion: rescfg/v1"
  echo "kind: ResourceConfiguration"
  echo "pools:"
  for x in $(seq 0 31); do printf '  - {name: pool-%02d, resources: 8}\n' "$x"; done
  echo "profiles:"
  for t in $(seq 0 5); do
    printf '  - name: p%d\n    allotment: 2\n    links:\n' "$t"
    for x in $(seq 0 31); do
      if (( x % 6 == t || x % 6 == (t + 1) % 6 )); then printf '      - {pool: pool-%02d}\n' "$x"; fi
    done
  done
  echo "policies:"
  for t in $(seq 0 5); do printf '  - {name: team-%d, reserved: 8, profiles: [p%d]}\n' "$t" "$t"; done
} > plot-config.yaml
awk 'BEGIN { print "apiVersion: rescfg/v1\nkind: JobList\njobs:";
  for (i = 0; i < 1200; i++) {
    t = i % 6; m = int(i / 60); s = (i * 7) % 60; d = 300 + (i * 37) % 1500
    printf "  - {id: j%d, policy: team-%d, profile: p%d, submitted: \"2026-11-29T10:%02d:%02dZ\", duration: %d}\n", i, t, t, m, s, d
  } }' > plot-trace.yaml
expect 0 "$RESCFG" -q simulate --config plot-config.yaml --trace plot-trace.yaml --plot usage.svg -o out.json --format json
[ -s usage.svg ] || fail "no picture written"
rsvg-convert usage.svg -o usage.png || fail "rsvg-convert cannot render the picture"

cat > png_decode.py <<'PY'
import struct, sys, zlib

def decode(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert depth == 8 and ctype in (2, 6), (depth, ctype)
    bpp = 4 if ctype == 6 else 3
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows
PY

python3 - usage.png <<'PY' || fail "the picture lacks what it must show"
import sys
from png_decode import decode

w, h, rows = decode(sys.argv[1])
assert w == 1200 and h > 900, (w, h)
colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
rgb = [tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in colours]
def count(y0, y1):
    seen = {}
    for y in range(y0, y1):
        for px in rows[y]:
            seen[px] = seen.get(px, 0) + 1
    return seen
legend, pools, waits = count(40, 110), count(110, h - 340), count(h - 340, h)
problems = []
for name, c in zip(colours, rgb):
    if legend.get(c, 0) < 100: problems.append(f"legend lacks {name} ({legend.get(c, 0)} px)")
    if pools.get(c, 0) < 2000: problems.append(f"pool usage lacks {name} ({pools.get(c, 0)} px)")
    if waits.get(c, 0) < 150: problems.append(f"wait distribution lacks {name} ({waits.get(c, 0)} px)")
dark = sum(n for px, n in count(0, h).items() if max(px) < 90)
if dark < 5000: problems.append(f"too little dark text ({dark} px)")
if count(0, 8).get((255, 255, 255), 0) < 1200 * 8 * 0.95: problems.append("the background is not white")
print("\n".join(problems) or "ok")
sys.exit(1 if problems else 0)
PY

# Preemption (the worked example over time): at 10:20 d1 and d2 are preempted
# in Bare Metal; one mark at that instant in Bare Metal's panel, none in
# H100's, and the legend says how many jobs of Dev were preempted and how
# many stops there were. Without preemption, or when nothing is preempted,
# no mark and no count.
PTRACE=$SRC/testdata/simulate/preemption/trace.yaml
expect 0 "$RESCFG" -q simulate --config "$SRC/testdata/schedule/preemption-worked-example/config.yaml" \
  --trace "$PTRACE" --plot preempt.svg -o /dev/null
contains preempt.svg '>Dev, 2 preempted</text>'
contains preempt.svg '>preemption (2 stops)</text>'
rsvg-convert preempt.svg -o preempt.png || fail "rsvg-convert cannot render the preemption picture"
python3 - preempt.svg preempt.png <<'PY' || fail "the preemption marks are not drawn where they must be"
import re, sys
from png_decode import decode
svg = open(sys.argv[1]).read()
w, h, rows = decode(sys.argv[2])
mark = (0x22, 0x22, 0x22)
# Each mark is a triangle pointing down: M x-6 y L x+6 y L x y+10.
tips = [(int(a) + 6, int(b)) for a, b in re.findall(r'<path d="M(\d+) (\d+) L\d+ \d+ L\d+ \d+ Z" fill="#222222"', svg)]
problems = []
legend = [t for t in tips if t[1] < 90]
panel = [t for t in tips if t[1] >= 90]
if len(legend) != 1: problems.append(f"{len(legend)} marks in the legend, expected 1")
if len(panel) != 1: problems.append(f"{len(panel)} marks in the pools' panels, expected 1 (both stops at 10:20)")
# Bare Metal's panel is the left one; 10:20 is 20 of the 170 minutes from 10:00.
for x, y in panel:
    if not 120 < x < 160: problems.append(f"the mark at x={x} is not at 10:20 in Bare Metal's panel")
for x, y in tips:
    if rows[y + 3][x] != mark: problems.append(f"the mark at ({x}, {y}) renders as {rows[y + 3][x]}")
for x, y in panel:  # the line down through the panel, below the triangle
    line = sum(1 for yy in range(y + 12, y + 78) for xx in (x - 1, x, x + 1) if max(rows[yy][xx]) < 0x60)
    if line < 60: problems.append(f"no line down from the mark at ({x}, {y}): {line} dark px")
print("\n".join(problems) or "ok")
sys.exit(1 if problems else 0)
PY
for off in "$SRC/testdata/simulate/preemption/../../examples/worked-example.yaml" \
           "$SRC/testdata/schedule/preemption-worked-example-30m/config.yaml"; do
  expect 0 "$RESCFG" -q simulate --config "$off" --trace "$PTRACE" --plot off.svg -o /dev/null
  ! grep -q -e '#222222' -e 'preempt' off.svg || fail "a picture without preemption marks or counts it ($off)"
done

# A thousand pools fold into a "rest" panel: the picture stays within what
# renderers accept (32 767 px) and still renders.
{
  echo "apiVersion: rescfg/v1"; echo "kind: ResourceConfiguration"; echo "pools:"
  for x in $(seq 0 999); do printf '  - {name: pool-%03d, resources: 8}\n' "$x"; done
  echo "profiles:"
  printf '  - name: p\n    allotment: 8\n    links: ['
  for x in $(seq 0 999); do printf '%spool-%03d' "$([ "$x" = 0 ] || echo ', ')" "$x"; done
  printf ']\n'
  echo "policies: [{name: team, profiles: [p]}]"
} > thousand.yaml
awk 'BEGIN { print "apiVersion: rescfg/v1\nkind: JobList\njobs:";
  for (i = 0; i < 1500; i++) printf "  - {id: j%d, policy: team, profile: p, submitted: \"2026-11-29T10:%02d:00Z\", duration: 3600}\n", i, i % 60 }' > thousand-trace.yaml
expect 0 "$RESCFG" -q simulate --config thousand.yaml --trace thousand-trace.yaml --plot thousand.svg -o /dev/null
height=$(grep -oE '<svg [^>]*height="[0-9]+"' thousand.svg | grep -oE '[0-9]+"$' | tr -d '"')
[ -n "$height" ] && [ "$height" -le 32767 ] || fail "a thousand pools make a picture $height px tall"
grep -q '953 other pools' thousand.svg || fail "no panel for the other pools"
rsvg-convert thousand.svg -o thousand.png || fail "rsvg-convert cannot render a thousand pools"

# Nothing is written on exit 2, and an unwritable picture is an error.
expect 2 "$RESCFG" simulate --config plot-config.yaml --trace plot-trace.yaml --until 2026-11-29T09:00:00Z --plot none.svg
[ ! -e none.svg ] || fail "--plot written on exit 2"
expect 2 "$RESCFG" simulate --config plot-config.yaml --trace plot-trace.yaml --plot no-such-dir/usage.svg -o kept.json
[ ! -e kept.json ] || fail "-o written although the picture could not be"
expect 2 "$RESCFG" simulate --config plot-config.yaml --trace plot-trace.yaml --plot ""

exit $((failures > 0))
