"""tf.train: checkpoints in TensorFlow's format (tf.train.Checkpoint, CheckpointManager, readers)."""

# TF2's tf.train names of the TF1 machinery (helper tf1): Coordinator, ExponentialMovingAverage, checkpoint state
from ..compat.v1.checkpoint_utils import checkpoints_iterator, get_checkpoint_state  # noqa: E402,F401
from ..compat.v1.coordinator import Coordinator  # noqa: E402,F401
from ..compat.v1.moving_averages import ExponentialMovingAverage  # noqa: E402,F401
from .checkpoint import Checkpoint, CheckpointLoadStatus, restore_pending  # noqa: F401

# tf.train.ClusterSpec and its protocol buffers (helper tf1more)
from .cluster_spec import ClusterDef, ClusterSpec, JobDef  # noqa: E402,F401
from .example import (  # noqa: F401
    BytesList,
    Example,
    Feature,
    FeatureList,
    FeatureLists,
    Features,
    FloatList,
    Int64List,
    SequenceExample,
)
from .manager import CheckpointManager  # noqa: F401
from .reader import CheckpointReader, list_variables, load_checkpoint, load_variable  # noqa: F401
from .server_def import ServerDef  # noqa: E402,F401  (what a tf.distribute.Server is)
from .state_file import latest_checkpoint  # noqa: F401
