"""tf.strings.to_hash_bucket_fast / _strong / to_hash_bucket and tf.fingerprint as TensorFlow 2.21 computes them:
bit-exact hashes of strings of every length class of FarmHash (0-3, 4-7, 8-16, 17-32, 33-64, longer), UTF-8
text, in tf.function, and the errors TF raises."""

from __future__ import annotations

from . import outcome, program, val


def _strings():
    return [bytes((i * 7 + 3) % 256 for i in range(n)) for n in range(0, 140, 3)] + [
        b"hello", "h\u00e9llo w\u00f6rld".encode(), b"the quick brown fox jumps over the lazy dog" * 3]


@program
def p_to_hash_bucket_fast_lengths(tf):
    s = tf.constant(_strings())
    return [val(tf.strings.to_hash_bucket_fast(s, 2 ** 62)), val(tf.strings.to_hash_bucket_fast(s, 10)),
            val(tf.strings.to_hash_bucket_fast([["a", "b"], ["cc", ""]], 3)),
            val(tf.function(lambda x: tf.strings.to_hash_bucket_fast(x, 1000))(s))]


@program
def p_to_hash_bucket_strong_and_legacy(tf):
    s = tf.constant(_strings())
    return [val(tf.strings.to_hash_bucket_strong(s, 2 ** 62, [17, 42])),
            val(tf.strings.to_hash_bucket_strong(s, 7, [1, 2])),
            val(tf.strings.to_hash_bucket(s, 2 ** 62)), val(tf.strings.to_hash_bucket(s, 5)),
            val(tf.function(lambda x: tf.strings.to_hash_bucket_strong(x, 100, [3, 4]))(s))]


@program
def p_to_hash_bucket_docstring_examples(tf):
    return [val(tf.strings.to_hash_bucket_fast(["Hello", "TensorFlow", "2.x"], 3)),
            val(tf.strings.to_hash_bucket_strong(["Hello", "TF"], 3, [1, 2])),
            val(tf.strings.to_hash_bucket(["Hello", "TensorFlow", "2.x"], 3))]


@program
def p_fingerprint_rows(tf):
    return [val(tf.fingerprint(tf.constant([b"abc", b"de", b""]))),
            val(tf.fingerprint(tf.constant([[b"a", b"bc"], [b"d", b"e"]]))),
            val(tf.fingerprint(tf.constant([[1, 2], [3, 4]], tf.int32))),
            val(tf.fingerprint(tf.constant([[1.5, -2.0, 3.25]], tf.float64))),
            val(tf.fingerprint(tf.reshape(tf.range(24, dtype=tf.int64), [2, 3, 4]))),
            val(tf.function(lambda x: tf.fingerprint(x))(tf.constant([7, 8, 9], tf.uint8)))]


@program
def p_hash_errors(tf):
    return [outcome(lambda: tf.strings.to_hash_bucket_fast(tf.constant([1, 2]), 3), ""),
            outcome(lambda: tf.fingerprint(tf.constant([1]), method="md5"), "")]
