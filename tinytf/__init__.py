"""tinytf: TensorFlow 2's programming model (eager tensors, @tf.function graphs, AutoGraph, GradientTape)
on numpy. `import tinytf as tf` and write TF2 code."""

import sys as _sys

from tinytf.runtime import dtypes as _dtypes
from tinytf.runtime.context import executing_eagerly
from tinytf.runtime.errors import OperatorNotAllowedInGraphError  # noqa: F401
from tinytf.runtime.ops.py_function import numpy_function, py_function  # noqa: F401
from tinytf.runtime.shapes import TensorShape
from tinytf.runtime.tensor import Tensor

from . import (  # noqa: F401
    audio,
    autodiff,
    autograph,
    bitwise,
    compat,
    config,
    data,
    debugging,
    distribute,
    dtypes,
    errors,
    experimental,
    graph_def,  # adds Graph.as_graph_def
    graph_util,
    image,
    io,
    keras,
    linalg,
    lookup,
    math,
    nest,
    nn,
    quantization,
    ragged,
    random,
    saved_model,
    sets,
    signal,
    sparse,
    strings,
    summary,
    train,
    types,
    version,
)
from ._ops import *  # noqa: F401,F403  (the op functions under their TF names)
from .assertions import assert_equal, assert_greater, assert_less, assert_rank  # noqa: F401  (tf.assert_*)
from .clip_ops import clip_by_global_norm, clip_by_norm  # noqa: F401
from .compat.v1 import Graph, constant_initializer, ones_initializer, zeros_initializer  # noqa: F401
from .composed_array_ops import meshgrid, roll  # noqa: F401
from .concrete_function import ConcreteFunction
from .constant import constant, convert_to_tensor
from .control_dependencies import control_dependencies  # noqa: F401
from .core_api import (  # noqa: F401  (TF's top-level core names)
    batch_to_space,
    bitcast,
    broadcast_dynamic_shape,
    broadcast_static_shape,
    dynamic_partition,
    dynamic_stitch,
    ensure_shape,
    fingerprint,
    get_current_name_scope,
    get_logger,
    get_static_value,
    grad_pass_through,
    group,
    hessians,
    identity_n,
    inside_function,
    is_symbolic_tensor,
    no_op,
    parallel_stack,
    random_normal_initializer,
    random_uniform_initializer,
    recompute_grad,
    repeat,
    required_space_to_batch_paddings,
    reverse_sequence,
    sequence_mask,
    shape_n,
    space_to_batch,
    space_to_batch_nd,
    timestamp,
    unravel_index,
)
from .core_api import tuple_ as tuple  # noqa: A004,F401  (tf.tuple, as TF names it)
from .device import device, is_tensor  # noqa: F401
from .function import Function, function
from .gradient_tape import GradientTape, UnconnectedGradients, custom_gradient, gradients, stop_gradient  # noqa: F401
from .indexed_slices import IndexedSlices, IndexedSlicesSpec  # noqa: F401
from .keras import initializers, losses, metrics, optimizers  # noqa: F401  (tf.losses, tf.optimizers, ...: TF2 aliases)
from .map_fn import foldl, foldr, map_fn, scan, vectorized_map  # noqa: F401
from .module import Module
from .ragged import RaggedTensor, RaggedTensorSpec  # noqa: F401
from .ragged.dispatch import install as _install_ragged_dispatch
from .ragged.fill_empty_rows import ragged_fill_empty_rows, ragged_fill_empty_rows_grad  # noqa: F401
from .scopes import init_scope, name_scope
from .signal import fftnd, ifftnd, irfftnd, rfftnd  # noqa: F401  (TF 2.21 exports these at the top too)
from .sparse import SparseTensor, SparseTensorSpec  # noqa: F401
from .tensor_array import TensorArray  # noqa: F401
from .tensor_spec import TensorSpec
from .type_spec import type_spec_from_value  # noqa: F401
from .variables import Variable, VariableAggregation, VariableSynchronization

float16 = half = _dtypes.float16
float32 = _dtypes.float32
float64 = double = _dtypes.float64
int8 = _dtypes.int8
int16 = _dtypes.int16
int32 = _dtypes.int32
int64 = _dtypes.int64
uint8 = _dtypes.uint8
uint16 = _dtypes.uint16
uint32 = _dtypes.uint32
uint64 = _dtypes.uint64
bfloat16 = _dtypes.bfloat16
complex64 = _dtypes.complex64
complex128 = _dtypes.complex128
string = _dtypes.string
bool = _dtypes.bool_  # noqa: A001 - TF's name
DType = _dtypes.DType
as_dtype = _dtypes.as_dtype
newaxis = None

__version__ = version.VERSION

_install_ragged_dispatch(_sys.modules[__name__], math, nn)  # tf.add, tf.math.sqrt, ... accept RaggedTensors

__all__ = ["Tensor", "TensorShape", "TensorSpec", "Variable", "Module", "Function", "ConcreteFunction",
           "constant", "convert_to_tensor", "function", "executing_eagerly", "name_scope", "init_scope",
           "VariableAggregation", "VariableSynchronization"]

# isort: split
from . import sorted_builtin  # noqa: E402,F401  (sorted(tensor) in converted code is tf.sort, as TF registers it)

# isort: split
# tf.queue: TF's queues, which TF1 input pipelines fill from QueueRunner threads (tinytf/queue)
from . import queue  # noqa: E402,F401

# isort: split
# tf.feature_column and tf.compat.v1.feature_column (helper featcol): imported last, since the columns' defaults
# are tinytf's dtypes
from . import feature_column, test  # noqa: E402,F401
from .feature_column import v1 as _feature_column_v1  # noqa: E402

