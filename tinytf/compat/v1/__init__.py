"""tf.compat.v1: TF1's graph-and-session style (Graph, placeholder, Session, collections, optimizers with
minimize), on the same graph IR, passes and code generator as tf.function."""

from tinytf.runtime.autodiff.graph_gradients import gradients  # noqa: F401
from tinytf.runtime.context import state as _state
from tinytf.runtime.ops.random import set_seed as set_random_seed  # noqa: F401 - in a TF1 graph: its seed

from ...scopes import name_scope  # noqa: F401
from ...variables import Variable  # noqa: F401 - in a TF1 graph it becomes a GraphVariable (graph_variable.py)
from . import data, image, initializers, losses, metrics, nn, train  # noqa: F401
from .config_protos import ConfigProto, GPUOptions, GraphOptions, OptimizerOptions, RunMetadata, RunOptions  # noqa: F401,E501
from .graph import Graph, get_default_graph, placeholder, placeholder_with_default, reset_default_graph  # noqa: F401
from .graph_keys import GraphKeys  # noqa: F401
from .graph_variable import collect_variable
from .initializers import *  # noqa: F401,F403
from .ops import Operation, group  # noqa: F401
from .select_and_misc import *  # noqa: F401,F403
from .session import InteractiveSession, Session, get_default_session  # noqa: F401
from .v1_argument_order import *  # noqa: F401,F403
from .v1_asserts import *  # noqa: F401,F403
from .v1_functions import *  # noqa: F401,F403
from .variable_scope import (  # noqa: F401
    AUTO_REUSE,
    VariableScope,
    create_partitioned_variables,
    get_variable,
    get_variable_scope,
    variable_scope,
)
from .variables import (  # noqa: F401
    add_to_collection,
    get_collection,
    global_variables,
    global_variables_initializer,
    is_variable_initialized,
    report_uninitialized_variables,
    trainable_variables,
    variables_initializer,
)

_eager_disabled = {"graph": None}


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None, op_dict=None,
                     producer_op_list=None):
    """`tf.compat.v1.import_graph_def`: a TF GraphDef's nodes into the graph being built (tinytf/graph_def)."""
    from tinytf.graph_def.tf_import import import_graph_def as run  # on first use: it needs all of tinytf

    return run(graph_def, input_map=input_map, return_elements=return_elements, name=name)


def disable_eager_execution():
    """Build every op into the default TF1 graph from now on (this thread), as TF1 programs expect."""
    graph = get_default_graph()
    _state.graph = graph
    if collect_variable not in _state.variable_hooks:
        _state.variable_hooks.append(collect_variable)
    _eager_disabled["graph"] = graph


def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    if _eager_disabled["graph"] is not None and _state.graph is _eager_disabled["graph"]:
        _state.graph = None
    if collect_variable in _state.variable_hooks:
        _state.variable_hooks.remove(collect_variable)
    _eager_disabled["graph"] = None


def executing_eagerly() -> bool:
    return _state.graph is None


# TF 2.21's tf.compat.v1 names that are TF2 objects (tf.compat.v1.reshape is tf.reshape), and the namespaces
# that hold only such names (tf.compat.v1.math, .linalg, ...): tf1_aliases.py
from . import tf1_aliases as _tf1_aliases  # noqa: E402

_tf1_aliases.install(globals(), "")
for _namespace in _tf1_aliases.ALIAS_ONLY_NAMESPACES:
    _tf1_aliases.alias_namespace(globals(), _namespace)
del _namespace

# The rest of TF1 (helper tf1): tf.layers (layers/, on the legacy Layer the RNN cells share), TF's queues under
# their TF1 names, count_up_to (input_pipeline.py), and tf.compat.v1.summary (summary_ops.py, summary_writer.py)
from ... import queue  # noqa: E402,F401
from ...queue import FIFOQueue, PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue  # noqa: E402,F401
from . import layers, summary  # noqa: E402,F401
from .input_pipeline import count_up_to  # noqa: E402,F401

# TF1 names of the leftovers (helper tf1more): TF1's space_to_batch / batch_to_space (nn_more.py)
from .nn_more import batch_to_space, space_to_batch  # noqa: E402,F401
from .readers import (  # noqa: E402,F401
    FixedLengthRecordReader,
    IdentityReader,
    ReaderBase,
    TextLineReader,
    TFRecordReader,
    WholeFileReader,
)
from .summary_writer import Event, HistogramProto, SessionLog, Summary, SummaryMetadata  # noqa: E402,F401
from .template import make_template  # noqa: E402,F401
from .tf1_misc import *  # noqa: E402,F401,F403

