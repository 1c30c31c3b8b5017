"""Records what real Keras 3 (TF 2.21) returns from keras.datasets' california_housing, cifar100 and reuters
for the small fixture files of tests/dataset_fixtures_more.py, served through file:// origins, into
datasets_more_expected.json (read by tests/test_keras_misc_datasets.py). Run with TF's Python:
TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python tests/keras_files/generate_datasets_more.py"""
import importlib
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import dataset_fixtures_more  # noqa: E402
from keras.src.utils import file_utils  # noqa: E402

folder = tempfile.mkdtemp()
local = dataset_fixtures_more.write_all(os.path.join(folder, "served"))
real_get_file = file_utils.get_file
os.makedirs(os.path.join(folder, "cache"))


def local_get_file(fname=None, origin=None, file_hash=None, **kwargs):
    # the fixture's bytes instead of the real download (and no hash: the fixture is not the real file)
    return real_get_file(fname, origin="file://" + local[os.path.basename(origin)],
                         cache_dir=os.path.join(folder, "cache"), **kwargs)


results = []
for name, kwargs in dataset_fixtures_more.CALLS:
    module = importlib.import_module(f"keras.src.datasets.{name}")
    module.get_file = local_get_file
    results.append(dataset_fixtures_more.summary(module.load_data(**kwargs)))
reuters = importlib.import_module("keras.src.datasets.reuters")
results.append(reuters.get_word_index())
results.append(list(reuters.get_label_names()))
with open(os.path.join(HERE, "datasets_more_expected.json"), "w") as f:
    json.dump(results, f)
