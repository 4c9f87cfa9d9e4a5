"""Checks grt-benchmark's --benchmark_format=json output read from stdin.

    grt-benchmark ... --benchmark_format=json | python3 benchmark_json_check.py N

The output must be one JSON object with every documented key, N
repetitions and N times, and aggregates consistent with the times (no
timing thresholds: only the shape and the arithmetic are checked).
"""
import json
import sys


def main():
    want = int(sys.argv[1])
    text = sys.stdin.read()
    try:
        report = json.loads(text)
    except json.JSONDecodeError as e:
        sys.exit(f"not JSON ({e}): {text!r}")
    keys = ["module", "function", "device", "repetitions", "warmup",
            "times_ns", "min_ns", "median_ns", "mean_ns", "stddev_ns"]
    missing = [k for k in keys if k not in report]
    if missing:
        sys.exit(f"missing keys {missing} in {report}")
    if report["repetitions"] != want:
        sys.exit(f"repetitions {report['repetitions']}, wanted {want}")
    times = report["times_ns"]
    if len(times) != want or not all(isinstance(t, int) and t >= 0
                                     for t in times):
        sys.exit(f"times_ns should be {want} whole nanosecond counts: {times}")
    if report["min_ns"] != min(times):
        sys.exit(f"min_ns {report['min_ns']} is not the least of {times}")
    if not min(times) <= report["median_ns"] <= max(times):
        sys.exit(f"median_ns {report['median_ns']} outside {times}")
    print(f"ok: {want} repetitions on {report['device']}")


main()
