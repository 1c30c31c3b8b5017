"""fingerprint.pb and tf.saved_model.Asset. FarmHash's Fingerprint64 against values TensorFlow 2.21 computed
(`tf.fingerprint(tf.constant([s]))`, as little-endian uint64), FingerprintCat64 through TF's own fingerprints
(tests/test_saved_model_tf_reads.py compares whole fingerprints with TF's C++), the C++ byte order of maps,
and assets: copied into assets/, rebound on load, and TF's errors when files are missing or corrupted."""

import os

import numpy as np
import pytest

import tinytf as tf
from tinytf.runtime.ops.fingerprint import fingerprint64
from tinytf.saved_model.fingerprint import cpp_bytes

# Recorded with TF 2.21: int.from_bytes(tf.fingerprint(tf.constant([s])).numpy()[0].tobytes(), "little")
TF_FINGERPRINTS = {
    b"": 11160318154034397263, b"a": 12917804110809363939, b"abcd": 1897425971756105985,
    b"abcdefgh": 18368443631171807497, b"x" * 20: 8233088228747857348, b"y" * 40: 276292113409495006,
    b"z" * 100: 9220849947163966073, bytes(range(200)): 525935771297148851,
}


@pytest.mark.parametrize("data", list(TF_FINGERPRINTS), ids=lambda d: f"{len(d)}bytes")
def test_fingerprint64_is_tensorflows(data):
    assert fingerprint64(data) == TF_FINGERPRINTS[data]


def test_map_entries_in_cpp_order():
    """C++ writes map entries by ascending key (strings bytewise, integers numerically), each with its key."""
    from tensorboard.compat.proto import function_pb2

    fdef = function_pb2.FunctionDef()
    for name in ("ReadVariableOp", "AssignAddVariableOp", "b", "ab"):
        fdef.control_ret[name] = name
    fdef.arg_attr[1].attr["x"].i = 1
    fdef.arg_attr[0].attr["x"].i = 0
    data = cpp_bytes(fdef)
    names = ("AssignAddVariableOp", "ReadVariableOp", "ab", "b")
    keys = [data.find(b"\n" + bytes([len(k)]) + k.encode()) for k in names]
    assert keys == sorted(keys) and -1 not in keys
    assert b"\x08\x00" in data  # key 0 of arg_attr is written
    parsed = function_pb2.FunctionDef.FromString(data)
    assert parsed == fdef


class Vocabulary(tf.Module):
    def __init__(self, path):
        super().__init__()
        self.vocab = tf.saved_model.Asset(path)

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def line(self, i):
        return tf.strings.split(tf.io.read_file(self.vocab), "\n")[i]


@pytest.fixture
def saved(tmp_path):
    source = tmp_path / "src" / "words.txt"
    source.parent.mkdir()
    source.write_text("zero\none\ntwo\n")
    tf.saved_model.save(Vocabulary(str(source)), str(tmp_path / "m"))
    source.unlink()  # the SavedModel carries its own copy
    return tmp_path / "m"


@pytest.mark.parametrize("passes", ["on", "none"])
def test_asset_travels_with_the_saved_model(saved, passes, monkeypatch):
    if passes == "none":
        monkeypatch.setenv("TINYTF_PASSES", "none")
    assert (saved / "assets" / "words.txt").read_text() == "zero\none\ntwo\n"
    loaded = tf.saved_model.load(str(saved))
    assert loaded.vocab.asset_path.numpy().decode() == str(saved / "assets" / "words.txt")
    assert loaded.line(tf.constant(1)).numpy() == b"one"
    assert loaded.signatures["serving_default"](i=tf.constant(2))["output_0"].numpy() == b"two"


def test_missing_asset_fails_when_read_as_in_tensorflow(saved):
    os.remove(saved / "assets" / "words.txt")
    loaded = tf.saved_model.load(str(saved))  # TF loads it: the file is only opened by the function
    with pytest.raises(tf.errors.NotFoundError):
        loaded.line(tf.constant(0))


def test_asset_of_a_missing_file_cannot_be_saved(tmp_path):
    module = Vocabulary(str(tmp_path / "absent.txt"))
    with pytest.raises(FileNotFoundError, match="absent.txt"):
        tf.saved_model.save(module, str(tmp_path / "m"))
    assert not (tmp_path / "m").exists()


def test_fingerprint_file_and_its_errors(saved):
    fingerprint = tf.saved_model.experimental.read_fingerprint(str(saved))
    assert fingerprint.version.producer == 4
    assert fingerprint.singleprint().count("/") == 3
    index = (saved / "variables" / "variables.index").read_bytes()
    assert fingerprint.checkpoint_hash == fingerprint64(index)
    assert str(fingerprint).startswith("SavedModel Fingerprint\n  saved_model_checksum: ")
    (saved / "fingerprint.pb").write_bytes(b"\xff\xff\xff")
    with pytest.raises(RuntimeError, match="SavedModel Fingerprint Error: Could not read fingerprint"):
        tf.saved_model.experimental.read_fingerprint(str(saved))
    assert tf.saved_model.load(str(saved)).line(tf.constant(0)).numpy() == b"zero"  # loading does not need it
    os.remove(saved / "fingerprint.pb")
    with pytest.raises(FileNotFoundError, match="Could not find fingerprint"):
        tf.saved_model.experimental.read_fingerprint(str(saved))


def test_same_model_same_singleprint(tmp_path):
    class Affine(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3))

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def __call__(self, x):
            return x @ self.w

    for name in ("a", "b"):
        tf.saved_model.save(Affine(), str(tmp_path / name))
    first, second = (tf.saved_model.experimental.read_fingerprint(str(tmp_path / n)) for n in "ab")
    assert first.singleprint() == second.singleprint() and first == second
