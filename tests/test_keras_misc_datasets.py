"""keras.datasets' california_housing, cifar100 and reuters against a local HTTP server on 127.0.0.1 serving
small files in the real formats (tests/dataset_fixtures_more.py): the arrays equal what real Keras 3 returned
for the same files (tests/keras_files/datasets_more_expected.json), the cache layout, one download then
cache hits, Keras' hash checks and errors. No test reaches the internet."""

from __future__ import annotations

import functools
import http.server
import json
import os
import sys
import threading

import pytest

import tinytf as tf

sys.path.insert(0, os.path.dirname(__file__))
import dataset_fixtures_more  # noqa: E402

datasets = tf.keras.datasets
EXPECTED = os.path.join(os.path.dirname(__file__), "keras_files", "datasets_more_expected.json")


class _Handler(http.server.SimpleHTTPRequestHandler):
    requests: list = []

    def do_GET(self):  # noqa: N802 - http.server's name
        type(self).requests.append(self.path)
        super().do_GET()

    def log_message(self, *args):
        pass


@pytest.fixture
def server(tmp_path, monkeypatch):
    served = tmp_path / "served"
    paths = dataset_fixtures_more.write_all(str(served))
    _Handler.requests = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(served)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "keras_home"))
    digest = {name: tf.keras.utils.file_utils.hash_file(path) for name, path in paths.items()}
    for module in (datasets.california_housing, datasets.reuters):
        monkeypatch.setattr(module, "ORIGIN_FOLDER", base)
    monkeypatch.setattr(datasets.california_housing, "FILE_HASH", digest["california_housing.npz"])
    monkeypatch.setattr(datasets.reuters, "FILE_HASH", digest["reuters.npz"])
    monkeypatch.setattr(datasets.reuters, "WORD_INDEX_HASH",
                        tf.keras.utils.file_utils.hash_file(paths["reuters_word_index.json"], "md5"))
    monkeypatch.setattr(datasets.cifar100, "ORIGIN", base + "cifar-100-python.tar.gz")
    monkeypatch.setattr(datasets.cifar100, "FILE_HASH", digest["cifar-100-python.tar.gz"])
    yield {"home": tmp_path / "keras_home", "base": base}
    httpd.shutdown()
    httpd.server_close()


def test_loaders_give_what_keras_3_gave(server, capsys):
    with open(EXPECTED) as f:
        expected = json.load(f)
    calls = dataset_fixtures_more.CALLS
    for (name, kwargs), want in zip(calls, expected):
        got = dataset_fixtures_more.summary(getattr(datasets, name).load_data(**kwargs))
        assert got == want, f"{name}({kwargs})"
    assert datasets.reuters.get_word_index() == expected[len(calls)]
    assert list(datasets.reuters.get_label_names()) == expected[len(calls) + 1]
    assert "Downloading data from" in capsys.readouterr().out


def test_cache_layout_and_single_download(server):
    datasets.cifar100.load_data()
    datasets.cifar100.load_data(label_mode="coarse")
    datasets.reuters.load_data()
    datasets.reuters.load_data(num_words=5)
    datasets.california_housing.load_data(version="small")
    assert sorted(_Handler.requests) == ["/california_housing.npz", "/cifar-100-python.tar.gz", "/reuters.npz"]
    home = server["home"] / "datasets"
    assert (home / "cifar-100-python-target" / "cifar-100-python" / "train").exists()
    assert (home / "reuters.npz").exists() and (home / "california_housing.npz").exists()


def test_channels_first_cifar100(server):
    tf.keras.config.set_image_data_format("channels_first")
    try:
        (x_train, _), (x_test, _) = datasets.cifar100.load_data()
    finally:
        tf.keras.config.set_image_data_format("channels_last")
    assert x_train.shape == (5, 3, 32, 32) and x_test.shape == (3, 3, 32, 32)


def test_bad_arguments_raise_as_keras_does(server):
    with pytest.raises(ValueError, match='`label_mode` must be one of `"fine"`, `"coarse"`'):
        datasets.cifar100.load_data(label_mode="medium")
    with pytest.raises(ValueError, match="Argument `version` must be one of 'small', 'large'"):
        datasets.california_housing.load_data(version="tiny")
    with pytest.raises(ValueError, match="Invalid `test_split` argument: 1"):
        datasets.california_housing.load_data(test_split=1)


def test_a_corrupted_download_fails_the_hash_check(server, monkeypatch):
    monkeypatch.setattr(datasets.reuters, "FILE_HASH", "0" * 64)
    with pytest.raises(ValueError, match="hash"):
        datasets.reuters.load_data()
