"""keras.datasets and keras.utils.get_file against a local HTTP server on 127.0.0.1 serving small files in
the real formats (tests/dataset_fixtures.py): the cache layout ($KERAS_HOME/datasets/..., fashion-mnist's
subfolder, CIFAR's extracted folder), one download then cache hits, hash checks (a stale cached copy is
fetched again, a bad download raises and leaves nothing), URL failures, unsafe archive members and pickles;
the arrays equal what real Keras 3 returned for the same files (tests/keras_files/datasets_expected.json).
No test reaches the internet."""

from __future__ import annotations

import functools
import http.server
import io
import json
import os
import pickle
import sys
import tarfile
import threading

import numpy as np
import pytest

import tinytf as tf

sys.path.insert(0, os.path.dirname(__file__))
import dataset_fixtures  # noqa: E402

keras = tf.keras
EXPECTED = os.path.join(os.path.dirname(__file__), "keras_files", "datasets_expected.json")


class _Handler(http.server.SimpleHTTPRequestHandler):
    requests: list = []

    def do_GET(self):  # noqa: N802 - http.server's name
        type(self).requests.append(self.path)
        super().do_GET()

    def log_message(self, *args):
        pass


@pytest.fixture
def server(tmp_path, monkeypatch):
    """Serve the fixtures on 127.0.0.1; KERAS_HOME in the temp folder; every dataset's origin pointed here."""
    served = tmp_path / "served"
    paths = dataset_fixtures.write_all(str(served))
    handler = functools.partial(_Handler, directory=str(served))
    _Handler.requests = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "keras_home"))
    digest = {name: keras.utils.file_utils.hash_file(path) for name, path in paths.items()}
    datasets = keras.datasets
    for module in (datasets.mnist, datasets.fashion_mnist, datasets.boston_housing, datasets.imdb):
        monkeypatch.setattr(module, "ORIGIN_FOLDER", base)
    monkeypatch.setattr(datasets.mnist, "FILE_HASH", digest["mnist.npz"])
    monkeypatch.setattr(datasets.boston_housing, "FILE_HASH", digest["boston_housing.npz"])
    monkeypatch.setattr(datasets.imdb, "FILE_HASH", digest["imdb.npz"])
    monkeypatch.setattr(datasets.cifar10, "ORIGIN", base + "cifar-10-python.tar.gz")
    monkeypatch.setattr(datasets.cifar10, "FILE_HASH", digest["cifar-10-python.tar.gz"])
    yield {"base": base, "home": tmp_path / "keras_home", "served": served, "digest": digest}
    httpd.shutdown()
    httpd.server_close()


def test_every_loader_gives_what_keras_3_gave(server):
    with open(EXPECTED) as f:
        expected = json.load(f)
    for (name, kwargs), want in zip(dataset_fixtures.CALLS, expected):
        got = dataset_fixtures.summary(getattr(keras.datasets, name).load_data(**kwargs))
        assert got == want, f"{name}({kwargs})"


def test_cache_layout_and_single_download(server, capsys):
    keras.datasets.mnist.load_data()
    keras.datasets.mnist.load_data()
    keras.datasets.fashion_mnist.load_data()
    (x_train, y_train), (x_test, y_test) = keras.datasets.cifar10.load_data()
    home = server["home"] / "datasets"
    assert sorted(os.listdir(home)) == ["cifar-10-batches-py-target", "cifar-10-batches-py-target_archive",
                                        "fashion-mnist", "mnist.npz"]
    assert len(os.listdir(home / "fashion-mnist")) == 4
    assert _Handler.requests.count("/mnist.npz") == 1            # the second call used the cache
    assert f"Downloading data from {server['base']}mnist.npz" in capsys.readouterr().out
    # CIFAR: channels last, labels as a column, in batch order
    assert x_train.shape == (10, 32, 32, 3) and y_train.shape == (10, 1) and x_test.shape == (2, 32, 32, 3)
    assert y_train[:, 0].tolist() == [0, 3, 1, 4, 2, 5, 3, 6, 4, 7] and y_test[:, 0].tolist() == [5, 8]
    raw = dataset_fixtures._pixels(2, (3 * 32 * 32,), 5).reshape(2, 3, 32, 32)
    np.testing.assert_array_equal(x_train[:2], raw.transpose(0, 2, 3, 1))


