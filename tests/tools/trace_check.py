#!/usr/bin/env python3
"""Checks what grt-run and grt-benchmark write and print about where the
time goes (tests/tools/CMakeLists.txt).

  trace_check.py trace FILE.json DEVICE CALLS KERNEL=LOCATION...
      FILE.json is Chrome trace-event JSON: it parses; every event is a
      complete event ("ph": "X") with a name, a category, pid, tid and
      nonnegative ts and dur in microseconds, or a metadata event naming the
      process or a thread; every thread that has events is named; slices of
      one thread nest (Perfetto needs that); each KERNEL has at least one
      dispatch slice, each with a location ending in LOCATION, a workgroup
      count of three positive numbers, a workgroup range inside it and a
      worker; there are CALLS call slices and the submits and waits of
      DEVICE. On local-task, dispatches run on the queue thread as worker 0
      or on threads named "local-task worker N" whose slices all say
      worker N.

  trace_check.py statistics KERNEL...
      stdin is grt-run --print_statistics output: the statistics block, then
      the table of the top dispatches with one well-formed row per KERNEL
      (count, total_ms, mean_us, share, name and [location]) whose shares add
      up to 100% within rounding, then the total row.

Prints one line starting with "ok:" on success; exits 1 naming the first
problem otherwise.
"""
import json
import re
import sys


def fail(message):
    print("trace_check: " + message, file=sys.stderr)
    sys.exit(1)


def ns(microseconds):
    # ts and dur carry three decimals: whole nanoseconds.
    return int(round(microseconds * 1000))


def check_trace(path, device, calls, kernels):
    try:
        with open(path, encoding="utf-8") as f:
            trace = json.load(f)
    except (OSError, ValueError) as e:
        fail("%s is not valid JSON: %s" % (path, e))
    events = trace.get("traceEvents")
    if not isinstance(events, list):
        fail("no traceEvents list")
    if trace.get("otherData", {}).get("dropped_events") != 0:
        fail("events were dropped: %r" % trace.get("otherData"))
    thread_names = {}
    slices = []
    pids = set()
    for event in events:
        phase = event.get("ph")
        for key in ("name", "pid", "tid"):
            if key not in event:
                fail("event without %s: %r" % (key, event))
        pids.add(event["pid"])
        if phase == "M":
            if event["name"] == "thread_name":
                thread_names[event["tid"]] = event["args"]["name"]
            elif event["name"] != "process_name":
                fail("unknown metadata event %r" % event)
            continue
        if phase != "X":
            fail("event is not a complete event: %r" % event)
        for key in ("cat", "ts", "dur", "args"):
            if key not in event:
                fail("slice without %s: %r" % (key, event))
        if event["ts"] < 0 or event["dur"] < 0:
            fail("negative time in %r" % event)
        slices.append(event)
    if len(pids) != 1:
        fail("events of %d processes" % len(pids))
    for event in slices:
        if event["tid"] not in thread_names:
            fail("thread %d has no thread_name" % event["tid"])

    # Slices of one thread nest: each ends before the one it starts in.
    by_thread = {}
    for event in slices:
        by_thread.setdefault(event["tid"], []).append(event)
    for tid, events_of_thread in by_thread.items():
        ordered = sorted(events_of_thread,
                         key=lambda e: (ns(e["ts"]), -ns(e["dur"])))
        open_ends = []
        for event in ordered:
            start, end = ns(event["ts"]), ns(event["ts"]) + ns(event["dur"])
            while open_ends and open_ends[-1] <= start:
                open_ends.pop()
            if open_ends and end > open_ends[-1]:
                fail("on thread %d (%s), %r overlaps the slice it starts in"
                     % (tid, thread_names[tid], event))
            open_ends.append(end)

    dispatches = [e for e in slices if e["cat"] == "dispatch"]
    for kernel_spec in kernels:
        name, _, location = kernel_spec.partition("=")
        mine = [e for e in dispatches if e["name"] == name]
        if not mine:
            fail("no dispatch slice of %s (dispatched: %s)"
                 % (name, sorted({e["name"] for e in dispatches})))
        for event in mine:
            args = event["args"]
            if not args.get("location", "").endswith(location):
                fail("%s: location %r, expected one ending in %r"
                     % (name, args.get("location"), location))
            counts = args.get("workgroup_count")
            if (not isinstance(counts, list) or len(counts) != 3 or
                    any(not isinstance(c, int) or c < 1 for c in counts)):
                fail("%s: bad workgroup_count %r" % (name, counts))
            total = counts[0] * counts[1] * counts[2]
            if (args["workgroups"] < 1 or args["first_workgroup"] < 0 or
                    args["first_workgroup"] + args["workgroups"] > total):
                fail("%s: workgroups %d+%d outside %d" % (
                    name, args["first_workgroup"], args["workgroups"], total))
            if not isinstance(args.get("worker"), int):
                fail("%s: no worker" % name)
    expected = set(k.partition("=")[0] for k in kernels)
    unexpected = {e["name"] for e in dispatches} - expected
    if unexpected:
        fail("dispatches of unexpected kernels %s" % sorted(unexpected))

    call_count = len([e for e in slices if e["cat"] == "call"])
    if call_count != calls:
        fail("%d call slices, expected %d" % (call_count, calls))
    submits = [e for e in slices if e["cat"] == "submit"]
    if not any(e["name"] == "queue.execute" and e["args"]["device"] == device
               for e in submits):
        fail("no queue.execute submit on %s" % device)
    if not any(e["cat"] == "wait" for e in slices):
        fail("no wait slice")

    worker_threads = set()
    if device == "local-task":
        for event in dispatches:
            thread = thread_names[event["tid"]]
            match = re.fullmatch(r"local-task worker (\d+)", thread)
            if match:
                worker_threads.add(event["tid"])
                if int(match.group(1)) != event["args"]["worker"]:
                    fail("slice of worker %d on thread %r" %
                         (event["args"]["worker"], thread))
            elif thread != "local-task queue" or event["args"]["worker"] != 0:
                fail("local-task dispatch on thread %r as worker %d" %
                     (thread, event["args"]["worker"]))
        # The pool's threads may all stay idle on a loaded machine (the
        # queue thread, worker 0, then runs every task), so none is required.
        if not any(e["cat"] == "execute" for e in slices):
            fail("no execute slice of the local-task queue")
    print("ok: %d slices, %d dispatch slices of %d kernels, %d calls, "
          "%d worker threads on %s" % (len(slices), len(dispatches),
                                       len(kernels), call_count,
                                       len(worker_threads), device))