# isort: split
# The tf.strings / tf.math / tf.io leftovers (helper strmath): TF1's decode_raw and sparse serializers, in
# tf.compat.v1 and tf.compat.v1.io (the other io/math names there are TF2's objects, found by tf1_aliases), and
# tf.compat.v1.math.special (TF's re-wraps tf.math.special's functions with their signatures: here, the same)
from ...math_special import special as _special  # noqa: E402
from . import io_v1 as _io_v1  # noqa: E402

globals()["math"].special = _special

for _name in _io_v1.V1_IO_NAMES:
    globals()[_name] = getattr(_io_v1, _name)
    setattr(globals()["io"], _name, getattr(_io_v1, _name))
del _name

# isort: split
# The last TF1 names (helper tf1rest): Dimension, TF1's tensor equality switch, batch_scatter_update, TF1
# signatures and initializers (tf1_rest.py); the logging / gfile / python_io / app / flags / resource_loader
# namespaces (tf1_namespaces.py); tf.compat.v1.keras and .nest are TF2's modules here (Keras 3, as TF 2.21's)
from ... import keras, nest  # noqa: E402,F401
from .tf1_namespaces import app, flags, gfile, logging, python_io, resource_loader  # noqa: E402,F401
from .tf1_rest import *  # noqa: E402,F401,F403

# isort: split
# TF1's SavedModel builder and loader (helper tf1rest, saved_model_v1.py) and the rest of TF 2.21's
# tf.compat.v1.saved_model: its submodules and their top-level names (helper v1saved, saved_model_namespace.py)
from . import saved_model_namespace as _saved_model_namespace  # noqa: E402

_saved_model_namespace.install(globals()["saved_model"])

# isort: split
# The last leftovers (helper v1more): partitioned variables (partitioned_variables.py, saved as TF saves them)
# session extras: persistent session tensors (session_tensors.py), conditional accumulators (accumulators.py)
from .accumulators import *  # noqa: E402,F401,F403
from .build_and_devices import *  # noqa: E402,F401,F403
from .graph_checks import *  # noqa: E402,F401,F403
from .partitioned_variables import *  # noqa: E402,F401,F403
from .session_tensors import delete_session_tensor, get_session_handle, get_session_tensor  # noqa: E402,F401
from .sparse_feeds import *  # noqa: E402,F401,F403

# namespaces of tf.compat.v1 whose names TF 2.21 gives as TF2 objects (tf2_same_objects.py); tf.compat.v1.version
# and .types hold what tf.version and tf.types hold
for _namespace in ("audio", "autograph", "experimental", "manip", "quantization", "sets", "signal",
                   "spectral", "test"):
    _tf1_aliases.alias_namespace(globals(), _namespace)
del _namespace
from ... import types, version  # noqa: E402,F401

# the dotted namespaces (config.experimental, data.experimental, random.experimental, io.gfile, ...) and the
# TF1 modules that TF 2.21 fills with other names (tf.compat.v1.initializers.zeros is zeros_initializer)
from . import summary as _summary_module  # noqa: E402

_tf1_aliases.install(_summary_module.__dict__, "summary")
_tf1_aliases.install(globals()["initializers"].__dict__, "initializers")
_tf1_aliases.alias_nested_namespaces(globals())

# tf.compat.v1.errors' own functions (helper v1alias): codes <-> exception classes (errors_v1.py)
from . import errors_v1 as _errors_v1  # noqa: E402

for _name in _errors_v1.__all__:
    setattr(globals()["errors"], _name, getattr(_errors_v1, _name))
del _name

# TF1 forms in the namespaces: strings.length/split, random.stateless_multinomial, he/lecun/identity initializers,
# test.get_temp_dir (v1_namespace_functions.py)
from . import v1_namespace_functions as _namespace_functions  # noqa: E402

for _namespace, _names in _namespace_functions.NAMESPACES.items():
    for _name in _names:
        setattr(globals()[_namespace], _name, getattr(_namespace_functions, _name))
del _namespace, _names, _name
# TF's tf.compat.v1.io.tf_record_iterator and TFRecordCompressionType are python_io's (tf1_namespaces.py)
globals()["io"].tf_record_iterator = python_io.tf_record_iterator
globals()["io"].TFRecordCompressionType = python_io.TFRecordCompressionType
# tf.compat.v1.ragged's RaggedTensorValue and constant_value (ragged_value.py)
from . import ragged_value as _ragged_value  # noqa: E402

globals()["ragged"].RaggedTensorValue = _ragged_value.RaggedTensorValue
globals()["ragged"].constant_value = _ragged_value.constant_value
# tf.compat.v1.graph_util's own functions on GraphDefs (graph_util_v1.py)
from . import graph_util_v1 as _graph_util_v1  # noqa: E402

