"""tf.test.TestCase: absltest's TestCase (as TF's is) with TF's tensor assertions, `evaluate`, and sessions for
TF1 graph tests. Each test starts from TF's fixed seeds (87654321 for Python, numpy and tf.random) and no default
summary writer, as TF's setUp leaves them."""

from __future__ import annotations

import contextlib
import math
import random
import re
import tempfile

import numpy as np
from absl.testing import absltest

import tinytf as _tf
from tinytf.runtime import nest
from tinytf.runtime.context import executing_eagerly

from ..deprecation_warning import warn_once
from .values import IndexedSlicesValue, RaggedTensorValue

DEFAULT_GRAPH_SEED = 87654321


class EagerSessionWarner:
    """What `self.session()` yields eagerly: any use of it says why it cannot work."""

    def __getattr__(self, attr):
        raise AttributeError(
            "Trying to access properties or call methods on the result of self.session(), self.cached_session(), "
            "etc while eager execution is enabled. If you're porting this test case to TF 2.0, either adapt the "
            "test to work with eager execution or insert a call to tf.disable_eager_execution() in the main() "
            "function of this test file.")


def _np_where(condition):
    return np.where(condition)


class TestCase(absltest.TestCase):
    """Base class for tests of TF programs: TF's assertions on tensors and nested structures of them."""

    def __init__(self, methodName="runTest"):  # noqa: N803 - unittest's name
        super().__init__(methodName)
        self._cached_session = None
        self._tempdir = None
        self._set_default_seed = True

    def setUp(self):
        super().setUp()
        self._clear_cached_session()
        random.seed(DEFAULT_GRAPH_SEED)
        np.random.seed(DEFAULT_GRAPH_SEED)
        _tf.compat.v1.reset_default_graph()
        if self._set_default_seed:
            _tf.random.set_seed(DEFAULT_GRAPH_SEED)
        _tf.summary.writer.state.writer = None
        if self.id().endswith(".test_session"):
            self.skipTest("Not a test.")

    def tearDown(self):
        self._clear_cached_session()
        super().tearDown()

    def _clear_cached_session(self):
        if self._cached_session is not None:
            self._cached_session.close()
            self._cached_session = None

    def get_temp_dir(self) -> str:
        """A temporary folder for this test (the same one for every call in it)."""
        if self._tempdir is None:
            self._tempdir = tempfile.mkdtemp()
        return self._tempdir

    # --- evaluating ----------------------------------------------------------------------------------------
    def _eval_tensor(self, tensor):
        if tensor is None:
            return None
        if callable(tensor) and not hasattr(tensor, "numpy"):
            return self._eval_helper(tensor())
        if isinstance(tensor, _tf.SparseTensor):
            return _tf.compat.v1.SparseTensorValue(tensor.indices.numpy(), tensor.values.numpy(),
                                                   tensor.dense_shape.numpy())
        if isinstance(tensor, _tf.RaggedTensor):
            return RaggedTensorValue(self._eval_tensor(tensor.values), self._eval_tensor(tensor.row_splits))
        if isinstance(tensor, _tf.IndexedSlices):
            return IndexedSlicesValue(tensor.values.numpy(), tensor.indices.numpy(),
                                      None if tensor.dense_shape is None else tensor.dense_shape.numpy())
        if hasattr(tensor, "numpy") and callable(tensor.numpy):
            return tensor.numpy()
        raise ValueError(f"Unsupported type {type(tensor).__name__!r}.")

    def _eval_helper(self, tensors):
        if tensors is None:
            return None
        if isinstance(tensors, dict):
            return type(tensors)((k, self._eval_helper(v)) for k, v in tensors.items())
        if isinstance(tensors, (list, tuple)) and not isinstance(tensors, _tf.TensorShape):
            values = [self._eval_helper(v) for v in tensors]
            return type(tensors)(*values) if hasattr(tensors, "_fields") else type(tensors)(values)
        return self._eval_tensor(tensors)

    def evaluate(self, tensors):
        """The numpy values of `tensors` (a tensor or a nested structure of them): eagerly, read now; in a TF1
        graph, run in the default session (or this test's cached one)."""
        if executing_eagerly():
            return self._eval_helper(tensors)
        sess = _tf.compat.v1.get_default_session()
        flat = nest.flatten(tensors)
        if sess is None:
            with self.cached_session() as sess:
                results = sess.run(flat)
        else:
            results = sess.run(flat)
        return nest.pack_sequence_as(tensors, results)

    def evaluate_if_both_tensors(self, a, b):
        if _is_tensorish(a) and _is_tensorish(b):
            return self.evaluate((a, b))
        return a, b

    # --- sessions (TF1 graph tests) ------------------------------------------------------------------------
    @contextlib.contextmanager
    def session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """A Session on `graph` (default: the default graph), made the default session inside the block.
        Eagerly it yields an object that refuses every use, as TF's does."""
        if executing_eagerly() and graph is None:
            yield EagerSessionWarner()
            return
        graph = graph if graph is not None else _tf.compat.v1.get_default_graph()
        with graph.as_default(), _tf.compat.v1.Session(graph=graph, config=config) as sess:
            yield sess

    @contextlib.contextmanager
    def cached_session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """Like session(), but the same Session for the whole test (closed in tearDown)."""
        if executing_eagerly() and graph is None:
            yield EagerSessionWarner()
            return
        graph = graph if graph is not None else _tf.compat.v1.get_default_graph()
        if self._cached_session is None or self._cached_session.graph is not graph:
            self._clear_cached_session()
            self._cached_session = _tf.compat.v1.Session(graph=graph, config=config)
        with graph.as_default(), self._cached_session.as_default():
            yield self._cached_session

    def test_session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """Deprecated alias of cached_session, with TF's notice."""
        warn_once("TensorFlowTestCase.test_session", "tinytf.test",
                  "Use `self.session()` or `self.cached_session()` instead.")
        return self.cached_session(graph, config, use_gpu, force_gpu)

    # --- array assertions ----------------------------------------------------------------------------------
    def _GetNdArray(self, a):  # noqa: N802 - TF's name
        if _is_tensorish(a):
            a = self.evaluate(a)
        if isinstance(a, np.ndarray):
            return a
        try:
            return np.array(a)
        except ValueError as e:
            if "inhomogeneous shape" in str(e):
                return np.array(a, dtype=object)
            raise

    def _assertArrayLikeAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        a, b = self.evaluate_if_both_tensors(a, b)
        a, b = self._GetNdArray(a), self._GetNdArray(b)
        if a.shape != b.shape and (b.ndim <= 3 or b.size < 500):
            mismatch = f"Shape mismatch: expected {a.shape}, got {b.shape} with contents {b}."
        else:
            mismatch = f"Shape mismatch: expected {a.shape}, got {b.shape}."
        self.assertEqual(a.shape, b.shape, mismatch)
        messages = [msg]
        a_dtype = a.dtype
        if a.dtype == _tf.bfloat16.as_numpy_dtype:
            a = a.astype(np.float32)
        if b.dtype == _tf.bfloat16.as_numpy_dtype:
            b = b.astype(np.float32)
        if not np.allclose(a, b, rtol=rtol, atol=atol):
            cond = np.logical_or(np.abs(a - b) > atol + rtol * np.abs(b), np.isnan(a) != np.isnan(b))
            if a.ndim:
                x, y = a[_np_where(cond)], b[_np_where(cond)]
                messages.append(f"not close where = {_np_where(cond)}")
            else:
                x, y = a, b
            messages += [f"not close lhs = {x}", f"not close rhs = {y}", f"not close dif = {np.abs(x - y)}",
                         f"not close tol = {atol + rtol * np.abs(y)}", f"dtype = {a_dtype}, shape = {a.shape}"]
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg="\n".join(str(m) for m in messages),
                                       equal_nan=True)

    def _assertAllCloseRecursive(self, a, b, rtol, atol, path, msg):  # noqa: N802
        path = path or []
        path_text = "/".join(str(p) for p in path) or "[]"
        msg = msg or ""
        if hasattr(a, "_asdict"):
            a = a._asdict()
        if hasattr(b, "_asdict"):
            b = b._asdict()
        if isinstance(a, dict) != isinstance(b, dict):
            raise ValueError(f"Can't compare dict to non-dict, a{path_text} vs b{path_text}. {msg}")
        if isinstance(a, dict):
            self.assertItemsEqual(a.keys(), b.keys(),
                                  msg=f"mismatched keys: a{path_text} has keys {sorted(a)}, but "
                                      f"b{path_text} has keys {sorted(b)}. {msg}")
            for key in a:
                self._assertAllCloseRecursive(a[key], b[key], rtol, atol, path + [key], msg)
            return
        if isinstance(a, (list, tuple)):
            # Compared as arrays when they are rectangular, else element by element (TF's order of attempts).
            try:
                a_array, b_array = self._GetNdArray(a), self._GetNdArray(b)
                self._assertArrayLikeAllClose(a_array, b_array, rtol=rtol, atol=atol,
                                              msg=f"Mismatched value: a{path_text} is different from b{path_text}. "
                                                  f"{msg}")
                return
            except (ValueError, TypeError, NotImplementedError):
                if len(a) != len(b):
                    raise ValueError(f"Mismatched length: a{path_text} has {len(a)} items, but b{path_text} has "
                                     f"{len(b)} items. {msg}") from None
            for i, (x, y) in enumerate(zip(a, b)):
                self._assertAllCloseRecursive(x, y, rtol, atol, path + [str(i)], msg)
            return
        try:
            self._assertArrayLikeAllClose(a, b, rtol=rtol, atol=atol,
                                          msg=f"Mismatched value: a{path_text} is different from b{path_text}. "
                                              f"{msg}")
        except TypeError as e:
            raise TypeError(f"Error: a{path_text} has {type(a)}, but b{path_text} has {type(b)}. {msg}") from e

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        """a and b (tensors, arrays, numbers, or nested lists/tuples/dicts of them) are elementwise close:
        |a - b| <= atol + rtol * |b|, NaNs matching."""
        if _is_ragged(a) or _is_ragged(b):
            return self._assertRaggedClose(a, b, rtol, atol, msg)
        a, b = self.evaluate_if_both_tensors(a, b)
        self._assertAllCloseRecursive(a, b, rtol=rtol, atol=atol, path=[], msg=msg)

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6, float_atol=1e-6,  # noqa: N802
                                      half_rtol=1e-3, half_atol=1e-3, bfloat16_rtol=1e-2, bfloat16_atol=1e-2,
                                      msg=None):
        """assertAllClose with the tolerance of the least precise dtype of a and b."""
        a, b = self.evaluate_if_both_tensors(a, b)
        a, b = self._GetNdArray(a), self._GetNdArray(b)
        if a.dtype == np.float32 or b.dtype == np.float32 or a.dtype == np.complex64 or b.dtype == np.complex64:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        if a.dtype == np.float16 or b.dtype == np.float16:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        if a.dtype == _tf.bfloat16.as_numpy_dtype or b.dtype == _tf.bfloat16.as_numpy_dtype:
            rtol, atol = max(rtol, bfloat16_rtol), max(atol, bfloat16_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        try:
            self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)
        except AssertionError:
            return
        raise AssertionError(f"The two values are close at all elements. {msg or ''}")

    def assertAllEqual(self, a, b, msg=None):  # noqa: N802
        """a and b have the same shape and equal elements (NaNs equal NaNs; str and bytes compare as bytes)."""
        if _is_ragged(a) or _is_ragged(b):
            return self._assertRaggedEqual(a, b, msg)
        msg = msg or ""
        a, b = self.evaluate_if_both_tensors(a, b)
        a, b = self._GetNdArray(a), self._GetNdArray(b)
        if b.ndim <= 3 or b.size < 500:
            self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape}. Contents: "
                                               f"{b!r}. \n{msg}.")
        else:
            self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape}. {msg}")
        if {a.dtype.kind, b.dtype.kind} <= {"U", "S", "O"} and a.dtype.kind != b.dtype.kind:
            a, b = _as_bytes_array(a), _as_bytes_array(b)
        same = a == b
        if a.dtype.kind == "f":
            same = np.logical_or(same, np.logical_and(np.isnan(a), np.isnan(b)))
        if not np.all(same):
            diff = np.logical_not(same)
            messages = [msg]
            if a.ndim:
                x, y = a[_np_where(diff)], b[_np_where(diff)]
                messages.append(f"not equal where = {_np_where(diff)}")
            else:
                x, y = a, b
            messages += [f"not equal lhs = {x!r}", f"not equal rhs = {y!r}"]
            np.testing.assert_array_equal(a, b, err_msg="\n".join(messages))

    def assertNotAllEqual(self, a, b, msg=None):  # noqa: N802
        try:
            self.assertAllEqual(a, b)
        except AssertionError:
            return
        raise AssertionError(f"The two values are equal at all elements. {msg or ''}")

    def _assertRaggedEqual(self, a, b, msg):  # noqa: N802
        self.assertEqual(_ragged_list(self, a), _ragged_list(self, b), msg)

    def _assertRaggedClose(self, a, b, rtol, atol, msg):  # noqa: N802
        a_list, b_list = _ragged_list(self, a), _ragged_list(self, b)
        self.assertEqual(_nested_lengths(a_list), _nested_lengths(b_list), msg)
        self.assertAllClose(_flatten_list(a_list), _flatten_list(b_list), rtol=rtol, atol=atol, msg=msg)

    def _compare_all(self, a, target, op, text):
        a = self._GetNdArray(a)
        self.assertTrue(np.all(op(a, target)), f"{a} is not {text} {target}")

    def assertAllGreater(self, a, comparison_target):  # noqa: N802
        (a, comparison_target) = self.evaluate_if_both_tensors(a, comparison_target)
        a = self._GetNdArray(a)
        self.assertGreater(np.min(a), comparison_target)

    def assertAllLess(self, a, comparison_target):  # noqa: N802
        (a, comparison_target) = self.evaluate_if_both_tensors(a, comparison_target)
        a = self._GetNdArray(a)
        self.assertLess(np.max(a), comparison_target)

    def assertAllGreaterEqual(self, a, comparison_target):  # noqa: N802
        (a, comparison_target) = self.evaluate_if_both_tensors(a, comparison_target)
        a = self._GetNdArray(a)
        self.assertGreaterEqual(np.min(a), comparison_target)

    def assertAllLessEqual(self, a, comparison_target):  # noqa: N802
        (a, comparison_target) = self.evaluate_if_both_tensors(a, comparison_target)
        a = self._GetNdArray(a)
        self.assertLessEqual(np.max(a), comparison_target)

    def _format_subscripts(self, subscripts, value, limit=10, indent=2):
        """'  [i j] : value' lines for the first `limit` subscripts (np.where's form), then '...'."""
        subscripts = np.transpose(subscripts)
        prefix = " " * indent
        if np.ndim(value) == 0:
            return [prefix + "[0] : " + str(value)]
        lines = [prefix + str(subscript) + " : " + str(value[tuple(subscript)]) for subscript in subscripts[:limit]]
        if len(subscripts) > limit:
            lines.append(prefix + "...")
        return lines

    def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False,  # noqa: N802
                         open_upper_bound=False):
        """Every element of `target` is in [lower_bound, upper_bound] (open ends as asked) and none is NaN."""
        target = self._GetNdArray(target)
        if not (np.issubdtype(target.dtype, np.floating) or np.issubdtype(target.dtype, np.integer)):
            raise AssertionError(f"The value of {target} does not have an ordered numeric type, instead it has "
                                 f"type: {target.dtype}")
        nan_subscripts = _np_where(np.isnan(target))
        if np.size(nan_subscripts):
            raise AssertionError(f"{len(nan_subscripts[0])} of the {np.size(target)} element(s) are NaN. "
                                 "Subscripts(s) and value(s) of the NaN element(s):\n" +
                                 "\n".join(self._format_subscripts(nan_subscripts, target)))
        range_text = (("(" if open_lower_bound else "[") + str(lower_bound) + ", " + str(upper_bound) +
                      (")" if open_upper_bound else "]"))
        violations = np.less_equal(target, lower_bound) if open_lower_bound else np.less(target, lower_bound)
        violations = np.logical_or(violations, np.greater_equal(target, upper_bound) if open_upper_bound
                                   else np.greater(target, upper_bound))
        subscripts = _np_where(violations)
        if np.size(subscripts):
            raise AssertionError(f"{len(subscripts[0])} of the {np.size(target)} element(s) are outside the range "
                                 f"{range_text}. Subscript(s) and value(s) of the offending elements:\n" +
                                 "\n".join(self._format_subscripts(subscripts, target)))

    def assertAllInSet(self, target, expected_set):  # noqa: N802
        """Every element of `target` is in `expected_set`."""
        target = self._GetNdArray(target)
        diff = np.setdiff1d(target.flatten(), list(expected_set))
        if np.size(diff):
            raise AssertionError(f"{len(diff)} unique element(s) are not in the set {expected_set}: {diff}")

    def assertDTypeEqual(self, target, expected_dtype):  # noqa: N802
        """`target`'s dtype (of every element of a list) is `expected_dtype`."""
        target = self._GetNdArray(target)
        self.assertEqual(target.dtype, _tf.as_dtype(expected_dtype).as_numpy_dtype)

    def assertShapeEqual(self, input_a, input_b, msg=None):  # noqa: N802
        """numpy array `input_a` has the static shape of tensor `input_b`."""
        for label, value in (("input_a", input_a), ("input_b", input_b)):
            if not isinstance(value, (np.ndarray, np.generic, _tf.Tensor)):
                raise TypeError(f"{label} must be a Numpy ndarray, Numpy scalar, or a Tensor.Instead received "
                                f"{type(value)}")
        shape_a = input_a.shape.as_list() if isinstance(input_a, _tf.Tensor) else input_a.shape
        shape_b = input_b.shape.as_list() if isinstance(input_b, _tf.Tensor) else input_b.shape
        self.assertAllEqual(shape_a, shape_b, msg=msg)

    def assertNear(self, f1, f2, err, msg=None):  # noqa: N802
        """|f1 - f2| <= err (numbers)."""
        f1, f2 = np.squeeze(f1), np.squeeze(f2)
        if f1 != f2:
            diff = math.fabs(f1 - f2)
            self.assertTrue(diff <= err, "%f != %f +/- %f (difference: %g)%s"
                            % (f1, f2, err, diff, f" ({msg})" if msg is not None else ""))

    def assertArrayNear(self, farray1, farray2, err, msg=None):  # noqa: N802
        """Two lists of numbers of the same length, elementwise within err."""
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def assertNDArrayNear(self, ndarray1, ndarray2, err, msg=None):  # noqa: N802
        self.assertTrue(np.linalg.norm(np.asarray(ndarray1) - np.asarray(ndarray2)) <= err, msg=msg)

    def assertDeviceEqual(self, device1, device2, msg=None):  # noqa: N802
        """Two device strings name the same device (canonicalized as TF does)."""
        self.assertEqual(_canonical_device(device1), _canonical_device(device2),
                         f"Devices {device1} and {device2} are not equal. {msg or ''}")

    def assertProtoEquals(self, expected_message_maybe_ascii, message, msg=None):  # noqa: N802
        """Protocol buffer `message` equals the expected one (a message, or its text format)."""
        from google.protobuf import text_format
        if isinstance(expected_message_maybe_ascii, (str, bytes)):
            expected = type(message)()
            text_format.Merge(expected_message_maybe_ascii, expected)
        else:
            expected = expected_message_maybe_ascii
        self.assertEqual(text_format.MessageToString(expected), text_format.MessageToString(message), msg)

    # --- errors ----------------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def assertRaisesWithPredicateMatch(self, exception_type, expected_err_re_or_predicate):  # noqa: N802
        """The block raises `exception_type` and the error matches the regex (searched in its message) or the
        predicate (called with the exception)."""
        if callable(expected_err_re_or_predicate):
            predicate = expected_err_re_or_predicate
        else:
            def predicate(e):
                message = getattr(e, "message", None) or str(e)
                return re.search(expected_err_re_or_predicate, message) is not None
        try:
            yield
            self.fail(exception_type.__name__ + " not raised")
        except Exception as e:  # noqa: BLE001 - the type is checked right here
            if not isinstance(e, exception_type) or not predicate(e):
                raise AssertionError(f"Exception of type {type(e)}: {e}") from e

    def assertRaisesOpError(self, expected_err_re_or_predicate):  # noqa: N802
        """The block raises a tf.errors.OpError matching the regex or predicate."""
        return self.assertRaisesWithPredicateMatch(_tf.errors.OpError, expected_err_re_or_predicate)

    def assertRaisesIncompatibleShapesError(self, exception_type=None):  # noqa: N802
        """The block raises an incompatible-shapes error (InvalidArgumentError by default)."""
        # TF's phrases; tinytf's own message says "incompatible shapes" in lower case
        return self.assertRaisesWithPredicateMatch(
            exception_type or _tf.errors.InvalidArgumentError,
            r"(?i)Incompatible shapes|Dimensions must be equal|required broadcastable shapes")


