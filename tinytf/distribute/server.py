"""tf.distribute.Server (also tf.train.Server): a task of a cluster that listens at its address and does what the
other tasks ask of it. tinytf's server speaks its own small protocol over TCP (length-prefixed pickles, as
socket_collective.py; peers are trusted, as TF's unauthenticated gRPC):

- ("ping",): the server is up (a ClusterCoordinator checks every task before it starts);
- ("run", payload): run a function and answer its result (numpy values) or its error (class and message).
  The payload is either the pickled (function, args, kwargs), which any process can run (module-level
  functions on numpy values), or the number of a closure this process registered (`register_closure`): a
  coordinator's step functions close over models, optimizers and iterators that live in the coordinator's
  memory and do not pickle, so only a server in the coordinator's own process (create_local_cluster, threads)
  can run them: TF runs them anywhere by shipping the traced graph with remote variable handles;
- ("read", key), ("assign", key, array): a parameter server's variable values, by key (ParameterServerStrategy
  keeps the values of its variables in the store of their ps task's server: `server.variables`, key -> array).

Each connection is served by its own thread, requests one at a time, so one coordinator connection per worker
runs that worker's closures in order, as TF's workers run one closure at a time. `stop()` (tinytf's addition:
TF's servers cannot be stopped) closes the socket and waits for the serving threads."""

from __future__ import annotations

import itertools
import pickle
import socket
import struct
import threading

from tinytf.runtime.errors import UnavailableError
from tinytf.train.server_def import ServerDef, make_server_def

_HEADER = struct.Struct("!Q")
_running: dict = {}  # "host:port" -> the started Server of this process with that address
_closures: dict = {}  # number -> (function, args, kwargs) registered for a server of this process
_closure_numbers = itertools.count()
_lock = threading.Lock()


def split_address(address: str):
    """("host", port) of "host:port" or "grpc://host:port"."""
    address = address.split("://", 1)[-1]
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"a task address must be host:port, got {address!r}")
    return host, int(port)


def send(conn, obj) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    conn.sendall(_HEADER.pack(len(data)) + data)


def receive(conn):
    """The next message on `conn`; EOFError when the peer has closed it."""
    size = _HEADER.unpack(_read(conn, _HEADER.size))[0]
    return pickle.loads(_read(conn, size))


