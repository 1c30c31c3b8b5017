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


def main():
    with tempfile.TemporaryDirectory() as out:
        env = {**os.environ, "PYTHONPATH": ROOT}
        written = subprocess.run([TINYTF_PYTHON, os.path.join(HERE, "tinytf_loop_gradients.py"), out], env=env,
                                 capture_output=True, text=True, check=True)
        record = json.loads(written.stdout.strip().splitlines()[-1])
        sys.path.insert(0, HERE)
        from tinytf_loop_gradients import ARGUMENTS as arguments  # plain data: the module imports no library
        for name, entry in record.items():
            loaded = tf.saved_model.load(os.path.join(out, name))
            entry["tf"] = {call: {k: v.numpy().tolist() for k, v in getattr(loaded, call)(tf.constant(arg)).items()}
                           for call, arg in arguments.items() if call in entry["tinytf"]}
            del entry["tinytf"]
    with open(os.path.join(HERE, "loop_gradients_read_by_tf.json"), "w") as f:
        json.dump(record, f, indent=1)
    print("recorded", sorted(record))


if __name__ == "__main__":
    sys.exit(main())
