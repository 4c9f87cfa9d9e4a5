#!/usr/bin/python3
"""Bytes a linked program takes from each static library, by section kind.

    section_sizes.py LINK.map PATTERN...

LINK.map is GNU ld's -Map output of a link made with -ffunction-sections,
-fdata-sections and --gc-sections. Every input section the linker kept is
listed under its output section with its address, size and the archive
member it came from ("/x/libgrt_vm.a(interpreter.c.o)"); discarded ones are
listed apart, before "Memory Configuration", and are not counted. Each kept
section is counted under text (.text*), rodata (.rodata*), relro
(.data.rel.ro*), data (.data*) or bss (.bss*, COMMON) for the archive whose
file name matches one of the PATTERNs (fnmatch, e.g. 'libgrt*.a'), and for
"other" (the application, libc, ...) otherwise. Prints one line per kind:
"KIND MATCHED OTHER" in bytes.
"""
import fnmatch
import os
import re
import sys

KINDS = ("text", "rodata", "relro", "data", "bss")


def kind_of(name):
    if name.startswith(".text"):
        return "text"
    if name.startswith(".rodata"):
        return "rodata"
    if name.startswith(".data.rel.ro"):
        return "relro"
    if name.startswith(".data"):
        return "data"
    if name.startswith(".bss") or name == "COMMON":
        return "bss"
    return None


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: section_sizes.py LINK.map PATTERN...\n")
        return 2
    path, patterns = argv[1], argv[2:]
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        sys.stderr.write("section_sizes.py: cannot read %s: %s\n" % (path, e.strerror))
        return 1
    try:
        start = next(i for i, l in enumerate(lines) if l.startswith("Linker script and memory map"))
    except StopIteration:
        sys.stderr.write("section_sizes.py: %s is not a GNU ld map file (no 'Linker "
                         "script and memory map')\n" % path)
        return 1
    sizes = {k: [0, 0] for k in KINDS}
    # An input section: " .text.name  0xADDR  0xSIZE  file", or its name
    # alone on one line and "0xADDR 0xSIZE file" on the next.
    entry = re.compile(r"^ (\S+)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$")
    pending = None
    for line in lines[start:]:
        if re.match(r"^ \S+$", line):
            pending = line.strip()
            continue
        m = entry.match(line)
        name = None
        if m:
            name = m.group(1) or pending
        pending = None
        if not m or not name:
            continue
        kind = kind_of(name)
        size = int(m.group(3), 16)
        if not kind or not size:
            continue
        source = m.group(4).strip()
        archive = os.path.basename(source.split("(")[0])
        matched = any(fnmatch.fnmatch(archive, p) for p in patterns)
        sizes[kind][0 if matched else 1] += size
    for kind in KINDS:
        print("%s %d %d" % (kind, sizes[kind][0], sizes[kind][1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
