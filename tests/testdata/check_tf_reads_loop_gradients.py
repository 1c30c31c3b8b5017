"""TensorFlow 2.21 runs the while-loop and TensorArray gradients tinytf exports: tinytf writes the SavedModels of
tinytf_loop_gradients.py (run with tinytf's Python), TF loads and calls them, and this records TF's results with
the op kinds of what tinytf wrote in loop_gradients_read_by_tf.json (tests/test_saved_model_loop_gradients.py
checks that tinytf still writes the same ops and computes what TF computed from them).

    cd /tmp && TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python REPO/tests/testdata/check_tf_reads_loop_gradients.py
"""

import json
import os
import subprocess
import sys
import tempfile

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TINYTF_PYTHON = os.environ.get("TINYTF_PYTHON", "/work/venv/bin/python")
XS = [[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]]


def main():
    with tempfile.TemporaryDirectory() as out:
        env = {**os.environ, "PYTHONPATH": ROOT}
        written = subprocess.run([TINYTF_PYTHON, os.path.join(HERE, "tinytf_loop_gradients.py"), out], env=env,
                                 capture_output=True, text=True, check=True)
        record = json.loads(written.stdout.strip().splitlines()[-1])
        for name, entry in record.items():
            loaded = tf.saved_model.load(os.path.join(out, name))
            results = {"while_grad": loaded.while_grad(tf.constant(0.5)), "rnn_grad": loaded.rnn_grad(tf.constant(XS))}
            if "tensor_array_grad" in entry["tinytf"]:
                results["tensor_array_grad"] = loaded.tensor_array_grad(tf.constant([1.0, 2.0, 3.0]))
            if "while_second_derivative" in entry["tinytf"]:
                results["while_second_derivative"] = loaded.while_second_derivative(tf.constant(0.5))
            if "tensor_array_read_grad" in entry["tinytf"]:
                results["tensor_array_read_grad"] = loaded.tensor_array_read_grad(tf.constant(XS))
            entry["tf"] = {call: {k: v.numpy().tolist() for k, v in r.items()} for call, r in results.items()}
            del entry["tinytf"]
    with open(os.path.join(HERE, "loop_gradients_read_by_tf.json"), "w") as f:
        json.dump(record, f, indent=1)
    print("recorded", sorted(record))


if __name__ == "__main__":
    sys.exit(main())
