#!/usr/bin/env python3
"""Checks the counts docs/status.md states against what they count:

  - "`tests/hal_cts/` (N cases)": the lines `hal_cts --list` prints;
  - "N generated check files": the .mlir files in tests/e2e/stablehlo;
  - the ONNX pass counts ("N of M pass on local-sync", "simple: N of M"):
    the figures of docs/onnx.md's table, which tests/onnx/check_doc.sh
    checks against the exceptions files and the test data.

(The hal and check export counts are checked by runtime_abi_test.) Prints
each mismatch with both numbers and exits 1; exits 2 when a statement it
looks for is missing, so a reworded doc cannot silently drop its check.

  check_counts.py SOURCE_DIR HAL_CTS
"""
import glob
import os
import re
import subprocess
import sys


def find(pattern, text, what):
    match = re.search(pattern, text)
    if not match:
        print(f"docs/status.md: cannot find {what} (pattern {pattern!r}); "
              "update tests/docs/check_counts.py with the doc", file=sys.stderr)
        sys.exit(2)
    return match


def main():
    if len(sys.argv) != 3:
        print("usage: check_counts.py SOURCE_DIR HAL_CTS", file=sys.stderr)
        return 2
    source, hal_cts = sys.argv[1], sys.argv[2]
    status = open(os.path.join(source, "docs/status.md"), encoding="utf-8").read()
    onnx = open(os.path.join(source, "docs/onnx.md"), encoding="utf-8").read()
    problems = []

    stated = int(find(r"`tests/hal_cts/` \((\d+) cases\)", status, "the CTS case count").group(1))
    listed = subprocess.run([hal_cts, "--list"], capture_output=True, text=True, check=True)
    actual = len([line for line in listed.stdout.splitlines() if line.strip()])
    if stated != actual:
        problems.append(f"the CTS has {actual} cases (hal_cts --list), status.md says {stated}")

    stated = int(find(r"(\d+) generated check files", status, "the e2e file count").group(1))
    actual = len(glob.glob(os.path.join(source, "tests/e2e/stablehlo/*.mlir")))
    if stated != actual:
        problems.append(f"tests/e2e/stablehlo has {actual} .mlir files, status.md says {stated}")

    node = find(r"exceptions_node_local_sync\.txt:node --> (\d+) of (\d+)", onnx,
                "docs/onnx.md's node row")
    stated = find(r"node tests: (\d+) of (\d+) pass on local-sync", status, "the ONNX node count")
    if stated.groups() != node.groups():
        problems.append("status.md says %s of %s ONNX node tests pass, docs/onnx.md %s of %s"
                        % (stated.groups() + node.groups()))
    torch = find(r"simple --> (\d+) of (\d+)", onnx, "docs/onnx.md's pytorch row")
    stated = find(r"simple: (\d+) of (\d+)", status, "the ONNX pytorch count")
    if stated.groups() != torch.groups():
        problems.append("status.md says %s of %s pytorch ONNX tests pass, docs/onnx.md %s of %s"
                        % (stated.groups() + torch.groups()))

    for problem in problems:
        print("docs/status.md: " + problem, file=sys.stderr)
    if problems:
        return 1
    print("docs/status.md: 4 counts match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
