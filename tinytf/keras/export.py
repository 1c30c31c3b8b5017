"""`model.export(path)` (Keras 3's ExportArchive in its default form) and the signature
`tf.saved_model.save(model, path)` gives a Keras model: one tf.function, `serve`, calling the model in
inference mode on a batch of its inputs, saved with the lists `variables`, `trainable_variables`,
`non_trainable_variables` and `_all_variables` and the signatures `serve` and `serving_default`."""

from __future__ import annotations

import inspect

from tinytf.runtime import nest

from ..function import Function
from ..tensor_spec import TensorSpec


def input_signature(model, name="keras_tensor") -> list:
    """[TensorSpec] of the model's input(s), batch dimension open; the model must have been built."""
    shape = None
    try:
        shape = model.input_shape
    except (AttributeError, ValueError, TypeError):
        shape = getattr(model, "_build_input_shape", None)
    if shape is None:
        raise ValueError("The model provided has never called. It must be called at least once before export.")
    dtype = getattr(model, "compute_dtype", None) or "float32"
    try:  # a Functional model's inputs keep their own dtypes (a StringLookup's string input), as Keras 3's
        input_dtypes = [getattr(x, "dtype", None) for x in (model.inputs or [])]  # make_input_spec uses
    except (AttributeError, ValueError, TypeError):
        input_dtypes = []

    def spec(s, index):
        own = input_dtypes[index] if index < len(input_dtypes) and input_dtypes[index] is not None else dtype
        return TensorSpec((None,) + tuple(s)[1:], own, name if index == 0 else f"{name}_{index}")

    if isinstance(shape, tuple) and all(isinstance(d, int) or d is None for d in shape):
        return [spec(shape, 0)]
    return [[spec(s, i) for i, s in enumerate(nest.flatten(shape, expand_composites=False)
                                              if not isinstance(shape, (list, tuple)) else shape)]]


model_input_signature = input_signature  # (export_model's argument of that name shadows it)


def serving_function(model, name="keras_tensor") -> Function:
    """The model's inference call as a tf.function with the model's input signature."""

    def serve(args_0):
        return model(args_0, training=False)

    return Function(serve, name="serve", input_signature=input_signature(model, name))


class _ExportedObject:
    """The root object an ExportArchive writes: its variable lists (Keras' names), its endpoints as tf.function
    attributes, its variable collections, in the order Keras' AutoTrackable holds them."""

    def __init__(self):
        self.variables: list = []
        self.trainable_variables: list = []
        self.non_trainable_variables: list = []
        self._collections: list = []  # (name, [variables]) in the order they were added
        self._all_variables: list = []

    def _checkpoint_children(self):
        return ([("variables", self.variables), ("trainable_variables", self.trainable_variables),
                 ("non_trainable_variables", self.non_trainable_variables)] + list(self._collections)
                + [("_all_variables", self._all_variables)])


def _tensor_spec(spec) -> TensorSpec:
    """keras.InputSpec, a KerasTensor or a TensorSpec as a TensorSpec (Keras' make_tf_tensor_spec)."""
    if isinstance(spec, TensorSpec):
        return spec
    shape = getattr(spec, "shape", None)
    if shape is None:
        raise TypeError(f"Unsupported x={spec} of the type ({type(spec)}). Supported types are: `keras.InputSpec`, "
                        "`keras.KerasTensor` and `backend.Tensor`.")
    dtype = getattr(spec, "dtype", None) or "float32"
    return TensorSpec(tuple(shape), dtype, getattr(spec, "name", None))


