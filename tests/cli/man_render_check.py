#!/usr/bin/env python3
"""Mistakes of mdoc that lint does not catch, in the source and in the text
it renders to: a word rendered as an option (`.Fl -check : every file`
prints "-every -file"), and quotes that do not pair up.
Usage: man_render_check.py PAGE RENDERED_TEXT"""
import re
import shlex
import sys

# Callable mdoc macros: a `Fl` applies to the words after it up to the next one.
MACROS = set("""Ac Ad An Ao Ap Aq Ar At Bc Bo Bq Brc Bro Brq Bsx Bx Cd Cm Dc Do Dq Dv Dx Ec Em En Eo Er Es
Ev Ex Fa Fc Fl Fn Fo Ft Fx Ic In Li Lk Ms Mt Nm No Ns Nx Oc Oo Op Ox Pa Pc Pf Po Pq Qc Ql Qo Qq Sc
So Sq St Sx Sy Tn Ux Va Vt Xc Xo Xr""".split())
PUNCT = re.compile(r'^(\\&)?[.,:;()\[\]?!|]+$')


def source_problems(path):
    problems = []
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.startswith(".") or line.startswith(".\\\""):
            continue
        try:
            tokens = shlex.split(line[1:].replace("\\", "\\\\"), posix=True)
        except ValueError:
            tokens = line[1:].split()
        for i, token in enumerate(tokens):
            if token != "Fl":
                continue
            words, after_punct = 0, False
            for arg in tokens[i + 1:]:
                if arg in MACROS:
                    break
                if arg == "|":  # `.Op Fl q | v`: each side an option
                    words, after_punct = 0, False
                    continue
                if PUNCT.match(arg):
                    after_punct = True
                    continue
                words += 1
                if after_punct or words > 1:
                    problems.append(f"{path}:{number}: '{arg}' would be rendered as an option: {line.strip()}")
                    break
    return problems


def rendered_problems(path, text):
    problems = []
    for paragraph in re.split(r"\n\s*\n", text):
        flat = " ".join(paragraph.split())
        where = flat[:70]
        if flat.count('"') % 2:
            problems.append(f"{path}: unpaired double quote in: {where}...")
        for bad in ('"""', "'''", "``"):
            if bad in flat:
                problems.append(f"{path}: broken quotes {bad} in: {where}...")
        # "" is an empty string only between blanks or punctuation.
        for m in re.finditer('""', flat):
            before = flat[m.start() - 1] if m.start() else " "
            after = flat[m.end()] if m.end() < len(flat) else " "
            if before.isalnum() or after.isalnum():
                problems.append(f"{path}: nested quotes in: {flat[max(0, m.start() - 30):m.end() + 30]}")
        for m in re.finditer(r"`[^`']*`", flat):
            problems.append(f"{path}: unpaired single quote in: {m.group(0)[:60]}")
        # An option is "-x" or "--xyz"; one followed by words made options.
        for m in re.finditer(r"(?<![\w-])(--?[a-z][\w-]*)( -[a-z][\w']*){2,}", flat):
            problems.append(f"{path}: words rendered as options: {m.group(0)}")
    return problems


def main():
    page, rendered = sys.argv[1], sys.argv[2]
    text = open(rendered, encoding="utf-8", errors="replace").read()
    text = re.sub(".\b", "", text)
    problems = source_problems(page) + rendered_problems(page, text)
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


main()
