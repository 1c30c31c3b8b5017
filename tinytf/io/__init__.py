"""tf.io: TFRecord files, whole-file reads and writes, tf.train.Example parsing, CSV decoding, protobuf messages
(decode_proto/encode_proto), gfile, and write_graph (a GraphDef to a file)."""

from tinytf.runtime.ops.proto_ops import decode_proto, encode_proto  # noqa: F401  (protobuf messages)

from . import gfile  # noqa: F401
from .files import read_file, write_file  # noqa: F401
from .graph_io import write_graph  # noqa: F401
from .parsing import (  # noqa: F401
    FixedLenFeature,
    FixedLenSequenceFeature,
    RaggedFeature,
    VarLenFeature,
    decode_csv,
    parse_example,
    parse_sequence_example,
    parse_single_example,
    parse_single_sequence_example,
)
from .tfrecord import TFRecordOptions, TFRecordWriter  # noqa: F401

# isort: split
from tinytf.image.codecs import (  # noqa: E402, F401  (tf.io's image codecs)
    decode_and_crop_jpeg,
    decode_bmp,
    decode_gif,
    decode_image,
    decode_jpeg,
    decode_png,
    encode_jpeg,
    encode_png,
    extract_jpeg_shape,
    is_jpeg,
)

# isort: split
# byte-level functions: TensorProto bytes, base64, raw numbers, decompression, JSON Examples, file matching
from .serialize import (  # noqa: E402, F401
    decode_base64,
    decode_compressed,
    decode_json_example,
    decode_raw,
    deserialize_many_sparse,
    encode_base64,
    match_filenames_once,
    matching_files,
    parse_tensor,
    serialize_many_sparse,
    serialize_sparse,
    serialize_tensor,
)

# isort: split
from .sparse_feature import SparseFeature  # noqa: E402,F401  (helper toplvl2)