for _name in _graph_util_v1.__all__:
    setattr(globals()["graph_util"], _name, getattr(_graph_util_v1, _name))
del _name
from .wrap_function import wrap_function  # noqa: E402,F401

# isort: split
# TF1's deprecated probability API (helper v1dist): tf.compat.v1.distributions (distributions/)
from . import distributions  # noqa: E402,F401

# isort: split
# The last names of TF 2.21's tf.compat.v1 (helper v1rest): TF1's data.experimental classes (data_v1.py)
from . import data_v1 as _data_v1  # noqa: E402

for _name, _value in _data_v1.EXPERIMENTAL.items():
    setattr(data.experimental, _name, _value)
del _name, _value
# TF1's lookup tables, initialized in a Session by tables_initializer (lookup_v1.py)
from . import lookup_v1 as _lookup_v1  # noqa: E402

for _name, _value in _lookup_v1.NAMES.items():
    setattr(globals()["lookup"], _name, _value)
del _name, _value
# TF1's loss scaling and its optimizer wrapper (mixed_precision_v1.py), where TF exports them
from . import mixed_precision_v1 as _mixed_precision_v1  # noqa: E402

for _name, _value in _mixed_precision_v1.NAMES.items():
    setattr(globals()["mixed_precision"], _name, _value)
    setattr(train.experimental, _name, _value)
    if _name in _mixed_precision_v1.EXPERIMENTAL:
        setattr(globals()["mixed_precision"].experimental, _name, _value)
del _name, _value
# TF1's strategy classes (distribute_v1.py)
from . import distribute_v1 as _distribute_v1  # noqa: E402

for _name, _value in _distribute_v1.NAMES.items():
    setattr(globals()["distribute"], _name, _value)
for _name, _value in _distribute_v1.EXPERIMENTAL.items():
    setattr(globals()["distribute"].experimental, _name, _value)
del _name, _value
# tf.compat.v1.test's own functions: TF1's gradient checker, graph comparison, stubs (test_v1.py)
from . import test_v1 as _test_v1  # noqa: E402

for _name in _test_v1.NAMES:
    setattr(globals()["test"], _name, getattr(_test_v1, _name))
del _name
# TF1's image and audio summaries and the summary helpers TF 2.21 keeps in tf.compat.v1.summary (summary_media.py)
from . import summary_media as _summary_media  # noqa: E402

for _name in _summary_media.NAMES:
    setattr(summary, _name, getattr(_summary_media, _name))
del _name
from .ragged_placeholder import placeholder as _ragged_placeholder  # noqa: E402

globals()["ragged"].placeholder = _ragged_placeholder
from . import graph_freeze as _graph_freeze  # noqa: E402

for _name in _graph_freeze.NAMES:
    setattr(globals()["graph_util"], _name, getattr(_graph_freeze, _name))
del _name
# TF1's opt-outs (they keep tinytf's one, v2, behaviour and say so) and autograph's TF1 signatures
from ...quantization import fake_quant_with_min_max_vars_per_channel_gradient  # noqa: E402,F401
from . import v1_switch_offs as _switch_offs  # noqa: E402

for _name in _switch_offs.NAMES:
    globals()[_name] = getattr(_switch_offs, _name)
del _name
globals()["experimental"].output_all_intermediates = _switch_offs.output_all_intermediates
globals()["autograph"].to_code = _switch_offs.to_code
globals()["autograph"].to_graph = _switch_offs.to_graph
# tf.compat.v1.profiler: its option builder (profiler_options.py); TF1's tfprof profile/advise/Profiler are not here
import sys as _sys  # noqa: E402
import types as _types  # noqa: E402

from .profiler_options import ProfileOptionBuilder as _ProfileOptionBuilder  # noqa: E402

profiler = _types.ModuleType(f"{__name__}.profiler", "tf.compat.v1.profiler: ProfileOptionBuilder (TF1's tfprof "
                                                     "options); TF1's profile/advise/Profiler are not in tinytf.")
profiler.ProfileOptionBuilder = _ProfileOptionBuilder
_sys.modules[profiler.__name__] = profiler
# its protocol buffers, made at first use (profiler_protos.py)
from . import profiler_protos as _profiler_protos  # noqa: E402


def _profiler_getattr(name):
    if name in _profiler_protos.NAMES:
        value = _profiler_protos.get(name)
        setattr(profiler, name, value)
        return value
    raise AttributeError(f"module {profiler.__name__!r} has no attribute {name!r}")


profiler.__getattr__ = _profiler_getattr