compat.v1.feature_column = _feature_column_v1
# TF 2.21's tf.compat.v1.keras is the same Keras as tf.keras (its layers are the same objects); the feature-column
# migration guide reaches DenseFeatures through it
compat.v1.keras = keras

# isort: split
# Small namespaces (helper featcol): tf.config's deprecated eager aliases, tf.train's checkpoint options and views,
# tf.types.experimental's function and distributed-value types (tinytf's classes registered under TF's names)
from . import config_deprecated as _config_deprecated  # noqa: E402
from . import function_kinds as _function_kinds  # noqa: E402
from .atomic_function import AtomicFunction as _AtomicFunction  # noqa: E402
from .distribute.mirrored_variable import MirroredVariable as _MirroredVariable  # noqa: E402
from .distribute.values import PerReplica as _PerReplica  # noqa: E402
from .function_type import FunctionType as _FunctionType  # noqa: E402
from .train.checkpoint_options import CheckpointOptions as _CheckpointOptions  # noqa: E402
from .train.views import CheckpointView as _CheckpointView  # noqa: E402
from .train.views import TrackableView as _TrackableView  # noqa: E402

config.experimental_run_functions_eagerly = _config_deprecated.experimental_run_functions_eagerly
config.experimental_functions_run_eagerly = _config_deprecated.experimental_functions_run_eagerly
train.CheckpointOptions, train.CheckpointView, train.TrackableView = _CheckpointOptions, _CheckpointView, _TrackableView
_function_kinds.register(ConcreteFunction, Function, _FunctionType, mirrored=[_MirroredVariable],
                         per_replica=[_PerReplica], atomic=_AtomicFunction)
for _name in ("Callable", "ConcreteFunction", "PolymorphicFunction", "GenericFunction", "FunctionType",
              "AtomicFunction"):
    setattr(types.experimental, _name, getattr(_function_kinds, _name))
types.experimental.TensorLike = _function_kinds.tensor_like(Tensor)
types.experimental.distributed = _function_kinds.distributed_namespace()
del _name

# isort: split
# Top-level leftovers of TF 2.21 (issue 11's breadth, helper toplvl): device specs, critical sections,
# variable creators, tensor protos, conversions, and ops TF also exports at the top
from . import random_experimental as _random_experimental  # noqa: E402
from .aggregation_method import AggregationMethod  # noqa: E402,F401
from .approx_top_k import approx_top_k  # noqa: E402,F401
from .critical_section import CriticalSection  # noqa: E402,F401
from .device_spec import DeviceSpec  # noqa: E402,F401
from .edit_distance import edit_distance  # noqa: E402,F401
from .linalg import eig, eigvals  # noqa: E402,F401
from .linalg import sqrtm as matrix_square_root  # noqa: E402,F401
from .random_index_shuffle import random_index_shuffle  # noqa: E402,F401
from .runtime.ops.debugging import Assert  # noqa: E402,F401
from .runtime.ops.guarantee_const import guarantee_const  # noqa: E402,F401
from .tensor_conversion import register_tensor_conversion_function  # noqa: E402,F401
from .tensor_proto import make_ndarray, make_tensor_proto  # noqa: E402,F401
from .variable_creator import variable_creator_scope  # noqa: E402,F401
from .volume_patches import extract_volume_patches  # noqa: E402,F401

random.experimental = _random_experimental  # tf.random.experimental (index_shuffle and TF's aliases)

# isort: split
# Top-level leftovers of TF 2.21, second part (issue 11's breadth, helper toplvl2): quantized dtypes, tf.TypeSpec and
# the specs TF exports beside it, gradients registered by op type, tf.Operation, tf.import_graph_def, tf.conv
from . import operation_attrs as _operation_attrs  # noqa: E402,F401  (Operation.node_def and get_attr)
from .compat.v1.ops import Operation  # noqa: E402,F401  (the class of graph.get_operations()' items)
from .conv_generic import conv  # noqa: E402,F401
from .gradient_registry import RegisterGradient, no_gradient  # noqa: E402,F401
from .none_tensor import NoneTensorSpec  # noqa: E402,F401
from .optional_spec import OptionalSpec  # noqa: E402,F401
from .quantization import quantized_nn as _quantized_nn  # noqa: E402
from .quantization.quantized_types import quantize_v2 as _quantize_v2  # noqa: E402
from .runtime.ops.sobol import sobol_sample as _sobol_sample  # noqa: E402
from .tensor_array_spec import TensorArraySpec  # noqa: E402,F401
from .type_spec_base import TypeSpec  # noqa: E402,F401

qint8, quint8, qint16, quint16, qint32 = _dtypes.qint8, _dtypes.quint8, _dtypes.qint16, _dtypes.quint16, _dtypes.qint32
import_graph_def = graph_util.import_graph_def  # tf.import_graph_def is tf.graph_util.import_graph_def in TF 2.21
compat.v1.quantize_v2 = _quantize_v2  # TF1's name (deprecated in TF 2.21, its order of arguments)
math.sobol_sample = _sobol_sample
for _name in ("quantized_avg_pool", "quantized_conv2d", "quantized_max_pool"):  # TF1's quantized nn ops
    setattr(compat.v1.nn, _name, getattr(_quantized_nn, _name))
del _name

# isort: split
# TF 2.21 leftovers, third part (helper gapsa): compat's text helpers, config's execution switches, narrow
# dtypes, DLPack, traceback filtering, the placement log (tinytf/toplevel_gaps.py installs them)
from . import toplevel_gaps as _toplevel_gaps  # noqa: E402

_toplevel_gaps.install(_sys.modules[__name__])
