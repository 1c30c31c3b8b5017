"""GraphDef export of the tf.strings / tf.math / tf.io leftovers' ops: which are not written yet, and why."""

UNEXPORTED_STRMATH = {
    "unicode_decode_with_offsets": "returns a RaggedTensor's flat parts (values, offsets, row_splits) of a "
                                   "flattened input; TF's UnicodeDecodeWithOffsets takes the dense input; not written",
    "unicode_encode": "takes (flat values, row_splits) of every shape flattened to rows; TF's UnicodeEncode takes "
                      "the ragged components; not written",
    "unicode_transcode": "tinytf accepts a few ICU converter names only; TF's UnicodeTranscode; not written",
    "unicode_script": "TF's UnicodeScript; not written (the export's run check needs TF's ICU table to agree, "
                      "which it does not for code points assigned after Unicode 13)",
    "string_ngrams": "TF's StringNGrams with the same inputs and attributes; not written yet",
}

UNEXPORTED_STRMATH.update({
    "serialize_tensor": "TF's SerializeTensor; not written yet",
    "parse_tensor": "TF's ParseTensor; not written yet",
    "encode_base64": "TF's EncodeBase64; not written yet",
    "decode_base64": "TF's DecodeBase64; not written yet",
    "decode_raw": "TF's DecodeRaw; not written yet",
    "decode_padded_raw": "TF's DecodePaddedRaw (fixed_length is an input there, an attribute here); not written",
    "decode_compressed": "TF's DecodeCompressed; not written yet",
    "decode_json_example": "TF's DecodeJSONExample; not written yet",
    "matching_files": "TF's MatchingFiles; not written yet",
    "serialize_sparse": "TF's SerializeSparse; not written yet",
    "serialize_many_sparse": "TF's SerializeManySparse; not written yet",
    "deserialize_many_sparse": "TF's DeserializeManySparse; not written yet",
})

UNEXPORTED_STRMATH.update({
    name: f"TF's {tf_name}; not written yet"
    for name, tf_name in (("igamma", "Igamma"), ("igammac", "Igammac"), ("igamma_grad_a", "IgammaGradA"),
                          ("betainc", "Betainc"), ("bessel_j0", "BesselJ0"), ("bessel_j1", "BesselJ1"),
                          ("bessel_y0", "BesselY0"), ("bessel_y1", "BesselY1"), ("bessel_k0", "BesselK0"),
                          ("bessel_k0e", "BesselK0e"), ("bessel_k1", "BesselK1"), ("bessel_k1e", "BesselK1e"),
                          ("dawsn", "Dawsn"), ("expint", "Expint"), ("fresnel_cos", "FresnelCos"),
                          ("fresnel_sin", "FresnelSin"), ("spence", "Spence"))
})
