"""TensorFlow's string-parsing ops in tinytf (the importer's side): StringToNumber, which tinytf's graphs export
for tf.strings.to_number (a TF1 Regress signature parses its string inputs with it). tf_import.py merges
this table."""

from __future__ import annotations

import tinytf as tf

CONVERTERS = {
    "StringToNumber": lambda n: [tf.strings.to_number(n.inputs[0], out_type=n.attr("out_type", tf.float32))],
}
