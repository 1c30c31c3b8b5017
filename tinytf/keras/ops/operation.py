"""keras.Operation, and the Operations keras.ops functions become on KerasTensors, as Keras 3 makes them: `x * 2`
or `keras.ops.concatenate([a, b])` in a Functional model records a node of an Operation named like Keras' class
(`Multiply` "multiply", `Concatenate` "concatenate"). Operations are not layers: a Functional model lists them in
`model.operations` and its summary and config, never in `model.layers` nor in its weights files."""

from __future__ import annotations

import inspect

from .. import naming
from ..models.functional import is_symbolic, symbolic_call
from .operation_classes import OPERATIONS
from .operation_configs import CONFIG_RULES, CONSTRUCTOR_DEFAULTS, UNNAMED_CONFIGS


class Operation:
    """A stateless computation that can be a node of a Functional model (keras.Operation)."""

    def __init__(self, name=None):
        if name is None:
            name = naming.unique_name(naming.snake_case(type(self).__name__))
        if not isinstance(name, str) or "/" in name:
            raise ValueError(f"Argument `name` must be a string and cannot contain character `/`. Received: "
                             f"name={name} (of type {type(name)})")
        self.name = name
        self._inbound_nodes: list = []
        self._outbound_nodes: list = []

    def __call__(self, *args, **kwargs):
        if is_symbolic((args, kwargs)):
            return self.symbolic_call(*args, **kwargs)
        return self.call(*args, **kwargs)

    def symbolic_call(self, *args, **kwargs):
        """Infer the outputs on KerasTensors and record the call as a node of the graph."""
        return symbolic_call(self, args, kwargs)

    def call(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__}.call() is not implemented")

    def get_config(self) -> dict:
        return {"name": self.name}

    @classmethod
    def from_config(cls, config: dict):
        try:
            return cls(**config)
        except Exception as e:
            raise TypeError(f"Error when deserializing class '{cls.__name__}' using config={config}.\n\n"
                            f"Exception encountered: {e}") from None

    def _first_node(self, attribute: str, what: str):
        if not self._inbound_nodes:
            raise AttributeError(f"The layer {self.name} has never been called and thus has no defined {what}.")
        node = self._inbound_nodes[0]
        tensors = node.input_tensors if attribute == "input" else node.output_tensors
        return tensors[0] if len(tensors) == 1 else list(tensors)

    @property
    def input(self):
        return self._first_node("input", "input")

    @property
    def output(self):
        return self._first_node("output", "output")

    def __repr__(self):
        return f"<Operation name={self.name}>"


class FunctionOperation(Operation):
    """The Operation of one keras.ops function. Its constructor arguments (its config) and call arguments split
    the function's arguments as Keras' class does; `_call_arguments` None passes every argument through. A call
    argument "*name" takes the remaining positional arguments, "name=" comes by keyword (as in the node Keras
    records: `Pad(pad_width, mode)(x, constant_values=...)`)."""

    _function = None
    _function_name = ""
    _keras_module = "keras.src.ops.numpy"
    _constructor_arguments: tuple = ()
    _call_arguments: tuple | None = None

    def __init__(self, name=None, **config):
        super().__init__(name)
        if self._call_arguments is None and config:
            raise ValueError(f"Cannot rebuild the operation {type(self).__name__} from its config {config}: "
                             f"this implementation takes its arguments as call arguments")
        unknown = set(config) - set(self._constructor_arguments)
        if unknown:
            raise TypeError(f"{type(self).__name__}.__init__() got unexpected arguments {sorted(unknown)}")
        rule = CONFIG_RULES.get(self._function_name)
        self._config = rule(config) if rule is not None else config

    def call(self, *args, **kwargs):
        function = type(self)._function
        if self._call_arguments is None:
            return function(*args, **kwargs)
        values, rest = dict(kwargs), list(args)
        for spec in self._call_arguments:
            if spec.startswith("*"):
                values[spec[1:]], rest = tuple(rest), []
            elif not spec.endswith("=") and rest:
                values[spec] = rest.pop(0)
        if rest:
            raise TypeError(f"{type(self).__name__}.call() got {len(args)} positional arguments, more than its "
                            f"{[s for s in self._call_arguments if not s.endswith('=')]}")
        values.update(self._config)
        return _call_by_signature(function, values)

    def get_config(self) -> dict:
        if self._function_name in UNNAMED_CONFIGS:  # Keras' class writes its own config, without the name
            return dict(self._config)
        return {"name": self.name, **self._config}


