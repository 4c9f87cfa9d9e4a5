#!/usr/bin/env python3
"""Runs a folder of IREE-style check modules through grt and counts them.

Each FOLDER/*.mlir is compiled with grt-compile and run with grt-check on
one device. A vm-dialect module's test functions are its exported test_*
and fail_* functions (fail_* must fail); any other module's are its
public func.func functions not named __* (a private one is not exported), as
IREE's iree-check-module runs them.
A file passes when it compiles and every test function passes; a module with
nothing to run (every public function takes arguments and no check op is
present) passes when it compiles, and the totals count those apart.

  run_upstream_checks.py FOLDER [--bin BUILD/bin] [--device local-sync]
                         [--json OUT.json] [--require-all]

Prints one line per file (PASS/FAIL, functions passed/total, the first
error) and a total of files and functions. Exits 1 with --require-all
when anything failed, 2 on a usage error. Standard library only.
"""
import argparse
import json
import os
import re
import subprocess
import sys

EXPORT = re.compile(r"^\s*vm\.export\s+@([\w.$]+)", re.M)
FUNC = re.compile(r"^\s*func\.func\s+(public\s+|private\s+|nested\s+)?@([\w.$]+)\s*\(\s*(\)?)",
                  re.M)
RESULT = re.compile(r"^\[ (PASS|FAIL) \] ([\w.$]+)(.*)")


def test_functions(text):
    if re.search(r"^\s*vm\.module\b", text, re.M):
        return [n for n in EXPORT.findall(text) if n.startswith(("test_", "fail_"))]
    # A private (or nested) func.func is not exported, so no runner calls it.
    return [n for vis, n, _ in FUNC.findall(text)
            if not n.startswith("__") and vis.strip() not in ("private", "nested")]


def compile_only(text):
    """Whether a func.func module has nothing to run: every public function
    takes arguments and no check op looks at anything (the StableHLO testdata
    suite's *_dynamic.mlir files, which that suite itself only parses and
    round-trips through its serialization). Such a file passes when it
    compiles; the totals count these files apart."""
    if re.search(r"^\s*vm\.module\b", text, re.M) or "check." in text:
        return False
    public = [no_args for vis, n, no_args in FUNC.findall(text)
              if not n.startswith("__") and vis.strip() not in ("private", "nested")]
    return bool(public) and not any(public)


def first_line(text, prefer="error"):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    for line in lines:
        if prefer in line:
            return line.strip()
    return lines[-1].strip() if lines else "(no output)"


def run_file(path, bin_dir, device, out_dir, timeout):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    names = test_functions(text)
    vmfb = os.path.join(out_dir, os.path.basename(path)[:-len(".mlir")] + ".vmfb")
    entry = {"functions": {n: False for n in names}, "error": None,
             "compile_only": compile_only(text)}
    if entry["compile_only"]:
        entry["functions"] = {}
    try:
        built = subprocess.run([os.path.join(bin_dir, "grt-compile"), path, "-o", vmfb],
                               capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        entry["error"] = "compile: timed out after %d s" % timeout
        return entry
    if built.returncode != 0:
        entry["error"] = "compile: " + first_line(built.stderr + built.stdout)
        return entry
    if entry["compile_only"]:
        return entry
    try:
        ran = subprocess.run([os.path.join(bin_dir, "grt-check"), "--device=" + device, vmfb],
                             capture_output=True, text=True, timeout=timeout)
        log = ran.stdout + ran.stderr
    except subprocess.TimeoutExpired:
        entry["error"] = "run: timed out after %d s" % timeout
        return entry
    seen = {}
    for line in log.splitlines():
        m = RESULT.match(line)
        if m:
            seen[m.group(2)] = (m.group(1) == "PASS", m.group(3).strip(" :"))
    for name in names:
        ok, why = seen.get(name, (False, None))
        entry["functions"][name] = ok
        if not ok and entry["error"] is None:
            entry["error"] = ("%s: %s" % (name, why) if why is not None
                              else "run: %s not run: %s" % (name, first_line(log)))
    if not names:
        entry["error"] = "no test functions found"
    return entry


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--bin", default=os.path.join("build", "bin"),
                        help="folder holding grt-compile and grt-check (default build/bin)")
    parser.add_argument("--device", default="local-sync")
    parser.add_argument("--json", help="write the per-file results here")
    parser.add_argument("--out", help="folder for the .vmfb files (default FOLDER's name "
                        "under the system's temporary folder)")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per step")
    parser.add_argument("--require-all", action="store_true",
                        help="exit 1 unless every file passes")
    args = parser.parse_args()
    if not os.path.isdir(args.folder):
        parser.error("%s is not a folder" % args.folder)
    for tool in ("grt-compile", "grt-check"):
        if not os.access(os.path.join(args.bin, tool), os.X_OK):
            parser.error("no executable %s in %s (pass --bin)" % (tool, args.bin))
    out_dir = args.out or os.path.join(
        os.environ.get("TMPDIR", "/tmp"),
        "grt_upstream_" + os.path.basename(os.path.abspath(args.folder)))
    os.makedirs(out_dir, exist_ok=True)
    files = sorted(n for n in os.listdir(args.folder) if n.endswith(".mlir"))
    if not files:
        parser.error("no .mlir files in %s" % args.folder)
    results = {}
    passed_files = passed_functions = total_functions = 0
    only_files = only_passed = 0
    for name in files:
        entry = run_file(os.path.join(args.folder, name), args.bin, args.device, out_dir,
                         args.timeout)
        results[name] = entry
        ok = entry["error"] is None
        good = sum(entry["functions"].values())
        passed_files += ok
        passed_functions += good
        total_functions += len(entry["functions"])
        only_files += entry["compile_only"]
        only_passed += entry["compile_only"] and ok
        print("%s %s %s%s" % ("PASS" if ok else "FAIL", name,
                              "compile only" if entry["compile_only"]
                              else "%d/%d" % (good, len(entry["functions"])),
                              "" if ok else "  " + entry["error"][:300]))
    print("files %d/%d (%.1f%%), test functions %d/%d (%.1f%%)" % (
        passed_files, len(files), 100.0 * passed_files / len(files), passed_functions,
        total_functions, 100.0 * passed_functions / max(total_functions, 1)))
    if only_files:
        run = len(files) - only_files
        print("of which compile only (nothing to run: every public function takes "
              "arguments, no check): %d/%d; files with tests %d/%d (%.1f%%)" % (
                  only_passed, only_files, passed_files - only_passed, run,
                  100.0 * (passed_files - only_passed) / max(run, 1)))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    return 1 if args.require_all and passed_files != len(files) else 0


if __name__ == "__main__":
    sys.exit(main())
