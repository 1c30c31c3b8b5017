"""TensorFlow's string and file ops in tinytf (the importer's side): StringToNumber (a TF1 Regress signature
parses its string inputs with it), StringLength, and ReadFile (a TF1 SavedModel's main op reads its assets
with it). tinytf's graphs export these for tf.strings.to_number / length and tf.io.read_file; tf_import.py
merges this table."""

from __future__ import annotations

import tinytf as tf

CONVERTERS = {
    "ReadFile": lambda n: [tf.io.read_file(n.inputs[0])],
    "StringLength": lambda n: [tf.strings.length(n.inputs[0], unit=n.attr("unit", "BYTE") or "BYTE")],
    "StringToNumber": lambda n: [tf.strings.to_number(n.inputs[0], out_type=n.attr("out_type", tf.float32))],
}
