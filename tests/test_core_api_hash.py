"""FarmHash Fingerprint64, SipHash-2-4 and TF's legacy hash (runtime/ops/fingerprint.py) against values TF 2.21
computed, at every length class of the algorithms, and the hashing ops eagerly and in tf.function. The full
conformance programs are tests/conformance/core_api_hash.py."""

import numpy as np
import pytest

import tinytf as tf
from tinytf.runtime.ops.fingerprint import fingerprint64, murmur64, siphash24

# tf.fingerprint(tf.constant([data])) of TF 2.21, as uint64: data = bytes((i * 31 + 7) % 256 for i in range(n))
TF_FINGERPRINTS = {0: 11160318154034397263, 1: 6305636504242451570, 3: 6846658912458629505,
                   4: 15920609078983942396, 7: 6078383079216981503, 8: 15079902322784532122,
                   16: 15686757420722829688, 17: 18426422322569481577, 32: 6557825886676886425,
                   33: 15509195725936039944, 64: 6210884751478203641, 65: 6510967642095903190,
                   128: 7120966749005495781, 200: 10317091910287059053}


def _data(n):
    return bytes((i * 31 + 7) % 256 for i in range(n))


@pytest.mark.parametrize("n", sorted(TF_FINGERPRINTS))
def test_fingerprint64_is_tf_bit_for_bit(n):
    assert fingerprint64(_data(n)) == TF_FINGERPRINTS[n]
    row = tf.fingerprint(tf.constant([_data(n)])).numpy()
    assert row.dtype == np.uint8 and int(np.frombuffer(row.tobytes(), "<u8")[0]) == TF_FINGERPRINTS[n]


def test_siphash_reference_vector():
    # the SipHash paper's test vector: key 00 01 .. 0f, message 00 01 .. 0e -> a129ca6149be45e5
    key = bytes(range(16))
    k0, k1 = int.from_bytes(key[:8], "little"), int.from_bytes(key[8:], "little")
    assert siphash24(k0, k1, bytes(range(15))) == 0xA129CA6149BE45E5


def test_hash_values_stay_in_64_bits_and_differ():
    values = {murmur64(_data(n)) for n in range(40)} | {fingerprint64(_data(n)) for n in range(40)}
    assert len(values) == 80 and all(0 <= v < 2 ** 64 for v in values)


@pytest.mark.parametrize("compiled", [False, True])
def test_bucket_ops_eager_and_in_function(compiled):
    words = tf.constant([["a", "hello"], ["", "x" * 100]])

    def buckets(s):
        return (tf.strings.to_hash_bucket_fast(s, 1000), tf.strings.to_hash_bucket_strong(s, 1000, [5, 9]),
                tf.strings.to_hash_bucket(s, 1000))

    fn = tf.function(buckets) if compiled else buckets
    fast, strong, legacy = fn(words)
    flat = [w.encode() for w in ("a", "hello", "", "x" * 100)]
    assert fast.dtype == tf.int64 and fast.shape == (2, 2)
    np.testing.assert_array_equal(fast.numpy().ravel(), [fingerprint64(w) % 1000 for w in flat])
    np.testing.assert_array_equal(strong.numpy().ravel(), [siphash24(5, 9, w) % 1000 for w in flat])
    np.testing.assert_array_equal(legacy.numpy().ravel(), [murmur64(w) % 1000 for w in flat])


def test_fingerprint_in_function_and_shape():
    fn = tf.function(lambda x: tf.fingerprint(x))
    out = fn(tf.zeros([3, 4, 5]))
    assert out.shape == (3, 8) and out.dtype == tf.uint8
    np.testing.assert_array_equal(out.numpy(), tf.fingerprint(tf.zeros([3, 4, 5])).numpy())
    expected = np.frombuffer(fingerprint64(np.zeros(20, np.float32).tobytes()).to_bytes(8, "little"), np.uint8)
    np.testing.assert_array_equal(out.numpy()[0], expected)


def test_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="string"):
        tf.strings.to_hash_bucket_fast(tf.constant([1]), 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_buckets"):
        tf.strings.to_hash_bucket_fast(["a"], 0)
    with pytest.raises(ValueError, match="key"):
        tf.strings.to_hash_bucket_strong(["a"], 3, [1, 2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank"):
        tf.fingerprint(tf.constant(1))
