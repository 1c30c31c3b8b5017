"""tf.config.optimizer under TF's option names (Grappler's): what each switches in tinytf's pipeline, what
get_experimental_options reports, the debug stripper, and constant folding of large constant chains (TF's
graph-optimization guide)."""

import numpy as np
import pytest

import tinytf as tf
from tinytf import config


@pytest.fixture(autouse=True)
def _restore_options():
    saved = config.optimizer_snapshot()
    yield
    config.restore_optimizer_snapshot(saved)


def _checked(x):
    tf.debugging.check_numerics(x, "Bad!")
    tf.debugging.Assert(tf.reduce_all(x < 0), [x])
    return x * 2


def test_the_debug_stripper_is_off_by_default_and_strips_checks_when_on():
    inf = tf.constant(float("inf"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Bad!"):
        tf.function(_checked)(inf)
    if config.optimizer_options().get("disable_all"):
        pytest.skip("the stripper is a pass: off with every pass (disable_meta_optimizer), as in TF")
    tf.config.optimizer.set_experimental_options({"debug_stripper": True})
    assert tf.function(_checked)(inf).numpy() == np.inf
    concrete = tf.function(_checked).get_concrete_function(tf.TensorSpec([], tf.float32))
    assert not [n for n in concrete.graph.nodes if n.op.name in ("check_numerics", "assert")]


def test_the_debug_stripper_drops_tf_print(capsys):
    if config.optimizer_options().get("disable_all"):
        pytest.skip("the stripper is a pass: off with every pass")
    tf.config.optimizer.set_experimental_options({"debug_stripper": True})

    @tf.function
    def f(x):
        tf.print("value", x)
        return x + 1

    assert f(tf.constant(1.0)).numpy() == 2.0
    assert "value" not in capsys.readouterr().out


def test_get_experimental_options_reports_as_tf():
    if config.optimizer_options().get("disable_all"):
        pytest.skip("TINYTF_PASSES=none reports disable_meta_optimizer")
    o = tf.config.optimizer
    config.restore_optimizer_snapshot(({}, {}))  # as a fresh process starts (the fixture puts back what was set)
    assert o.get_experimental_options() == {"disable_model_pruning": False, "disable_meta_optimizer": False}
    o.set_experimental_options({"debug_stripper": True, "min_graph_nodes": 3, "layout_optimizer": False, "bogus": 1})
    assert o.get_experimental_options() == {"layout_optimizer": False, "debug_stripper": True,
                                            "disable_model_pruning": False, "disable_meta_optimizer": False,
                                            "min_graph_nodes": 3}
    o.set_experimental_options({"fusion": False})  # tinytf's own names are reported after TF's
    assert list(o.get_experimental_options())[-1] == "fusion"


@pytest.mark.parametrize("tf_name, passes", [("arithmetic_optimization", ["simplification", "common_subexpression"]),
                                              ("remapping", ["conv_epilogue", "relu_pool_gradient"]),
                                              ("loop_optimization", ["loop_invariant_motion", "stack_release"]),
                                              ("constant_folding", ["constant_folding"])])
def test_tf_option_names_switch_tinytfs_passes(tf_name, passes):
    tf.config.optimizer.set_experimental_options({tf_name: False})
    assert all(config.optimizer_options()[p] is False for p in passes)
    tf.config.optimizer.set_experimental_options({tf_name: True})
    assert all(config.optimizer_options()[p] is True for p in passes)


def test_disable_meta_optimizer_and_model_pruning():
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True, "disable_model_pruning": True})
    assert config.optimizer_options()["disable_all"] is True and config.optimizer_options()["pruning"] is False


def _matmul_chain(x):
    a = tf.constant(np.linspace(-1, 1, 120 * 120).reshape(120, 120) / 60, tf.float32)
    c = a
    for _ in range(6):
        c = c @ a
    return tf.reduce_mean(c + x)


def test_a_chain_of_large_constant_products_folds_to_one_constant():
    if config.optimizer_options().get("disable_all"):
        pytest.skip("passes off")
    f = tf.function(_matmul_chain)
    x = tf.constant(0.5)
    graph = f.get_concrete_function(x).graph
    assert not [n for n in graph.nodes if n.op.name == "matmul"]  # 120x120 > the 4096-element cap: folded anyway
    np.testing.assert_allclose(f(x).numpy(), _matmul_chain(x).numpy(), rtol=1e-5)


def test_folding_never_makes_a_constant_larger_than_its_inputs():
    if config.optimizer_options().get("disable_all"):
        pytest.skip("passes off")

    @tf.function
    def f(x):
        return tf.reduce_sum(tf.fill([300, 300], 2.0) + x) + tf.reduce_sum(tf.tile(tf.ones([10, 10]), [30, 30]))

    graph = f.get_concrete_function(tf.constant(1.0)).graph
    names = {n.op.name for n in graph.nodes}
    assert "fill" in names and "tile" in names
    assert f(tf.constant(1.0)).numpy() == pytest.approx(300 * 300 * 3.0 + 300 * 300)
