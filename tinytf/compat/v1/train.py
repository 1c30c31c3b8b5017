"""tf.compat.v1.train: TF1's optimizers, each adding its gradient and update ops to the graph in minimize(), and
TF1's Saver with import_meta_graph / export_meta_graph."""

from ...train.state_file import latest_checkpoint  # noqa: F401
from .optimizer import GradientDescentOptimizer, Optimizer  # noqa: F401
from .saver import Saver, export_meta_graph, import_meta_graph  # noqa: F401
from .slot_optimizers import AdagradOptimizer, AdamOptimizer, MomentumOptimizer, RMSPropOptimizer  # noqa: F401
