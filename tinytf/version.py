"""tf.version: what tinytf is, in TF's constants. As in TF, VERSION is the package's `__version__` (tinytf's own
version, not TF's: tinytf follows TF 2.21's API, see tinytf.version.TF_API_VERSION); GRAPH_DEF_VERSION is the
producer version tinytf stamps on the GraphDefs it exports, the one TF 2.21 checks them against."""

import platform

from tinytf.graph_def.export import PRODUCER

VERSION = "0.1.0"
GIT_VERSION = "unknown"  # tinytf is not built from a tagged TF source tree
COMPILER_VERSION = platform.python_compiler()  # tinytf compiles nothing itself: the Python it runs on
GRAPH_DEF_VERSION = PRODUCER
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0
TF_API_VERSION = "2.21"  # the TensorFlow API tinytf matches (not a TF name)
