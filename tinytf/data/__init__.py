"""tf.data: input pipelines (Dataset, its transformations, iterators), eager and inside tf.function."""

# The modules that install Dataset's methods (dataset.dataset_methods), base first: every method is in place
# before tf.data.Dataset is used.
from . import dataset, symbolic, sources, readers, sampling, parallel, transforms  # noqa: F401, I001
from . import batching, shuffling, windows, reduce, resampling  # noqa: F401, I001
from . import experimental_transforms, saving, iterator_spec  # noqa: F401, I001
from . import experimental  # noqa: F401
from . import autograph_builtins  # noqa: F401  (enumerate, zip, len, ... of datasets in converted code)
from .dataset import AUTOTUNE, DatasetV2
from .dataset import INFINITE as INFINITE_CARDINALITY
from .dataset import UNKNOWN as UNKNOWN_CARDINALITY
from .iterator import Iterator, NumpyIterator  # noqa: F401
from .iterator_spec import IteratorSpec
from .options import Options, ThreadingOptions
from .readers import TextLineDataset, TFRecordDataset
from .record_sources import FixedLengthRecordDataset
from .structure import DatasetSpec

Dataset = DatasetV2

__all__ = ["Dataset", "AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "Iterator", "Options",
           "ThreadingOptions", "TextLineDataset", "TFRecordDataset", "FixedLengthRecordDataset", "IteratorSpec",
           "DatasetSpec"]
