"""`tinytf inspect` and `tinytf bench FILE:FUNC` on a user's file: every view, pictures, and one clear line
with exit status 2 for each kind of bad input."""

import textwrap

import pytest

import tinytf as tf
from tinytf.cli import main

MODEL = textwrap.dedent("""
    import tinytf as tf

    W = tf.Variable(tf.ones([4, 2]))

    def step(x):
        y = tf.tanh(x @ W) * 1.0 + 0.0
        if tf.reduce_sum(y) > 100.0:
            y = y * 0.5
        return y

    class Model:
        @staticmethod
        def call(x):
            return x * 2.0
""")


@pytest.fixture
def model_file(tmp_path):
    path = tmp_path / "my_model.py"
    path.write_text(MODEL)
    return str(path)


def test_every_view(model_file, tmp_path, capsys):
    html, dot = tmp_path / "page.html", tmp_path / "graph.dot"
    status = main(["inspect", f"{model_file}:step", "--args", "tf.ones([3, 4])", "--no-timing",
                   "--html", str(html), "--dot", str(dot)])
    out = capsys.readouterr().out
    assert status == 0
    assert "def tf__step(x):" in out and "ag__.if_stmt" in out  # AutoGraph's source
    assert "graph step(x: float32[3,4], W: resource)" in out or "graph step(x: float32[3,4]" in out
    assert "=== pass simplification" in out and "-  multiply = multiply(" in out  # x * 1.0 removed, as a diff
    assert "=== generated code" in out and "def step(" in out
    assert dot.read_text().startswith('digraph "step"')
    page = html.read_text()
    assert page.startswith("<!doctype html>") and "Converted source" in page and "Generated code" in page
    assert "<h2>Source</h2><pre>def step(x):" in page  # the user's own source, first
    assert "http" not in page.replace("http://www.w3.org", "")  # self-contained: nothing fetched from elsewhere


def test_timing_and_bench(model_file, capsys):
    before = tf.config.optimizer.get_experimental_options()
    assert main(["inspect", f"{model_file}:step", "--args", "tf.ones([3, 4])", "--passes", "fusion"]) == 0
    assert tf.config.optimizer.get_experimental_options() == before  # the chosen passes do not outlive the run
    out = capsys.readouterr().out
    assert "eager" in out and "graph without passes" in out and "BLAS" in out
    assert "=== pass simplification" not in out  # only the chosen pass ran
    assert main(["bench", f"{model_file}:Model.call", "--args", "tf.ones([8])"]) == 0
    assert "eager/graph" in capsys.readouterr().out


@pytest.mark.parametrize("argv,message", [
    (["inspect", "/no/such/file.py:f"], "no such file"),
    (["inspect", "{model}:missing"], "has no function 'missing'"),
    (["inspect", "{model}:step", "--args", "tf.ones(["], "did not evaluate"),
    (["inspect", "{model}:step", "--args", "tf.ones([3])"], "failed to trace"),
    (["inspect", "{model}:step", "--passes", "nonsense"], "unknown pass"),
    (["inspect", "no_colon.py"], "expected FILE:FUNCTION"),
])
def test_bad_input_is_one_line_and_status_2(model_file, capsys, argv, message):
    argv = [a.replace("{model}", model_file) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.strip().splitlines()[-1].startswith(("tinytf inspect:", "  File", "    "))


def test_unknown_flags_are_errors(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--bogus"])
    assert exit_info.value.code == 2
    with pytest.raises(SystemExit):
        main(["inspect", "x.py:f", "--bogus"])


@pytest.mark.parametrize("command,option", [
    ("inspect", "--html"), ("bench", "--rounds"), ("demo", "usage: tinytf demo")])
def test_each_command_has_its_own_help(command, option, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert f"usage: tinytf {command}" in out and option in out


@pytest.mark.parametrize("argv", [["demo", "--bogus"], ["bench", "--bogus"], ["nonsense"]])
def test_unknown_words_and_flags_of_commands_are_errors(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "error:" in capsys.readouterr().err