def _is_tensorish(value) -> bool:
    if isinstance(value, (_tf.Tensor, _tf.Variable, _tf.SparseTensor, _tf.RaggedTensor, _tf.IndexedSlices)):
        return True
    if isinstance(value, (list, tuple)) and value:
        return any(_is_tensorish(v) for v in value)
    if isinstance(value, dict) and value:
        return any(_is_tensorish(v) for v in value.values())
    return False


def _canonical_device(name) -> str:
    """A device string in TF's canonical form: /job:x/replica:n/task:n/device:TYPE:n ('/cpu:0' ->
    '/device:CPU:0')."""
    parts = {}
    for piece in (name or "").strip("/").split("/"):
        if not piece:
            continue
        key, _, rest = piece.partition(":")
        key = key.lower()
        if key in ("job", "replica", "task"):
            parts[key] = rest
        elif key == "device":
            kind, _, index = rest.partition(":")
            parts["device"] = f"{kind.upper()}:{index or '*'}"
        else:  # the short form cpu:0 / gpu:1
            parts["device"] = f"{key.upper()}:{rest or '*'}"
    return "".join(f"/{key}:{parts[key]}" for key in ("job", "replica", "task", "device") if key in parts)


def _is_ragged(value) -> bool:
    return isinstance(value, (_tf.RaggedTensor, RaggedTensorValue))


def _ragged_list(case, value):
    if isinstance(value, _tf.RaggedTensor):
        value = case.evaluate(value)
    if isinstance(value, RaggedTensorValue):
        return value.to_list()
    return np.asarray(value).tolist() if isinstance(value, np.ndarray) else value


def _nested_lengths(value):
    return [_nested_lengths(v) for v in value] if isinstance(value, list) else None


def _flatten_list(value):
    return [x for v in value for x in _flatten_list(v)] if isinstance(value, list) else [value]


def _as_bytes_array(array):
    return np.array([item.encode("utf-8") if isinstance(item, str) else item for item in array.flat],
                    dtype=object).reshape(array.shape)
