"""The grt package end to end: compile with grt-compile, load libgrt.so,
call with numpy arrays, and every error path with its message. ctest
python_grt sets GRT_LIBRARY, GRT_COMPILE, GRT_TEST_SOURCE_DIR and
GRT_TEST_WORK_DIR."""

import os
import subprocess
import unittest

import numpy as np

import grt

SOURCE = os.environ["GRT_TEST_SOURCE_DIR"]
WORK = os.environ["GRT_TEST_WORK_DIR"]

# Several results of several element types, and an i1 input.
TYPES_MLIR = """
func.func @mixed(%x: tensor<2x3xi32>, %flag: tensor<i1>) -> (tensor<2x3xi32>, tensor<2x3xf64>, tensor<i1>) {
  %0 = stablehlo.add %x, %x : tensor<2x3xi32>
  %1 = stablehlo.convert %x : (tensor<2x3xi32>) -> tensor<2x3xf64>
  %2 = stablehlo.not %flag : tensor<i1>
  return %0, %1, %2 : tensor<2x3xi32>, tensor<2x3xf64>, tensor<i1>
}
func.func @nothing(%x: tensor<4xf32>) {
  return
}
"""


def setUpModule():
    os.makedirs(WORK, exist_ok=True)


class CompileAndRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.mlp = grt.compile(os.path.join(SOURCE, "samples/mlp/mlp.mlir"),
                              output=os.path.join(WORK, "mlp.vmfb"))
        source = os.path.join(WORK, "types.mlir")
        with open(source, "w") as f:
            f.write(TYPES_MLIR)
        cls.types = grt.compile(source, output=os.path.join(WORK, "types.vmfb"))
        cls.x = np.load(os.path.join(SOURCE, "samples/mlp/input.npy"))
        cls.expected = np.load(os.path.join(SOURCE, "samples/mlp/expected.npy"))

    def test_mlp_on_both_cpu_drivers(self):
        for device in ("local-sync", "local-task"):
            with grt.load(self.mlp, device=device) as m:
                y = m.main(self.x)
                self.assertEqual(y.dtype, np.float32)
                self.assertEqual(y.shape, self.expected.shape)
                np.testing.assert_allclose(y, self.expected, rtol=1e-5, atol=1e-6)
                # The same session again, through call().
                np.testing.assert_allclose(m.call("main", self.x), y)

    def test_several_results_and_types(self):
        m = grt.load(self.types)
        x = np.arange(6, dtype=np.int32).reshape(2, 3)
        doubled, as_f64, flipped = m.mixed(x, np.array(True))
        np.testing.assert_array_equal(doubled, 2 * x)
        self.assertEqual(as_f64.dtype, np.float64)
        np.testing.assert_array_equal(as_f64, x.astype(np.float64))
        self.assertEqual(flipped.dtype, np.bool_)
        self.assertEqual(flipped.shape, ())
        self.assertFalse(bool(flipped))
        self.assertIsNone(m.nothing(np.zeros(4, np.float32)))
        m.close()

    def test_python_lists_are_arrays(self):
        with grt.load(self.types) as m:
            doubled, _, _ = m.mixed(np.array([[1, 2, 3], [4, 5, 6]], np.int32), False)
            np.testing.assert_array_equal(doubled, [[2, 4, 6], [8, 10, 12]])
            # A transposed (not C-contiguous) array is copied first.
            doubled, _, _ = m.mixed(np.arange(6, dtype=np.int32).reshape(3, 2).T, True)
            np.testing.assert_array_equal(doubled, 2 * np.arange(6, dtype=np.int32).reshape(3, 2).T)

    def test_wrong_shape_names_the_argument(self):
        with grt.load(self.mlp) as m:
            with self.assertRaises(grt.Error) as e:
                m.main(np.zeros((1, 63), np.float32))
            self.assertEqual(e.exception.code, "INVALID_ARGUMENT")
            self.assertIn("argument 0: expected tensor<1x64xf32>, got tensor<1x63xf32>", str(e.exception))

    def test_wrong_element_type_names_the_argument(self):
        with grt.load(self.mlp) as m:
            with self.assertRaises(grt.Error) as e:
                m.main(np.zeros((1, 64), np.float64))
            self.assertIn("argument 0: expected tensor<1x64xf32>, got tensor<1x64xf64>", str(e.exception))

    def test_dtype_without_element_type(self):
        with grt.load(self.mlp) as m:
            with self.assertRaises(TypeError) as e:
                m.main(np.zeros((1, 64), np.complex64))
            self.assertIn("input 0: dtype complex64 has no grt element type; expected one of", str(e.exception))

    def test_unknown_function(self):
        with grt.load(self.mlp) as m:
            with self.assertRaises(grt.Error) as e:
                m.mian(self.x)
            self.assertEqual(e.exception.code, "NOT_FOUND")
            self.assertIn("mian", str(e.exception))

    def test_closed_module(self):
        m = grt.load(self.mlp)
        m.close()
        m.close()  # twice is fine
        with self.assertRaises(grt.Error) as e:
            m.main(self.x)
        self.assertEqual(e.exception.code, "FAILED_PRECONDITION")
        self.assertIn("is closed", str(e.exception))


