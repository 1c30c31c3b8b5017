"""tf.distribute.experimental.rpc: a Server that serves registered tf.functions to Clients over the network,
with TF's API (Server.create / register / start, Client.create / call and one method per registered function,
StatusOrResult). TF speaks gRPC; tinytf speaks its own small protocol over TCP (length-prefixed pickled
messages, like MultiWorkerMirroredStrategy's workers: peers are trusted, as TF's unauthenticated gRPC
servers are), so a tinytf client talks to a tinytf server only. rpc_layer must be "grpc", as in TF.

- The server runs each call's concrete function on the arguments' values in a thread of its own (one per
  connection) and sends back the flat outputs, or the error's TF code and message: a method that is not
  registered, arguments that do not fit, and any error the function raises come back as a failed status
  (TF's codes: INVALID_ARGUMENT for the first two), never as an exception in the server.
- A client lists the server's methods when it is made (eagerly, as TF's) and gets `client.<method>(*args)`
  (a StatusOrResult) and `client.<method>_blocking(*args)` (the value, or the error raised) for each.
- Unreachable servers: with timeout_in_ms > 0, Client.create raises DeadlineExceededError after it; with 0 it
  keeps trying (TF's default also waits).
- tinytf-specific: `server.stop()` and `client.close()` end the listening thread and connections (TF's end
  when the objects are garbage-collected; so do these)."""

from __future__ import annotations

import pickle
import socket
import struct
import threading
import time

import numpy as np

_HEADER = struct.Struct("!Q")
_INVALID_ARGUMENT, _UNKNOWN, _DEADLINE_EXCEEDED, _UNAVAILABLE = 3, 2, 4, 14


def _send(conn, obj) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    conn.sendall(_HEADER.pack(len(data)) + data)


def _receive(conn):
    size = _HEADER.unpack(_read(conn, _HEADER.size))[0]
    return pickle.loads(_read(conn, size))


def _read(conn, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = conn.recv(min(left, 1 << 20))
        if not chunk:
            raise ConnectionError("the peer closed the connection")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _split_address(address: str):
    host, _, port = address.split("://", 1)[-1].rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"rpc: an address must be host:port, got {address!r}")
    return host, int(port)


def _error_class(code: int):
    import tinytf as tf

    for name in dir(tf.errors):
        cls = getattr(tf.errors, name)
        if isinstance(cls, type) and issubclass(cls, tf.errors.OpError) and cls is not tf.errors.OpError \
                and cls.error_code == code:
            return cls
    return tf.errors.UnknownError


def _eager_only(what: str) -> None:
    import tinytf as tf

    if not tf.executing_eagerly():
        raise NotImplementedError(what)


class Server:
    """tf.distribute.experimental.rpc.Server: make one with Server.create(rpc_layer, address)."""

    @staticmethod
    def create(rpc_layer, address):
        if rpc_layer != "grpc":
            raise ValueError("Only GRPC backend is supported at the moment.")
        return GrpcServer(address)

    def register(self, method_name, func):
        raise NotImplementedError("Please use create_server method to create aconcrete subclass of Server.")

    def start(self):
        raise NotImplementedError("Please use create_server method to create aconcrete subclass of Server.")


