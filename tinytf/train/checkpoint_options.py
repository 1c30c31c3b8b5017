"""tf.train.CheckpointOptions: the options Checkpoint.save / write / read / restore take.

tinytf accepts TF 2.21's options and keeps them on the object, with TF's checks. Their effects: a checkpoint is
always written and read on the host CPU here (the only device), so `experimental_io_device` names where I/O
happens only in TF's multi-device setups; `enable_async` saves synchronously (the file is complete when save
returns, which is what TF's async save guarantees after `sync()`); the write callbacks run after each write, with
the path written; `experimental_skip_slot_variables` is kept (tinytf's optimizers save their slots as variables
of their own objects either way); a tf.train.experimental.ShardingCallback is accepted (anything else is TF's
ValueError) and tinytf writes the checkpoint as a single shard all the same.
"""

from __future__ import annotations

import inspect


class CheckpointOptions:
    """Options for tf.train.Checkpoint (TF 2.21's constructor and attributes)."""

    __slots__ = ("experimental_io_device", "experimental_enable_async_checkpoint", "experimental_write_callbacks",
                 "enable_async", "experimental_sharding_callback", "experimental_skip_slot_variables")

    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False, experimental_skip_slot_variables=False,
                 experimental_sharding_callback=None):
        self.experimental_io_device = experimental_io_device
        self.enable_async = bool(experimental_enable_async_checkpoint or enable_async)
        self.experimental_enable_async_checkpoint = self.enable_async
        if experimental_write_callbacks is not None:
            for callback in experimental_write_callbacks:
                # TF asserts each callback takes the saved path or nothing
                assert len(inspect.signature(callback).parameters) <= 1
        self.experimental_write_callbacks = experimental_write_callbacks
        from .experimental import ShardingCallback

        if experimental_sharding_callback is not None and not isinstance(experimental_sharding_callback,
                                                                         ShardingCallback):
            raise ValueError(f"The experimental_sharding_callback checkpoint optionmust be of type ShardingCallback. "
                             f"The option providedwas of type {type(experimental_sharding_callback)}.")
        self.experimental_sharding_callback = experimental_sharding_callback
        self.experimental_skip_slot_variables = experimental_skip_slot_variables

    def __copy__(self):
        result = CheckpointOptions.__new__(CheckpointOptions)
        for name in self.__slots__:
            setattr(result, name, getattr(self, name))
        return result


def run_write_callbacks(options, save_path: str) -> None:
    """Call each of `options.experimental_write_callbacks` after a write: with the path when it takes one."""
    callbacks = getattr(options, "experimental_write_callbacks", None) or []
    for callback in callbacks:
        if len(inspect.signature(callback).parameters) == 1:
            callback(save_path)
        else:
            callback()