class LoadErrors(unittest.TestCase):
    def test_missing_file(self):
        with self.assertRaises(grt.Error) as e:
            grt.load(os.path.join(WORK, "no_such.vmfb"))
        self.assertIn("no_such.vmfb", str(e.exception))

    def test_not_a_module(self):
        path = os.path.join(WORK, "not_a_module.vmfb")
        with open(path, "wb") as f:
            f.write(b"this is not a module file at all")
        with self.assertRaises(grt.Error) as e:
            grt.load(path)
        self.assertEqual(e.exception.code, "INVALID_ARGUMENT")

    def test_unknown_device(self):
        with self.assertRaises(grt.Error) as e:
            grt.load(os.path.join(WORK, "mlp.vmfb"), device="tpu")
        self.assertIn("device 'tpu'", str(e.exception))

    def test_bad_timeout(self):
        with self.assertRaises(ValueError) as e:
            grt.load(os.path.join(WORK, "mlp.vmfb"), timeout_ms=0)
        self.assertIn("timeout_ms: expected a positive number of milliseconds, got 0", str(e.exception))


class CompileErrors(unittest.TestCase):
    def test_compile_error_carries_the_diagnostic(self):
        source = os.path.join(WORK, "bad.mlir")
        with open(source, "w") as f:
            f.write("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                    "  %0 = stablehlo.frobnicate %x : tensor<4xf32>\n"
                    "  return %0 : tensor<4xf32>\n}\n")
        with self.assertRaises(grt.Error) as e:
            grt.compile(source, output=os.path.join(WORK, "bad.vmfb"))
        self.assertIn("bad.mlir:2:", str(e.exception))
        self.assertIn("stablehlo.frobnicate", str(e.exception))

    def test_missing_compiler(self):
        saved = os.environ.get("GRT_COMPILE")
        saved_path = os.environ.get("PATH")
        try:
            os.environ["GRT_COMPILE"] = ""
            os.environ["PATH"] = WORK
            with self.assertRaises(OSError) as e:
                grt.compile("x.mlir")
            self.assertIn("cannot find grt-compile", str(e.exception))
        finally:
            os.environ["GRT_COMPILE"] = saved or ""
            os.environ["PATH"] = saved_path or ""


class Signatures(unittest.TestCase):
    """trusted_keys and require_signed (docs/runtime.md, "Signed modules").
    GRT_SIGN names grt-sign where module signing is built; elsewhere signing
    must fail saying so."""

    @classmethod
    def setUpClass(cls):
        cls.mlp = grt.compile(os.path.join(SOURCE, "samples/mlp/mlp.mlir"),
                              output=os.path.join(WORK, "signatures_mlp.vmfb"))
        cls.sign = os.environ.get("GRT_SIGN")
        cls.x = np.load(os.path.join(SOURCE, "samples/mlp/input.npy"))

    def keygen(self, name):
        secret, public = (os.path.join(WORK, f"{name}.{ext}") for ext in ("sec", "pub"))
        for path in (secret, public):
            if os.path.exists(path):
                os.remove(path)
        subprocess.run([self.sign, "keygen", f"--secret={secret}", f"--public={public}"],
                       check=True, capture_output=True)
        return secret, public

    def test_unsigned_native_code_is_refused(self):
        with self.assertRaises(grt.Error) as e:
            grt.load(self.mlp, require_signed=True)
        self.assertEqual(e.exception.code, "PERMISSION_DENIED")
        self.assertIn("is not signed and has native code", str(e.exception))

    def test_key_file_errors(self):
        with self.assertRaises(grt.Error) as e:
            grt.load(self.mlp, trusted_keys=[os.path.join(WORK, "no_such.pub")])
        self.assertIn("reading trusted key", str(e.exception))
        with self.assertRaises(TypeError) as e:
            grt.load(self.mlp, trusted_keys=os.path.join(WORK, "k.pub"))
        self.assertIn("expected a list of public key file paths", str(e.exception))

    def test_signed_module(self):
        if not self.sign:
            with self.assertRaises(grt.Error) as e:
                grt.compile(os.path.join(SOURCE, "samples/mlp/mlp.mlir"),
                            output=os.path.join(WORK, "never.vmfb"), flags=["--sign-key=/dev/null"])
            self.assertIn("built without module signing", str(e.exception))
            return
        secret, public = self.keygen("python_key")
        _, other = self.keygen("python_other")
        signed = grt.compile(os.path.join(SOURCE, "samples/mlp/mlp.mlir"),
                             output=os.path.join(WORK, "signed_mlp.vmfb"), flags=[f"--sign-key={secret}"])
        with grt.load(signed, trusted_keys=[public], require_signed=True) as m:
            self.assertEqual(m.main(self.x).shape, (1, 10))
        with self.assertRaises(grt.Error) as e:
            grt.load(signed, trusted_keys=[other], require_signed=True)
        self.assertEqual(e.exception.code, "PERMISSION_DENIED")
        self.assertIn("which is not one of the 1 trusted key", str(e.exception))


class LibraryErrors(unittest.TestCase):
    def test_wrong_library(self):
        from grt import _capi
        with self.assertRaises(OSError) as e:
            _capi.load(os.path.join(WORK, "no_such_libgrt.so"))
        self.assertIn("cannot load libgrt.so from", str(e.exception))

    def test_element_types(self):
        types = grt.element_types()
        self.assertEqual(types["f32"], np.dtype(np.float32))
        self.assertEqual(types["i1"], np.dtype(np.bool_))
        self.assertNotIn("bf16", types)


if __name__ == "__main__":
    unittest.main()
