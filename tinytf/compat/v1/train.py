"""tf.compat.v1.train: TF1's optimizers, each adding its gradient and update ops to the graph in minimize(), and
TF1's Saver with import_meta_graph / export_meta_graph."""

from ...train.state_file import latest_checkpoint  # noqa: F401
from .global_step import (  # noqa: F401
    assert_global_step,
    create_global_step,
    get_global_step,
    get_or_create_global_step,
    global_step,
)
from .learning_rate_decay import (  # noqa: F401
    cosine_decay,
    cosine_decay_restarts,
    exponential_decay,
    inverse_time_decay,
    natural_exp_decay,
    piecewise_constant,
    piecewise_constant_decay,
    polynomial_decay,
)
from .more_optimizers import AdadeltaOptimizer, ProximalGradientDescentOptimizer  # noqa: F401
from .optimizer import GradientDescentOptimizer, Optimizer  # noqa: F401
from .saver import Saver, export_meta_graph, import_meta_graph  # noqa: F401
from .slot_optimizers import AdagradOptimizer, AdamOptimizer, MomentumOptimizer, RMSPropOptimizer  # noqa: F401
from .tf1_aliases import install  # noqa: E402

install(globals(), "train")

# TF1's queue-based input pipelines and their threads (queue_runner.py, coordinator.py, input_pipeline.py)
from . import queue_runner  # noqa: E402,F401
from .checkpoint_utils import (  # noqa: E402,F401
    checkpoint_exists,
    checkpoints_iterator,
    generate_checkpoint_state_proto,
    get_checkpoint_mtimes,
    get_checkpoint_state,
    remove_checkpoint,
    update_checkpoint_state,
)
from .coordinator import Coordinator, LooperThread  # noqa: E402,F401

# MonitoredSession, its hooks, ExponentialMovingAverage and checkpoint utilities (monitored_session.py, hooks.py,
# session_run_hook.py, checkpoint_utils.py)
from .hooks import (  # noqa: E402,F401
    CheckpointSaverHook,
    CheckpointSaverListener,
    FeedFnHook,
    FinalOpsHook,
    GlobalStepWaiterHook,
    LoggingTensorHook,
    NanLossDuringTrainingError,
    NanTensorHook,
    SecondOrStepTimer,
    StepCounterHook,
    StopAtStepHook,
    SummarySaverHook,
)
from .init_from_checkpoint import init_from_checkpoint  # noqa: E402,F401

# The rest of TF1's training names (helper tf1more): the FTRL family of optimizers, linear-cosine decay, the
# _join and maybe_ batchers, ClusterSpec (tf.train's: tinytf/train/cluster_spec.py)
from .input_joins import (  # noqa: E402,F401
    batch_join,
    maybe_batch,
    maybe_batch_join,
    maybe_shuffle_batch,
    maybe_shuffle_batch_join,
    shuffle_batch_join,
)
from .input_pipeline import (  # noqa: E402,F401
    batch,
    input_producer,
    limit_epochs,
    range_input_producer,
    shuffle_batch,
    slice_input_producer,
    string_input_producer,
)
from .linear_cosine_decay import linear_cosine_decay, noisy_linear_cosine_decay  # noqa: E402,F401
from .monitored_session import (  # noqa: E402,F401
    ChiefSessionCreator,
    MonitoredSession,
    MonitoredTrainingSession,
    Scaffold,
    SessionCreator,
    SingularMonitoredSession,
    WorkerSessionCreator,
)
from .moving_averages import ExponentialMovingAverage  # noqa: E402,F401
from .queue_runner import QueueRunner, add_queue_runner, start_queue_runners  # noqa: E402,F401
from .session_manager import SessionManager  # noqa: E402,F401
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues  # noqa: E402,F401
from .tf1_proximal_optimizers import AdagradDAOptimizer, FtrlOptimizer, ProximalAdagradOptimizer  # noqa: E402,F401
from .train_files import NewCheckpointReader, SaverDef, summary_iterator  # noqa: E402,F401

# helper tf1rest: warm-starting from a previous model's checkpoint (warm_start.py)
from .warm_start import VocabInfo, warm_start  # noqa: E402,F401

# isort: split
# helper v1more: between-graph replication's device function (replica_device_setter.py), synchronous replicas
# (sync_replicas.py, on the conditional accumulators of accumulators.py), TF1's Checkpoint (checkpoint_v1.py)
from .checkpoint_v1 import Checkpoint  # noqa: E402,F401
from .replica_device_setter import replica_device_setter  # noqa: E402,F401

# TF1's Supervisor, the training helper before MonitoredSession (supervisor.py)
from .supervisor import Supervisor, basic_train_loop  # noqa: E402,F401
from .sync_replicas import SyncReplicasOptimizer  # noqa: E402,F401
