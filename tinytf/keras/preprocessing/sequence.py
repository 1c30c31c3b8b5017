"""keras.preprocessing.sequence: pad_sequences (the same function as keras.utils.pad_sequences), and the
word2vec helpers skipgrams and make_sampling_table, and the deprecated TimeseriesGenerator."""

from ..utils.sequence_utils import pad_sequences
from .skipgrams import make_sampling_table, skipgrams
from .timeseries_generator import TimeseriesGenerator

__all__ = ["TimeseriesGenerator", "make_sampling_table", "pad_sequences", "skipgrams"]
