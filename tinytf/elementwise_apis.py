"""The APIs TF 2.21 treats as unary and binary elementwise for dispatch (its `unary_elementwise_apis()` and
`binary_elementwise_apis()`), by their public tinytf paths; names tinytf does not have are skipped. Ragged
dispatch runs each on a RaggedTensor's flat values; extension types' elementwise dispatch registers for each."""

UNARY = """
math.abs math.acos math.acosh math.angle math.asin math.asinh math.atan math.atanh math.bessel_i0 math.bessel_i0e
math.bessel_i1 math.bessel_i1e math.special.bessel_j0 math.special.bessel_j1 math.special.bessel_k0
math.special.bessel_k0e math.special.bessel_k1 math.special.bessel_k1e math.special.bessel_y0 math.special.bessel_y1
bitwise.invert cast math.ceil clip_by_value math.conj image.convert_image_dtype math.special.dawsn
debugging.check_numerics math.erfcinv math.erfinv math.exp math.special.expint math.floor math.special.fresnel_cos
math.special.fresnel_sin nn.gelu math.imag io.decode_base64 io.decode_compressed io.encode_base64 nn.leaky_relu
math.log_sigmoid nn.log_softmax math.cos math.cosh math.digamma math.erf math.erfc math.expm1 math.is_finite
math.is_inf math.is_nan math.lgamma math.log math.log1p math.logical_not math.negative math.nextafter
math.reciprocal math.rint math.sin math.sinh math.square math.tan math.tanh math.ndtri nn.elu nn.relu nn.selu
nn.softsign ones_like image.adjust_brightness image.adjust_gamma image.random_brightness math.real
math.reciprocal_no_nan strings.regex_full_match strings.regex_replace nn.relu6 math.round math.rsqrt
dtypes.saturate_cast math.sigmoid math.sign math.softplus math.special.spence math.sqrt
image.stateless_random_brightness strings.length strings.to_hash_bucket strings.to_number strings.as_string
strings.lower strings.strip strings.to_hash_bucket_fast strings.to_hash_bucket_strong strings.unicode_script
strings.unicode_transcode strings.upper strings.substr nn.swish zeros_like
compat.v1.to_bfloat16 compat.v1.to_complex128 compat.v1.to_complex64 compat.v1.to_double compat.v1.to_float
compat.v1.to_int32 compat.v1.to_int64
""".split()

BINARY = """
math.add bitwise.bitwise_and bitwise.bitwise_or bitwise.bitwise_xor bitwise.left_shift bitwise.right_shift
dtypes.complex compat.v1.div math.divide_no_nan math.divide math.equal compat.v1.floor_div math.floordiv
math.logical_xor math.atan2 math.floormod math.greater math.greater_equal math.less math.less_equal
math.logical_and math.logical_or math.maximum math.minimum math.squared_difference math.xlogy math.zeta
math.multiply math.multiply_no_nan math.not_equal math.pow math.scalar_mul nn.sigmoid_cross_entropy_with_logits
math.subtract math.truediv truncatediv truncatemod math.xdivy math.xlog1py
""".split()

BINARY_ASSERT = """
debugging.assert_equal debugging.assert_none_equal debugging.assert_near debugging.assert_less
debugging.assert_less_equal debugging.assert_greater debugging.assert_greater_equal
""".split()