def check_statistics(kernels):
    text = sys.stdin.read()
    lines = text.splitlines()
    for key in ("load_ns", "call_ns", "dispatch_count", "dispatch_total_ns",
                "kernel_count", "wait_count"):
        if not any(re.fullmatch(r"  %s: \d+" % key, line) for line in lines):
            fail("no '  %s: N' line in:\n%s" % (key, text))
    title = "  top dispatches by total time (%d of %d kernel%s):" % (
        len(kernels), len(kernels), "" if len(kernels) == 1 else "s")
    if title not in lines:
        fail("no line %r in:\n%s" % (title, text))
    at = lines.index(title)
    header = "       count    total_ms     mean_us   share  kernel [location]"
    if lines[at + 1] != header:
        fail("header %r, expected %r" % (lines[at + 1], header))
    row = re.compile(r"  +(\d+) +(\d+\.\d{3}) +(\d+\.\d{3}) +(\d+\.\d)%  "
                     r"(\S+) \[(.+)\]")
    shares = 0.0
    names = []
    previous_total = None
    for line in lines[at + 2:at + 2 + len(kernels)]:
        match = row.fullmatch(line)
        if not match:
            fail("bad table row %r" % line)
        count, total = int(match.group(1)), float(match.group(2))
        if count < 1:
            fail("row %r counts no dispatch" % line)
        if previous_total is not None and total > previous_total:
            fail("rows are not sorted by total time: %r" % line)
        previous_total = total
        shares += float(match.group(4))
        names.append(match.group(5))
    if sorted(names) != sorted(kernels):
        fail("kernels %s, expected %s" % (names, kernels))
    if abs(shares - 100.0) > 0.1 * len(kernels):
        fail("shares add up to %.1f%%" % shares)
    total_row = lines[at + 2 + len(kernels)]
    if not re.fullmatch(r"  +\d+ +\d+\.\d{3} +100\.0%  \(all kernels\)",
                        total_row):
        fail("bad total row %r" % total_row)
    print("ok: %d kernels, shares %.1f%%" % (len(kernels), shares))


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "trace":
        check_trace(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "statistics":
        check_statistics(sys.argv[2:])
    else:
        fail("usage: trace_check.py trace FILE.json DEVICE CALLS "
             "KERNEL=LOCATION... | statistics KERNEL...")


if __name__ == "__main__":
    main()