class ExportArchive:
    """keras.export.ExportArchive: a SavedModel of chosen endpoints. `track(model_or_layer)` makes its variables
    part of the archive, `add_endpoint(name, fn, input_signature)` adds a tf.function (fn may be a tf.function
    already traced, then no signature is needed), `add_variable_collection(name, variables)` saves a named list,
    `write_out(path)` writes a SavedModel that tf.saved_model.load reads back (endpoints as its methods; the
    first is also `serving_default`)."""

    def __init__(self, format="saved_model"):  # noqa: A002 - Keras' name
        if format != "saved_model":
            raise ValueError(f"Unsupported format: {format}")
        self._endpoint_names: list = []
        self._endpoint_signatures: dict = {}
        self._tf_trackable = _ExportedObject()
        self._tracked: list = []

    @property
    def variables(self):
        return self._tf_trackable.variables

    @property
    def trainable_variables(self):
        return self._tf_trackable.trainable_variables

    @property
    def non_trainable_variables(self):
        return self._tf_trackable.non_trainable_variables

    def track(self, resource) -> None:
        from .layers.layer import Layer

        if isinstance(resource, Layer) and not resource.built:
            raise ValueError("The layer provided has not yet been built. It must be built before export.")
        if not isinstance(resource, Layer):
            from ..train.trackable import is_trackable

            if not is_trackable(resource):
                raise ValueError("Invalid resource type. Expected a Keras `Layer` or `Model` or a TensorFlow "
                                 f"`Trackable` object. Received object {resource} of type '{type(resource)}'. ")
            self._tracked.append(resource)
            return
        self._tracked.append(resource)
        self._tf_trackable.variables += list(resource.variables)
        self._tf_trackable.trainable_variables += list(resource.trainable_variables)
        self._tf_trackable.non_trainable_variables += list(resource.non_trainable_variables)

    def add_endpoint(self, name, fn, input_signature=None, **kwargs):
        """Add `fn` as the endpoint `name` (a tf.function with input_signature, made without AutoGraph as
        Keras makes it); returns that tf.function."""
        if name in self._endpoint_names:
            raise ValueError(f"Endpoint name '{name}' is already taken.")
        if "jax2tf_kwargs" in kwargs or "is_static" in kwargs:
            raise ValueError("'jax2tf_kwargs' and 'is_static' are only supported with the jax backend. Current "
                             "backend: tensorflow")
        if input_signature is None:
            if not isinstance(fn, Function):
                raise ValueError("If the `fn` argument provided is not a `tf.function`, you must provide an "
                                 "`input_signature` argument to specify the shape and dtype of the function "
                                 "arguments. Example:\n\nexport_archive.add_endpoint(\n    name='call',\n    "
                                 "fn=model.call,\n    input_signature=[\n        keras.InputSpec(\n            "
                                 "shape=(None, 224, 224, 3),\n            dtype='float32',\n        )\n    ],\n)")
            if not fn.experimental_get_concrete_functions():
                raise ValueError(f"The provided tf.function '{fn}' has never been called. To specify the expected "
                                 "shape and dtype of the function's arguments, you must either provide a function "
                                 "that has been called at least once, or alternatively pass an `input_signature` "
                                 "argument in `add_endpoint()`.")
            decorated = fn
        else:
            signature = nest.map_structure(_tensor_spec, list(input_signature))
            decorated = Function(_tensor_arguments_only(fn, len(signature)), name=name, input_signature=signature,
                                 autograph=False)
            self._endpoint_signatures[name] = signature
        setattr(self._tf_trackable, name, decorated)
        self._endpoint_names.append(name)
        return decorated

    def track_and_add_endpoint(self, name, resource, input_signature, **kwargs):
        self.track(resource)
        return self.add_endpoint(name, resource.__call__, input_signature, **kwargs)

    def add_variable_collection(self, name, variables) -> None:
        """Save `variables` (a list, tuple or set of tf.Variables) as the archive's attribute `name`."""
        from ..variables import Variable

        if not isinstance(variables, (list, tuple, set)):
            raise ValueError(f"Expected `variables` to be a list/tuple/set. Received instead object of type "
                             f"'{type(variables)}'.")
        if not all(isinstance(v, Variable) for v in variables):
            raise ValueError("Expected all elements in `variables` to be `tf.Variable` instances. Found instead the "
                             f"following types: {list({type(v) for v in variables})}")
        collection = list(variables)
        setattr(self._tf_trackable, name, collection)
        self._tf_trackable._collections = [(n, c) for n, c in self._tf_trackable._collections if n != name]
        self._tf_trackable._collections.append((name, collection))

    def _concrete(self, name):
        fn = getattr(self._tf_trackable, name)
        if name in self._endpoint_signatures:
            return fn.get_concrete_function()
        return fn.experimental_get_concrete_functions()[0]

    def write_out(self, filepath, options=None, verbose=True) -> None:
        """Write the SavedModel; `serving_default` is the first endpoint unless one is named so."""
        from ..saved_model import save
        from .config_logging import print_msg

        if not self._endpoint_names:
            raise ValueError("No endpoints have been set yet. Call add_endpoint().")
        signatures = {name: self._concrete(name) for name in self._endpoint_names}
        if "serving_default" not in self._endpoint_names:
            signatures["serving_default"] = signatures[self._endpoint_names[0]]
        used, seen = [], set()  # the variables the endpoints read: trainable first, as Keras lists them
        for concrete in signatures.values():
            for variable in [v for v in concrete.variables if v.trainable] + list(concrete.variables):
                if id(variable) not in seen:
                    seen.add(id(variable))
                    used.append(variable)
        self._tf_trackable._all_variables = used
        save(self._tf_trackable, filepath, signatures=signatures, options=options)
        if verbose:
            endpoints = "\n\n".join(_endpoint_text(signatures[name], name) for name in self._endpoint_names)
            print_msg(f"Saved artifact at '{filepath}'. The following endpoints are available:\n\n{endpoints}")


def _tensor_arguments_only(fn, count):
    """`fn` called with its first `count` arguments only (the signature's tensors), under their own names: TF
    traces a method like `model.call` with its other arguments (training, mask) left at their defaults, and a
    SavedModel signature takes tensors alone."""
    try:
        parameters = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return fn
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) == len(parameters) == count or len(positional) < count:
        return fn

    def endpoint(*args):
        return fn(*args)

    endpoint.__signature__ = inspect.Signature([p.replace(default=inspect.Parameter.empty)
                                                for p in positional[:count]])
    endpoint.__name__ = getattr(fn, "__name__", "endpoint")
    return endpoint


def _endpoint_text(concrete, name) -> str:
    lines = concrete.pretty_printed_signature(verbose=True).split("\n")
    return "\n".join([f"* Endpoint '{name}'"] + lines[1:])


def export_model(model, filepath, format="tf_saved_model", verbose=True, input_signature=None,
                 **kwargs) -> None:  # noqa: A002 - Keras' name
    """`model.export(filepath)`: a SavedModel whose `serve` runs the model in inference mode (Keras 3's
    export_saved_model: an ExportArchive with the one endpoint)."""
    if format != "tf_saved_model":
        raise ValueError(f"Unrecognized format={format}; tinytf exports format='tf_saved_model'")
    archive = ExportArchive()
    archive.track(model)
    signature = input_signature if input_signature is not None else model_input_signature(model)

    def serve(args_0):
        return model(args_0, training=False)

    archive.add_endpoint("serve", serve, signature)
    archive.write_out(filepath, verbose=verbose)
