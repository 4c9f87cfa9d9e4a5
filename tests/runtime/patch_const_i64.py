#!/usr/bin/env python3
"""Tampers with a compiled module: rewrites the first `const.i64 OLD` of
FUNCTION's bytecode to NEW, as an attacker editing a .vmfb would (the
bytecode carries no digest, so the file still opens and verifies).

usage: patch_const_i64.py GRT_DUMP INPUT.vmfb OUTPUT.vmfb FUNCTION OLD NEW

The function's bytecode range and the instruction's offset come from
`grt-dump --json`; the bytecode blob is found through the FlatBuffer
(ModuleDef field 8, `bytecode`). const.i64 is encoded as the opcode, the
8-byte little-endian immediate, then the result register.
"""
import json
import re
import struct
import subprocess
import sys

BYTECODE_FIELD = 8  # ModuleDef.bytecode (schemas/module.fbs)


def fail(message):
    sys.stderr.write("patch_const_i64.py: %s\n" % message)
    sys.exit(1)


def bytecode_start(data):
    # Size-prefixed FlatBuffer: u32 size, then the buffer with its root
    # uoffset first.
    base = 4
    root = base + struct.unpack_from("<I", data, base)[0]
    vtable = root - struct.unpack_from("<i", data, root)[0]
    vtable_size = struct.unpack_from("<H", data, vtable)[0]
    slot = 4 + 2 * BYTECODE_FIELD
    if slot + 2 > vtable_size:
        fail("module has no bytecode field")
    field_offset = struct.unpack_from("<H", data, vtable + slot)[0]
    if field_offset == 0:
        fail("module has no bytecode")
    field = root + field_offset
    vector = field + struct.unpack_from("<I", data, field)[0]
    return vector + 4


def main(argv):
    if len(argv) != 7:
        fail("usage: patch_const_i64.py GRT_DUMP INPUT OUTPUT FUNCTION OLD NEW")
    dump, source, target, function, old, new = argv[1:]
    old, new = int(old), int(new)
    info = json.loads(subprocess.check_output([dump, "--json", source]))
    matches = [f for f in info["functions"] if f["name"] == function]
    if not matches:
        fail("no function '%s' in %s" % (function, source))
    func = matches[0]
    pattern = re.compile(r"^\s*0x([0-9a-f]+)\s+%\S+ = const\.i64 (-?\d+)$", re.M)
    offsets = [int(m.group(1), 16) for m in pattern.finditer(func["disassembly"])
               if int(m.group(2)) == old]
    if not offsets:
        fail("function '%s' has no const.i64 %d" % (function, old))
    data = bytearray(open(source, "rb").read())
    immediate = (bytecode_start(data) + func["bytecode_offset"] + offsets[0] + 1)
    if struct.unpack_from("<q", data, immediate)[0] != old:
        fail("the bytes at the instruction are not the immediate %d" % old)
    struct.pack_into("<q", data, immediate, new)
    open(target, "wb").write(bytes(data))
    print("patched %s: const.i64 %d -> %d at bytecode offset 0x%x"
          % (function, old, new, offsets[0]))


if __name__ == "__main__":
    main(sys.argv)