def _call_by_signature(function, values: dict):
    """function(**values), where the parameters before a *args parameter (and it) are passed positionally."""
    parameters = list(inspect.signature(function).parameters.values())
    if not any(p.kind is p.VAR_POSITIONAL for p in parameters):
        return function(**values)
    positional, keywords = [], dict(values)
    for p in parameters:
        if p.kind is p.VAR_POSITIONAL:
            positional.extend(keywords.pop(p.name, ()))
            break
        positional.append(keywords.pop(p.name, p.default))
    return function(*positional, **keywords)


_CLASSES: dict = {}  # function name -> its FunctionOperation subclass


def _camel_case(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def operation_class(function, name: str):
    """The Operation class of the keras.ops function `function` published as `name` (made once)."""
    cls = _CLASSES.get(name)
    if cls is not None:
        return cls
    module, class_name, constructor, call = OPERATIONS.get(name, ("numpy", _camel_case(name), None, None))
    if call is not None and not _matches(function, constructor, call):
        constructor, call = (), None  # this function's arguments differ from Keras': pass them through
    cls = type(class_name, (FunctionOperation,), {
        "__doc__": f"The Operation of keras.ops.{name} (Keras' keras.src.ops.{module}.{class_name}).",
        "__qualname__": class_name, "_function": staticmethod(function), "_function_name": name,
        "_keras_module": f"keras.src.ops.{module}",
        "_constructor_arguments": tuple(constructor or ()), "_call_arguments": None if call is None else tuple(call)})
    _CLASSES[name] = cls
    return cls


def _argument_name(spec: str) -> str:
    return spec.strip("*=")


def _matches(function, constructor, call) -> bool:
    """Whether `function` takes exactly the arguments of Keras' split (a **kwargs may hold constructor ones)."""
    parameters = inspect.signature(function).parameters.values()
    named = {p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    variadic = {p.name for p in parameters if p.kind is p.VAR_POSITIONAL}
    expected = set(constructor) | {_argument_name(s) for s in call if not s.startswith("*")}
    starred = {_argument_name(s) for s in call if s.startswith("*")}
    spare = expected - named
    takes_kwargs = any(p.kind is p.VAR_KEYWORD for p in parameters)
    return variadic == starred and not named - expected and (not spare or (takes_kwargs and spare <= set(
        constructor)))


def _bind(function, args, kwargs) -> dict:
    """The function's arguments by name, with defaults, a **kwargs parameter's entries flattened in."""
    bound = inspect.signature(function).bind(*args, **kwargs)
    bound.apply_defaults()
    arguments = dict(bound.arguments)
    for p in inspect.signature(function).parameters.values():
        if p.kind is p.VAR_KEYWORD:
            arguments.update(arguments.pop(p.name, {}))
    return arguments


def operation_class_by_keras_name(module: str, class_name: str):
    """The Operation class a Keras config names ("keras.src.ops.numpy", "Multiply"), or None."""
    from .. import activations, ops

    if module == "keras.src.activations.activations":  # keras.activations.relu's own Operation
        return activations.ReLU if class_name == "ReLU" else None

    for name, (keras_module, keras_class, _, _) in OPERATIONS.items():
        if keras_class == class_name and module == f"keras.src.ops.{keras_module}":
            for namespace in (ops, ops.image, ops.linalg):
                function = getattr(namespace, name, None)
                if function is not None:
                    return operation_class(getattr(function, "__wrapped__", function), name)
    return next((c for c in _CLASSES.values() if c.__name__ == class_name and c._keras_module == module), None)


def call_symbolically(function, name: str, args, kwargs):
    """`function(*args, **kwargs)` on KerasTensors: a new Operation of its class, called on them."""
    cls = operation_class(function, name)
    if cls._call_arguments is None:
        return cls()(*args, **kwargs)
    arguments = {**CONSTRUCTOR_DEFAULTS.get(name, {}), **_bind(function, args, kwargs)}
    config = {k: arguments[k] for k in cls._constructor_arguments if k in arguments}
    if is_symbolic(config):  # a KerasTensor where Keras expects a constant: every argument a call argument
        return _pass_through(cls)()(*args, **kwargs)
    positional, keywords = [], {}
    for spec in cls._call_arguments:
        if spec.startswith("*"):
            positional.extend(arguments[spec[1:]])
        elif spec.endswith("="):
            keywords[spec[:-1]] = arguments[spec[:-1]]
        else:
            positional.append(arguments[spec])
    return cls(**config).symbolic_call(*positional, **keywords)


def _pass_through(cls):
    """`cls` taking all of its function's arguments when called (made once per class)."""
    key = ("pass through", cls)
    if key not in _CLASSES:
        _CLASSES[key] = type(cls.__name__, (cls,), {"_constructor_arguments": (), "_call_arguments": None})
    return _CLASSES[key]