class GrpcServer(Server):
    def __init__(self, address: str):
        _eager_only("Please create the server outside tf.function.")
        self._address = _split_address(address)
        self._methods: dict = {}  # name -> (concrete function, input specs, output specs)
        self._listener = None
        self._threads: list = []
        self._connections: list = []
        self._stopping = threading.Event()

    def register(self, method_name: str, func):
        from tinytf.concrete_function import ConcreteFunction
        from tinytf.function import Function

        if isinstance(func, Function):
            import inspect

            if inspect.signature(func.python_function).parameters and func.input_signature is None:
                raise ValueError("Input signature not specified for the function.")
            func = func.get_concrete_function()
        elif not isinstance(func, ConcreteFunction):
            raise ValueError("Only TF functions are supported with Register method")
        self._methods[method_name] = (func, func.structured_input_signature[0], _output_specs(func))

    def start(self):
        """Listen at the address; calls are served from then on (in background threads)."""
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(self._address)
        listener.listen(16)
        listener.settimeout(0.2)  # so that stop() is noticed
        self._listener = listener
        self._spawn(self._accept, "rpc-server-accept")

    def _spawn(self, target, name, *args):
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    def _accept(self):
        while not self._stopping.is_set():
            try:
                conn, _ = self._listener.accept()
            except (socket.timeout, OSError):
                continue
            conn.settimeout(None)
            self._connections.append(conn)
            self._spawn(self._serve, "rpc-server-connection", conn)

    def _serve(self, conn):
        try:
            while not self._stopping.is_set():
                request = _receive(conn)
                if request[0] == "list":
                    _send(conn, [(name, specs[1], specs[2]) for name, specs in self._methods.items()])
                else:
                    _send(conn, self._call(*request[1:]))
        except (ConnectionError, OSError, EOFError):
            pass
        finally:
            conn.close()

    def _call(self, method_name, flat_args):
        import tinytf as tf
        from tinytf.runtime import nest

        entry = self._methods.get(method_name)
        if entry is None:
            return ("error", _INVALID_ARGUMENT, f"{method_name} is not registered.")
        function, input_specs, _ = entry
        expected = len(nest.flatten(input_specs))
        if len(flat_args) != expected:
            return ("error", _INVALID_ARGUMENT, f"{method_name} takes {expected} argument tensors, "
                                                f"{len(flat_args)} given")
        try:
            args = nest.pack_sequence_as(input_specs, [tf.convert_to_tensor(a) for a in flat_args])
            outputs = function(*args)
            return ("ok", [np.asarray(t.numpy()) for t in nest.flatten(outputs) if t is not None])
        except Exception as error:  # noqa: BLE001 - the caller gets it as a status, as TF's server sends it
            return ("error", getattr(error, "error_code", _UNKNOWN), f"{type(error).__name__}: {error}")

    def stop(self):
        """End serving: the listening thread, the connections and their threads (tinytf-specific)."""
        self._stopping.set()
        for conn in self._connections:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        for thread in self._threads:
            thread.join(5)
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        self._threads, self._connections = [], []

    def __del__(self):
        if getattr(self, "_threads", None):
            self.stop()


def _output_specs(concrete):
    import tinytf as tf
    from tinytf.runtime import nest

    outputs = concrete.structured_outputs
    if outputs is None:
        return None
    return nest.map_structure(lambda t: tf.TensorSpec(t.shape, t.dtype), outputs)


class Client:
    """tf.distribute.experimental.rpc.Client: make one with Client.create(rpc_layer, address, ...)."""

    @staticmethod
    def create(rpc_layer, address, name="", timeout_in_ms=0):
        if rpc_layer != "grpc":
            raise ValueError("Only GRPC backend is supported at the moment.")
        return GrpcClient(address, name, timeout_in_ms=timeout_in_ms)

    def call(self, method_name, args=None, output_specs=None, timeout_in_ms=0):
        raise NotImplementedError("Must be implemented in inherited classes.")


