"""tf.nn.RNNCellDropoutWrapper, RNNCellResidualWrapper, RNNCellDeviceWrapper: TF 2's wrappers (TF's
rnn_cell_wrapper_v2) around a Keras RNN cell (tf.keras.layers.SimpleRNNCell, LSTMCell, GRUCell) or a TF1 cell.
They do what tf.compat.v1.nn.rnn_cell's wrappers do (dropout on inputs/state/outputs with TF's per-tensor seeds,
input + output, a device scope) and differ in what they wrap and how they call it: a Keras cell takes
(inputs, states) and returns (output, new states) without TF1's `scope`."""

from __future__ import annotations

from .compat.v1 import rnn_cell


class _V2:
    def _check_cell(self, cell) -> None:
        if not (hasattr(cell, "state_size") and callable(cell)):
            raise TypeError(f"The argument 'cell' ({cell}) is not an RNNCell: 'state_size' property is missing, "
                            "is not callable.")

    @property
    def output_size(self):
        size = getattr(self.cell, "output_size", None)
        return size if size is not None else self.cell.units

    def __call__(self, inputs, state, **kwargs):
        kwargs.pop("scope", None)
        return self._call_wrapped_cell(inputs, state, self.cell.__call__, **kwargs)

    def call(self, inputs, state, **kwargs):
        return self(inputs, state, **kwargs)

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        if hasattr(self.cell, "get_initial_state"):
            try:
                return self.cell.get_initial_state(batch_size=batch_size)
            except TypeError:
                return self.cell.get_initial_state(inputs=inputs, batch_size=batch_size, dtype=dtype)
        return self.cell.zero_state(batch_size, dtype)

    def get_config(self) -> dict:
        return {"cell": {"class_name": type(self.cell).__name__, "config": self.cell.get_config()}}


class RNNCellDropoutWrapper(_V2, rnn_cell.DropoutWrapper):
    """Dropout on a cell's inputs, outputs and state (keep probabilities, as TF1's DropoutWrapper)."""


class RNNCellResidualWrapper(_V2, rnn_cell.ResidualWrapper):
    """output = inputs + the cell's output (or residual_fn(inputs, outputs)); the state passes unchanged."""


class RNNCellDeviceWrapper(_V2, rnn_cell.DeviceWrapper):
    """Runs the cell under tf.device(device) (every device is the host CPU in tinytf)."""
