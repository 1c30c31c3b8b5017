"""keras.remat and keras.RematScope. `remat(f)` is tf.recompute_grad(f) (what Keras' TensorFlow backend makes
of it): the same values and gradients, the forward pass run again in the backward one instead of keeping its
intermediates. `RematScope(mode=...)` is accepted and kept as Keras keeps it (a stack of scopes,
`get_current_remat_mode()`), but tinytf's layers do not consult it: inside one, layers run without
rematerialization, which gives the same numbers (only Keras' memory use differs)."""

from __future__ import annotations

from collections import namedtuple

RematMode = namedtuple("RematMode", ["mode", "output_size_threshold", "layer_names"])
_stack: list = []


class RematScope:
    def __init__(self, mode="full", output_size_threshold=1024, layer_names=None):
        if mode not in {"full", "activations", "larger_than", "list_of_layers", None}:
            raise ValueError(f"Invalid mode '{mode}'. Supported modes are: 'full', 'activations', 'larger_than', "
                             "'list_of_layers', or  None.")
        self.mode = mode
        self.output_size_threshold = output_size_threshold
        self.layer_names = layer_names or []
        self._pop_on_exit = False

    def __enter__(self):
        _stack.append(self)
        self._pop_on_exit = True
        return self

    def __exit__(self, *args, **kwargs):
        if self._pop_on_exit:
            _stack.pop()


def get_current_remat_mode():
    """The innermost RematScope's settings, or None outside any."""
    if not _stack:
        return None
    scope = _stack[-1]
    return RematMode(scope.mode, scope.output_size_threshold, scope.layer_names)


def remat(f):
    """f with its gradient computed by running f again (tf.recompute_grad)."""
    import tinytf as tf

    return tf.recompute_grad(f)
