"""tf.io: TFRecord files, whole-file reads and writes, tf.train.Example parsing, CSV decoding, gfile, and
write_graph (a GraphDef to a file)."""

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
