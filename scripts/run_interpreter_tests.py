#!/usr/bin/python3
"""Runs openxla/stablehlo's interpreter tests (stablehlo/tests/interpret/*.mlir
and the older interpret_*.mlir files, fetched into a folder outside the
repository) through grt: every .mlir under FOLDER that uses check.* ops is
split at its `// -----` lines (as the interpreter's -split-input-file does;
pieces without a func.func are skipped), each piece compiled with
grt-compile and run with grt-check on local-sync. A file passes when all its
pieces do. Writes one line per piece (PASS/FAIL, the piece, its first
function, the first error line) and per file to OUT, and prints the totals.

  scripts/run_interpreter_tests.py FOLDER BINDIR OUT.txt
  (BINDIR holds grt-compile and grt-check, e.g. build/bin)
"""
import os
import re
import subprocess
import sys
import tempfile


def first_line(text, words):
    for line in text.splitlines():
        if any(w in line for w in words):
            return line.strip()
    return text.strip()[:200]


def run_piece(bindir, work, piece):
    source = os.path.join(work, "piece.mlir")
    module = os.path.join(work, "piece.vmfb")
    with open(source, "w") as out:
        out.write(piece)
    r = subprocess.run([os.path.join(bindir, "grt-compile"), source, "-o", module],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return "compile: " + first_line(r.stderr + r.stdout, ("error",))
    r = subprocess.run([os.path.join(bindir, "grt-check"), "--device=local-sync", module],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return "check: " + first_line(r.stdout + r.stderr, ("FAIL", "error", "ERROR"))
    return None


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    folder, bindir, out_path = sys.argv[1:]
    files = []
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            if name.endswith(".mlir") and re.search(r"\bcheck\.", open(path).read()):
                files.append(path)
    files.sort()
    lines = []
    files_passed = pieces_passed = pieces = 0
    with tempfile.TemporaryDirectory() as work:
        for path in files:
            rel = os.path.relpath(path, folder)
            parts = re.split(r"^// -----.*$", open(path).read(), flags=re.M)
            parts = [p for p in parts if re.search(r"func\.func", p)]
            passed = True
            for i, piece in enumerate(parts):
                name = re.search(r"func\.func\s+(?:\w+\s+)?@([\w.]+)", piece).group(1)
                error = run_piece(bindir, work, piece)
                pieces += 1
                if error is None:
                    pieces_passed += 1
                    lines.append("PASS %s#%d %s" % (rel, i, name))
                else:
                    passed = False
                    lines.append("FAIL %s#%d %s: %s" % (rel, i, name, error[:300]))
            files_passed += passed
            lines.append("FILE %s %s (%d pieces)" % ("PASS" if passed else "FAIL", rel,
                                                      len(parts)))
    lines.append("TOTAL files %d/%d pieces %d/%d" % (files_passed, len(files),
                                                      pieces_passed, pieces))
    with open(out_path, "w") as out:
        out.write("\n".join(lines) + "\n")
    print(lines[-1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
