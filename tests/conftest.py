"""Every graph traced in the test suite is checked, after tracing and after every pass."""

import os
import sys
import urllib.error
import urllib.request

import pytest

import tinytf as tf

sys.path.insert(0, os.path.dirname(__file__))
tf.config.set_check_graphs(True)


@pytest.fixture(autouse=True)
def _reset_global_state():
    yield
    tf.config.run_functions_eagerly(False)


@pytest.fixture(autouse=True)
def _undo_gradient_registrations():
    """tf.RegisterGradient / tf.no_gradient last for the process, as in TF: undone after each test (a docs page,
    a conformance program), so that one test's gradient does not leak into the next."""
    from tinytf import gradient_registry

    before = set(gradient_registry._REGISTERED)
    yield
    for name in set(gradient_registry._REGISTERED) - before:
        gradient_registry._unregister(name)


@pytest.fixture
def all_passes():
    """For tests about optimized graphs: every pass on, even when the suite runs with TINYTF_PASSES=none."""
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({"disable_all": False})
    yield
    tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})


@pytest.fixture(params=["passes", "no_passes"])
def passes(request):
    """Each graph case twice, whatever TINYTF_PASSES says: every pass on, and `disable_all` (the generated code
    as traced). Yields which."""
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({"disable_all": request.param == "no_passes"})
    yield request.param
    tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})


@pytest.fixture
def keras_home(tmp_path, monkeypatch):
    """An empty Keras cache, and no network: a download attempt fails as urlretrieve does offline."""
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    attempts = []

    def offline(url, *args, **kwargs):
        attempts.append(url)
        raise urllib.error.URLError("[Errno -2] Name or service not known")

    monkeypatch.setattr(urllib.request, "urlretrieve", offline)
    os.makedirs(tmp_path / "models")
    return tmp_path, attempts
