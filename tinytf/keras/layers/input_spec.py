"""InputSpec: what a layer accepts (rank, fixed axis sizes, dtype), checked on every call so a wrong shape
fails at the call with the layer's name instead of deep inside an op."""

from __future__ import annotations

from tinytf.runtime import nest


class InputSpec:
    """The rank (ndim, or min_ndim/max_ndim), fixed axis sizes (axes={-1: 4}), shape and dtype an input needs."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None,
                 allow_last_axis_squeeze=False, name=None, optional=False):
        self.dtype = dtype
        self.shape = None if shape is None else tuple(shape)
        self.ndim = len(self.shape) if self.shape is not None else ndim
        self.max_ndim, self.min_ndim = max_ndim, min_ndim
        self.axes = dict(axes or {})
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        self.name, self.optional = name, optional

    def __repr__(self):
        parts = [f"{k}={v}" for k, v in [("dtype", self.dtype), ("shape", self.shape), ("ndim", self.ndim),
                                         ("max_ndim", self.max_ndim), ("min_ndim", self.min_ndim),
                                         ("axes", self.axes or None)] if v is not None]
        return f"InputSpec({', '.join(parts)})"

    def get_config(self) -> dict:
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim, "max_ndim": self.max_ndim,
                "min_ndim": self.min_ndim, "axes": self.axes}


def _shape_of(x):
    shape = getattr(x, "shape", None)
    if shape is None:
        return None
    return tuple(shape.as_list()) if hasattr(shape, "as_list") else tuple(shape)


def _fmt(shape) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def inputs_by_name(inputs: dict, names: list) -> list:
    """A dict of inputs in the order of the named inputs it feeds (Keras 3 matches a dict to named Inputs)."""
    for name in names:
        if name not in inputs:
            raise ValueError(f'Missing data for input "{name}". You passed a data dictionary with keys '
                             f"{list(inputs)}. Expected the following keys: {names}")
    return [inputs[name] for name in names]


def assert_input_compatibility(input_spec, inputs, layer_name: str) -> None:
    """Raise ValueError naming the layer when `inputs` do not match `input_spec` (a spec or a list of them)."""
    if input_spec is None:
        return
    specs = nest.flatten(input_spec)
    if isinstance(inputs, dict) and isinstance(input_spec, dict):  # Keras 3 names a dict's specs by its keys:
        inputs = inputs_by_name(inputs, sorted(input_spec))  # extra entries are not checked (Functional warns)
    elif isinstance(inputs, dict) and specs and all(getattr(spec, "name", None) for spec in specs):
        inputs = inputs_by_name(inputs, [spec.name for spec in specs])
    flat = nest.flatten(inputs)
    if len(flat) != len(specs):
        raise ValueError(f"Layer '{layer_name}' expects {len(specs)} input(s), but it received {len(flat)} "
                         f"input tensors. Inputs received: {inputs}")
    for index, (x, spec) in enumerate(zip(flat, specs)):
        if spec is None:
            continue
        shape = _shape_of(x)
        if shape is None:
            continue
        where = f"Input {index} with name '{spec.name}' of layer '{layer_name}' is incompatible with the layer:"
        ndim = len(shape)
        if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
            raise ValueError(f"{where} expected ndim={spec.ndim}, found ndim={ndim}. Full shape received: "
                             f"{_fmt(shape)}")
        if spec.max_ndim is not None and ndim > spec.max_ndim:
            raise ValueError(f"{where} expected max_ndim={spec.max_ndim}, found ndim={ndim}")
        if spec.min_ndim is not None and ndim < spec.min_ndim:
            raise ValueError(f"{where} expected min_ndim={spec.min_ndim}, found ndim={ndim}. Full shape received: "
                             f"{_fmt(shape)}")
        if spec.dtype is not None and getattr(x.dtype, "name", x.dtype) != spec.dtype:
            raise ValueError(f"{where} expected dtype={spec.dtype}, found dtype={getattr(x.dtype, 'name', x.dtype)}")
        for axis, value in spec.axes.items():
            if value is None:
                continue
            if -ndim <= axis < ndim and shape[axis] not in (value, None):
                raise ValueError(f"{where} expected axis {axis} of input shape to have value {value}, but "
                                 f"received input with shape {_fmt(shape)}")
        if spec.shape is not None:
            for want, got in zip(spec.shape, shape):
                if want is not None and got is not None and want != got:
                    raise ValueError(f"{where} expected shape={spec.shape}, found shape={_fmt(shape)}")