class GrpcClient(Client):
    def __init__(self, address: str, name: str = "", list_registered_methods=True, timeout_in_ms=0):
        _eager_only("Client creation is supported only in eager mode.")
        self._server_address, self._name = address, name
        self._lock = threading.Lock()  # one request at a time on the connection
        self._conn = self._connect(_split_address(address), timeout_in_ms)
        self._method_registry = {}
        with self._lock:
            _send(self._conn, ("list",))
            methods = _receive(self._conn)
        for method, input_specs, output_specs in methods:
            self._method_registry[method] = output_specs
            self._add_method(method, output_specs, input_specs)

    @staticmethod
    def _connect(address, timeout_in_ms):
        from tinytf.runtime.errors import DeadlineExceededError

        deadline = time.monotonic() + timeout_in_ms / 1000 if timeout_in_ms else None
        while True:
            try:
                conn = socket.create_connection(address, timeout=1.0)
                conn.settimeout(None)
                return conn
            except OSError:
                if deadline is not None and time.monotonic() >= deadline:
                    raise DeadlineExceededError(None, None, f"Deadline Exceeded: no rpc server at "
                                                            f"{address[0]}:{address[1]}") from None
                time.sleep(0.05)

    def _add_method(self, method_name, output_specs, input_specs):
        from tinytf.runtime import nest

        def flat_inputs(*args):
            if input_specs:
                nest.assert_same_structure(args, input_specs)
            return nest.flatten(args)

        def call_wrapper(*args, timeout_in_ms=0):
            return self._request(method_name, flat_inputs(*args), output_specs, timeout_in_ms)

        def call_blocking_wrapper(*args, timeout_in_ms=0):
            result = call_wrapper(*args, timeout_in_ms=timeout_in_ms)
            if bool(result.is_ok()):
                return result.get_value()
            code, message = result.get_error()
            raise _error_class(int(code))(None, None, message.numpy().decode())

        doc = f"RPC Call for {method_name} method to server {self._server_address}"
        call_wrapper.__doc__ = call_blocking_wrapper.__doc__ = doc
        setattr(self, method_name, call_wrapper)
        setattr(self, method_name + "_blocking", call_blocking_wrapper)

    def call(self, method_name, args=None, output_specs=None, timeout_in_ms=0):
        """Run the server's `method_name` on `args` (a list of tensors, flattened): a StatusOrResult whose
        get_value() packs the outputs into `output_specs`."""
        from tinytf.runtime import nest

        return self._request(method_name, nest.flatten(args if args is not None else []), output_specs,
                             timeout_in_ms)

    def _request(self, method_name, flat_args, output_specs, timeout_in_ms):
        values = [np.asarray(a.numpy() if hasattr(a, "numpy") else a) for a in flat_args]
        with self._lock:
            try:
                self._conn.settimeout(timeout_in_ms / 1000 if timeout_in_ms else None)
                _send(self._conn, ("call", method_name, values))
                answer = _receive(self._conn)
            except socket.timeout:
                answer = ("error", _DEADLINE_EXCEEDED, "Deadline Exceeded")
                self._conn.close()  # the late answer must not be read as the next call's
            except (ConnectionError, OSError) as error:
                answer = ("error", _UNAVAILABLE, f"the rpc server {self._server_address} is unavailable: {error}")
        return StatusOrResult(answer, output_specs)

    def close(self):
        """Close the connection to the server (tinytf-specific)."""
        self._conn.close()

    def __del__(self):
        try:
            self._conn.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


class StatusOrResult:
    """An RPC's outcome: is_ok(), get_error() -> (int64 code, string message), get_value()."""

    def __init__(self, answer, output_specs=None):
        self._answer, self._output_specs = answer, output_specs

    def is_ok(self):
        import tinytf as tf

        return tf.constant(self._answer[0] == "ok")

    def get_error(self):
        import tinytf as tf

        if self._answer[0] == "ok":
            return tf.constant(0, tf.int64), tf.constant(b"")
        return tf.constant(self._answer[1], tf.int64), tf.constant(self._answer[2].encode())

    def get_value(self):
        """The outputs packed as output_specs (None when it is None); a failed call raises its error."""
        import tinytf as tf
        from tinytf.none_tensor import NoneTensorSpec
        from tinytf.runtime import nest

        if self._answer[0] != "ok":
            raise _error_class(self._answer[1])(None, None, self._answer[2])
        outputs = self._answer[1]
        specs = [] if self._output_specs is None or isinstance(self._output_specs, NoneTensorSpec) else \
            nest.flatten(self._output_specs)
        if len(specs) != len(outputs):
            raise tf.errors.InvalidArgumentError(None, None, f"Incorrect number of output types specified."
                                                             f"{len(specs)} {len(outputs)}")
        if not specs:
            return None
        return nest.pack_sequence_as(self._output_specs, [tf.constant(v, s.dtype) for v, s in zip(outputs, specs)])
