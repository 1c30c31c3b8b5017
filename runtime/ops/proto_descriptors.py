"""Where decode_proto / encode_proto find message types, as TF's `descriptor_source`: 'local://' is the
protobuf runtime's default pool (message types whose Python modules are imported), then tinytf's own
tf.train.Example protos (example_proto.py); a `tensorflow.*` name not found there is looked up among
tensorboard's copies of TF's protos (package `tensorboard`, the same fields and numbers). A file path names a
serialized FileDescriptorSet, and 'bytes://' is followed by one; pools built from descriptor sets are cached
by their bytes. google.protobuf is imported only when a proto op runs."""

from __future__ import annotations

import os

from ..errors import InvalidArgumentError, NotFoundError

_POOLS: dict = {}  # serialized FileDescriptorSet -> DescriptorPool
_CLASSES: dict = {}  # (pool id, full name) -> message class


def _pool_from_set(data: bytes):
    pool = _POOLS.get(data)
    if pool is None:
        from google.protobuf import descriptor_pb2, descriptor_pool

        files = descriptor_pb2.FileDescriptorSet.FromString(data)
        pool = descriptor_pool.DescriptorPool()
        for f in files.file:
            pool.Add(f)
        _POOLS[data] = pool
    return pool


def _import_tensorboard_protos() -> None:
    """Register tensorboard's copies of TF's protos (package `tensorboard`) in the default pool."""
    import importlib
    import pkgutil

    try:
        package = importlib.import_module("tensorboard.compat.proto")
    except ImportError:
        return
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.endswith("_pb2"):
            try:
                importlib.import_module(f"{package.__name__}.{info.name}")
            except Exception:  # noqa: BLE001 - a module that fails to import only leaves its types unknown
                pass


def _find_local(name: str):
    from google.protobuf import descriptor_pool

    from .example_proto import _pool as example_pool  # tinytf's own tensorflow.Example & co

    candidates = [(descriptor_pool.Default(), name), (example_pool, name)]
    if name.startswith("tensorflow."):
        candidates.append((descriptor_pool.Default(), "tensorboard." + name[len("tensorflow."):]))
    for attempt in range(2):
        for pool, candidate in candidates:
            try:
                return pool.FindMessageTypeByName(candidate)
            except KeyError:
                pass
        if attempt == 0:
            _import_tensorboard_protos()
    return None


def message_descriptor(message_type: str, descriptor_source):
    """The Descriptor of `message_type` from `descriptor_source`; InvalidArgumentError when it is unknown."""
    source = descriptor_source.decode("utf-8", "surrogateescape") if isinstance(descriptor_source, bytes) \
        else descriptor_source
    if source == "local://":
        descriptor = _find_local(message_type)
    else:
        if isinstance(descriptor_source, bytes) and descriptor_source.startswith(b"bytes://"):
            data = descriptor_source[len(b"bytes://"):]
        elif source.startswith("bytes://"):
            data = source[len("bytes://"):].encode("utf-8", "surrogateescape")
        else:
            if not os.path.exists(source):
                raise NotFoundError(f"{source}; No such file or directory")
            with open(source, "rb") as f:
                data = f.read()
        try:
            descriptor = _pool_from_set(data).FindMessageTypeByName(message_type)
        except KeyError:
            descriptor = None
        except Exception as e:  # noqa: BLE001 - a malformed descriptor set
            raise InvalidArgumentError(f"Unable to parse the FileDescriptorSet of descriptor_source: {e}") from None
    if descriptor is None:
        raise InvalidArgumentError(f"No descriptor found for message type {message_type}")
    return descriptor


def message_class(descriptor):
    key = (id(descriptor.file.pool), descriptor.full_name)
    cls = _CLASSES.get(key)
    if cls is None:
        from google.protobuf import message_factory

        cls = _CLASSES[key] = message_factory.GetMessageClass(descriptor)
    return cls


def field_of(descriptor, name: str):
    field = descriptor.fields_by_name.get(name)
    if field is None:
        raise InvalidArgumentError(f"Unknown field: {name} in message type {descriptor.full_name}")
    return field
