"""Cross-checks tools/npy.c against numpy, through npy_copy.

Every dtype grt shares with numpy is written by numpy (np.save, several
arrays appended to one file), copied by npy_copy (our reader, then our
writer), and read back by numpy, which must get the same arrays. Then the
files numpy can write but grt must refuse are fed to npy_copy, which must
fail naming the file and the problem. numpy (python3-numpy) is a test
dependency: without it the test fails, saying so.
"""
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("FAILED: numpy is not installed: run scripts/install-deps.sh (apt-get install python3-numpy)")
    sys.exit(1)

npy_copy = sys.argv[1]
tmp = tempfile.mkdtemp(prefix="grt_npy_")


def run(src, dst):
    return subprocess.run([npy_copy, src, dst], capture_output=True, text=True)


arrays = [
    np.arange(6, dtype="<f4").reshape(2, 3) / 3,
    np.array([1.5, -2.25, np.inf], dtype="<f2"),
    np.array(np.pi, dtype="<f8"),
    np.array([True, False, True]),
    np.arange(-4, 4, dtype="i1").reshape(2, 2, 2),
    np.array([-32768, 32767], dtype="<i2"),
    np.array([[-(2**31), 2**31 - 1]], dtype="<i4"),
    np.array([-(2**63), 2**63 - 1], dtype="<i8"),
    np.array([0, 255], dtype="u1"),
    np.array([65535], dtype="<u2"),
    np.array([2**32 - 1], dtype="<u4"),
    np.array([2**64 - 1], dtype="<u8"),
    np.zeros((0, 4), dtype="<f4"),
]
src = os.path.join(tmp, "in.npy")
dst = os.path.join(tmp, "out.npy")
with open(src, "wb") as f:
    for a in arrays:
        np.save(f, a)
result = run(src, dst)
if result.returncode != 0:
    sys.exit("npy_copy failed: " + result.stderr)
lines = result.stdout.splitlines()
if len(lines) != len(arrays):
    sys.exit("npy_copy read %d arrays, numpy wrote %d" % (len(lines), len(arrays)))
with open(dst, "rb") as f:
    for i, a in enumerate(arrays):
        b = np.load(f)
        if b.dtype != a.dtype or b.shape != a.shape or not np.array_equal(a, b):
            sys.exit("array %d: numpy wrote %r %r, read back %r %r"
                     % (i, a.dtype, a.shape, b.dtype, b.shape))
        want = " ".join([a.dtype.str] + [str(d) for d in a.shape])
        if lines[i] != want:
            sys.exit("array %d: npy_copy saw %r, expected %r" % (i, lines[i], want))
    if f.read():
        sys.exit("out.npy has bytes after the last array")

# A header longer than format 1.0 allows: numpy writes version 2.0.
big = np.zeros((1,) * 16, dtype="<f4")
v2 = os.path.join(tmp, "v2.npy")
with open(v2, "wb") as f:
    np.lib.format.write_array(f, big, version=(2, 0))
result = run(v2, dst)
if result.returncode != 0 or result.stdout.strip() != "<f4 " + " ".join(["1"] * 16):
    sys.exit("version 2.0: " + result.stdout + result.stderr)

# complex64/complex128 read as f32/f64 with a trailing 2 (re, im), and are
# written as that float array.
for dtype, part in (("<c8", "<f4"), ("<c16", "<f8")):
    a = (np.arange(6).reshape(2, 3) + 1j * (np.arange(6).reshape(2, 3) - 2.5)).astype(dtype)
    path = os.path.join(tmp, "c.npy")
    np.save(path, a)
    result = run(path, dst)
    want = " ".join([part, "2", "3", "2"])
    if result.returncode != 0 or result.stdout.strip() != want:
        sys.exit("%s: expected %r, got %r %r" % (dtype, want, result.stdout, result.stderr))
    b = np.load(dst)
    if b.dtype != np.dtype(part) or not np.array_equal(b.view(dtype)[..., 0], a):
        sys.exit("%s: read back %r %r" % (dtype, b.dtype, b.shape))

rejected = [
    ("big.npy", np.arange(3, dtype=">f4"), "dtype '>f4' is big-endian; expected little-endian"),
    ("fortran.npy", np.asfortranarray(np.ones((2, 3), dtype="<f4")),
     "fortran_order arrays are not supported"),
    ("complex.npy", np.ones(2, dtype=">c8"), "dtype '>c8' is not supported"),
    ("struct.npy", np.zeros(2, dtype=[("a", "<f4"), ("b", "<i4")]),
     "structured dtypes are not supported"),
    ("object.npy", np.array([None, 1], dtype=object), "dtype '|O' is not supported"),
]
for name, array, message in rejected:
    path = os.path.join(tmp, name)
    np.save(path, array, allow_pickle=True)
    result = run(path, dst)
    want = path + ": " + message
    if result.returncode != 1 or want not in result.stderr:
        sys.exit("%s: expected failure containing %r, got rc %d: %s"
                 % (name, want, result.returncode, result.stderr))
print("numpy and grt agree on %d arrays; %d files rejected"
      % (len(arrays) + 1, len(rejected)))