def _read(conn, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = conn.recv(min(left, 1 << 20))
        if not chunk:
            raise EOFError("connection closed")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def local_server(address: str):
    """The started Server of this process at `address` ("host:port", "grpc://..."), else None."""
    host, port = split_address(address)
    with _lock:
        return _running.get(f"{_canonical_host(host)}:{port}")


def _canonical_host(host: str) -> str:
    return "localhost" if host in ("localhost", "127.0.0.1", "0.0.0.0", "[::]", "") else host


def register_closure(closure) -> int:
    """Number a closure (an object with run(server) that keeps its own outcome) so that a server of this
    process can run it (see the module)."""
    number = next(_closure_numbers)
    _closures[number] = closure
    return number


class Server:
    """Server(server_or_cluster_def, job_name=None, task_index=None, protocol=None, config=None, start=True):
    the task `job_name`:`task_index` of the cluster, listening at its address (port 0: the system picks one)."""

    def __init__(self, server_or_cluster_def, job_name=None, task_index=None, protocol=None, config=None,
                 start=True):
        self._server_def = make_server_def(server_or_cluster_def, job_name, task_index, protocol, config)
        from tinytf.train.cluster_spec import ClusterSpec

        spec = ClusterSpec(self._server_def.cluster)
        job, index = self._server_def.job_name, self._server_def.task_index
        if job not in spec.jobs:
            raise ValueError(f"tf.distribute.Server: job {job!r} is not in the cluster {spec}")
        self._host, self._port = split_address(spec.task_address(job, index))
        if self._server_def.port:
            self._port = self._server_def.port
        self.variables: dict = {}  # a parameter server's variable values by key (ps_variable.py puts them here)
        self._socket = None
        self._threads: list = []
        self._connections: list = []
        self._stopped = threading.Event()
        # stop() and the accepting thread agree under it: a connection accepted as the server stops is closed,
        # not served (a client's connect completes in the kernel before accept() returns it)
        self._connections_lock = threading.Lock()
        if start:
            self.start()

    @staticmethod
    def create_local_server(config=None, start=True) -> Server:
        """A server of a one-task cluster, job "localhost", on a port the system picks."""
        return Server({"localhost": ["localhost:0"]}, protocol="grpc", config=config, start=start)

    def _join_cluster(self, cluster_def, task_index, config) -> None:
        """create_local_cluster's servers, each bound first in a cluster of its own, learn the whole cluster and
        their index in it."""
        self._server_def = ServerDef(cluster=cluster_def, job_name=self._server_def.job_name, task_index=task_index,
                                     protocol=self._server_def.protocol, default_session_config=config)

    @property
    def server_def(self) -> ServerDef:
        return self._server_def

    @property
    def target(self) -> str:
        """"grpc://localhost:PORT" (the protocol's name, as TF's target), with the port the socket has."""
        return f"{self._server_def.protocol or 'grpc'}://{_canonical_host(self._host)}:{self._port}"

    def start(self) -> None:
        """Listen at the task's address (a second call does nothing, as TF's)."""
        if self._socket is not None:
            return
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        host = "127.0.0.1" if _canonical_host(self._host) == "localhost" else self._host
        try:
            sock.bind((host, self._port))
        except OSError as e:
            sock.close()
            raise UnavailableError(None, None, f"tf.distribute.Server: could not listen at {self._host}:{self._port} "
                                               f"for /job:{self._server_def.job_name}/task:"
                                               f"{self._server_def.task_index}: {e}") from None
        sock.listen(16)
        self._port = sock.getsockname()[1]
        self._socket = sock
        with _lock:
            _running[f"{_canonical_host(self._host)}:{self._port}"] = self
        accept = threading.Thread(target=self._accept, name=f"tinytf-server-{self._port}", daemon=True)
        self._threads.append(accept)
        accept.start()

    def join(self) -> None:
        """Block until the server stops (TF's blocks forever: its servers are never stopped)."""
        self._stopped.wait()

    def stop(self) -> None:
        """Close the listening socket and the open connections, and wait for the serving threads (tinytf's)."""
        if self._socket is None or self._stopped.is_set():
            return
        with self._connections_lock:
            self._stopped.set()
        with _lock:
            _running.pop(f"{_canonical_host(self._host)}:{self._port}", None)
        try:  # wakes the accept() of the serving thread
            self._socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._socket.close()
        for conn in list(self._connections):
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=10)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    # --- serving -----------------------------------------------------------------------------------------
    def _accept(self) -> None:
        while not self._stopped.is_set():
            try:
                conn, _ = self._socket.accept()
            except OSError:
                return
            with self._connections_lock:
                if self._stopped.is_set():
                    conn.close()
                    return
                self._connections.append(conn)
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            thread = threading.Thread(target=self._serve, args=(conn,), daemon=True,
                                      name=f"tinytf-server-{self._port}-conn")
            self._threads.append(thread)
            thread.start()

    def _serve(self, conn) -> None:
        try:
            while True:
                try:
                    request = receive(conn)
                except (EOFError, OSError):
                    return
                send(conn, self._answer(request))
        except OSError:
            return
        finally:
            conn.close()
            if conn in self._connections:
                self._connections.remove(conn)

    def _answer(self, request):
        kind = request[0]
        try:
            if kind == "ping":
                return ("ok", (self._server_def.job_name, self._server_def.task_index))
            if kind == "run":
                return ("ok", self._run(request[1]))
            if kind == "read":
                return ("ok", self.variables[request[1]])
            if kind == "assign":
                self.variables[request[1]] = request[2]
                return ("ok", None)
            raise ValueError(f"tf.distribute.Server: unknown request {kind!r}")
        except Exception as e:  # noqa: BLE001  (every error goes back to the caller, which raises it)
            return ("error", describe_error(e))

    def _run(self, payload):
        if self._stopped.is_set():  # a request already read when the server stopped: the task is gone
            raise UnavailableError(None, None, f"tf.distribute.Server {self.target} has stopped")
        how, what = payload
        if how == "pickled":
            fn, args, kwargs = pickle.loads(what)
        else:
            closure = _closures.pop(what, None)
            if closure is None:
                raise UnavailableError(None, None, f"tf.distribute.Server {self.target}: closure {what} was "
                                                   "registered by another process; only pickled functions reach "
                                                   "a server in another process")
            closure.run(self)  # keeps its result or error itself: they need not pickle
            return None
        return fn(*args, **kwargs)


def describe_error(error: BaseException):
    """An error as (module, class name, message, the error itself when it pickles): the caller raises the
    same class again."""
    try:
        pickle.dumps(error)
        kept = error
    except Exception:  # noqa: BLE001
        kept = None
    message = getattr(error, "message", None) or str(error)
    return (type(error).__module__, type(error).__name__, message, kept)


def rebuild_error(description) -> BaseException:
    """The exception `describe_error` described, of the same class (tf.errors' classes by name)."""
    module, name, message, kept = description
    if kept is not None:
        return kept
    from tinytf import errors

    cls = getattr(errors, name, None)
    if isinstance(cls, type) and issubclass(cls, errors.OpError):
        return cls(None, None, message)
    import builtins

    cls = getattr(builtins, name, None)
    if isinstance(cls, type) and issubclass(cls, BaseException):
        return cls(message)
    return errors.UnknownError(None, None, f"{module}.{name}: {message}")


class Connection:
    """A client's connection to one server: call(request) sends it and returns the answer, raising the
    server's error as its class, and UnavailableError when the server cannot be reached or goes away."""

    def __init__(self, address: str, timeout: float = 30.0, who: str = "task"):
        self.address, self.who = address, who
        host, port = split_address(address)
        host = "127.0.0.1" if _canonical_host(host) == "localhost" else host
        try:
            self._socket = socket.create_connection((host, port), timeout=timeout)
        except OSError as e:
            raise UnavailableError(None, None, f"could not connect to {who} at {address}: {e}") from None
        self._socket.settimeout(None)  # a closure may run long; the server's death closes the socket
        self._socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._lock = threading.Lock()

    def call(self, request):
        with self._lock:
            try:
                send(self._socket, request)
                status, value = receive(self._socket)
            except (EOFError, OSError) as e:
                raise UnavailableError(None, None, f"{self.who} at {self.address} went away: {e}") from None
        if status == "error":
            raise rebuild_error(value)
        return value

    def close(self) -> None:
        try:
            self._socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._socket.close()