def test_a_stale_cached_file_is_fetched_again_and_a_bad_download_is_kept_as_keras_does(server, monkeypatch,
                                                                                       capsys):
    keras.datasets.boston_housing.load_data()
    cached = server["home"] / "datasets" / "boston_housing.npz"
    cached.write_bytes(b"half a file")
    keras.datasets.boston_housing.load_data()
    assert "hash does not match the original value" in capsys.readouterr().out
    assert _Handler.requests.count("/boston_housing.npz") == 2
    monkeypatch.setattr(keras.datasets.mnist, "FILE_HASH", "0" * 64)
    with pytest.raises(ValueError, match="Incomplete or corrupted file detected. The auto file hash does not match "
                                         "the provided value of 0000"):
        keras.datasets.mnist.load_data()
    kept = server["home"] / "datasets" / "mnist.npz"
    assert kept.read_bytes() == (server["served"] / "mnist.npz").read_bytes()  # Keras 3 keeps the download
    capsys.readouterr()
    with pytest.raises(ValueError, match="Incomplete or corrupted file detected"):
        keras.datasets.mnist.load_data()  # the kept file fails its check, so it is downloaded again
    assert "A local file was found, but it seems to be incomplete" in capsys.readouterr().out
    assert _Handler.requests.count("/mnist.npz") == 2
    with pytest.raises(Exception, match="URL fetch failure on .*404"):
        keras.utils.get_file("missing.npz", origin=server["base"] + "missing.npz")
    assert not (server["home"] / "datasets" / "missing.npz").exists()


def test_get_file_arguments_md5_and_cache_dir(server, tmp_path):
    import hashlib

    md5 = hashlib.md5((server["served"] / "mnist.npz").read_bytes()).hexdigest()
    path = keras.utils.get_file(origin=server["base"] + "mnist.npz", md5_hash=md5, cache_dir=str(tmp_path / "c"),
                                cache_subdir="sub")
    assert path == str(tmp_path / "c" / "sub" / "mnist.npz")
    assert keras.utils.file_utils.validate_file(path, md5)
    with pytest.raises(ValueError, match='specify the "origin"'):
        keras.utils.get_file("x")
    with pytest.raises(ValueError, match="Paths are no longer accepted"):
        keras.utils.get_file(os.path.join("a", "b.npz"), origin=server["base"] + "mnist.npz")
    with pytest.raises(ValueError, match="test_split"):
        keras.datasets.boston_housing.load_data(test_split=1.0)


def test_archives_cannot_write_outside_and_pickles_cannot_run_code(server, tmp_path):
    evil = tmp_path / "evil.tar.gz"
    with tarfile.open(evil, "w:gz") as tar:
        for name in ("../escaped.txt", "ok/inside.txt"):
            info = tarfile.TarInfo(name)
            info.size = 2
            tar.addfile(info, io.BytesIO(b"hi"))
    with pytest.warns(UserWarning, match="outside"):
        keras.utils.file_utils.extract_archive(str(evil), str(tmp_path / "out"))
    assert (tmp_path / "out" / "ok" / "inside.txt").exists() and not (tmp_path / "escaped.txt").exists()

    class Exploit:
        def __reduce__(self):
            return (os.system, ("echo pwned",))

    bad = tmp_path / "data_batch"
    bad.write_bytes(pickle.dumps({b"data": Exploit(), b"labels": []}))
    with pytest.raises(pickle.UnpicklingError, match="Refusing to deserialize"):
        keras.datasets.cifar10.load_batch(str(bad))


def test_utils_to_categorical_normalize_and_seeds():
    np.testing.assert_array_equal(keras.utils.to_categorical([[1], [0], [2]]), np.eye(3)[[1, 0, 2]])
    assert keras.utils.to_categorical(np.array([[0, 1], [1, 1]]), 3).shape == (2, 2, 3)
    np.testing.assert_allclose(keras.utils.normalize([[3.0, 4.0], [0.0, 0.0]]), [[0.6, 0.8], [0.0, 0.0]])
    np.testing.assert_allclose(keras.utils.normalize([[1.0, 1.0]], order=1), [[0.5, 0.5]])
    keras.utils.set_random_seed(5)
    first = (np.random.rand(), keras.layers.Dense(2)(tf.ones([1, 2])).numpy())
    keras.utils.set_random_seed(5)
    keras.backend.clear_session()
    second = (np.random.rand(), keras.layers.Dense(2)(tf.ones([1, 2])).numpy())
    assert first[0] == second[0]
    np.testing.assert_array_equal(first[1], second[1])
    with pytest.raises(ValueError, match="integer"):
        keras.utils.set_random_seed(1.5)
