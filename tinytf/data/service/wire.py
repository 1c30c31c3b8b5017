"""The tf.data service's transport: length-prefixed pickled messages over TCP sockets on 127.0.0.1, one thread
per connection. TF speaks gRPC; tinytf's servers and clients speak only to each other, so a small request /
reply protocol is enough. Only the loopback interface is served: a message is a pickle, which must come from a
trusted peer (the same machine's tinytf)."""

from __future__ import annotations

import pickle
import socket
import struct
import threading

from tinytf.runtime.errors import UnavailableError

_HEADER = struct.Struct("!Q")


def send(conn: socket.socket, message) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    conn.sendall(_HEADER.pack(len(data)) + data)


def receive(conn: socket.socket):
    """The next message, or None when the peer closed the connection."""
    header = _read_exactly(conn, _HEADER.size)
    if header is None:
        return None
    data = _read_exactly(conn, _HEADER.unpack(header)[0])
    return None if data is None else pickle.loads(data)


def _read_exactly(conn, size: int):
    chunks, left = [], size
    while left:
        try:
            chunk = conn.recv(min(left, 1 << 20))
        except OSError:
            return None
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def split_address(address: str) -> tuple[str, int]:
    """"localhost:1234" (or "grpc://localhost:1234") as (host, port)."""
    address = address.split("://")[-1]
    host, _, port = address.rpartition(":")
    return (host or "localhost"), int(port)


class Connection:
    """A client's connection to one server: request() sends a message and waits for the reply. One request at a
    time (a lock), so threads may share it."""

    def __init__(self, address: str, timeout: float | None = 60.0):
        self.address = address
        host, port = split_address(address)
        try:
            self._conn = socket.create_connection(("127.0.0.1" if host == "localhost" else host, port), timeout)
        except OSError as e:
            raise UnavailableError(f"tf.data service: failed to connect to {address}: {e}") from None
        self._conn.settimeout(None)
        self._lock = threading.Lock()

    def request(self, kind: str, **fields):
        with self._lock:
            try:
                send(self._conn, (kind, fields))
                reply = receive(self._conn)
            except OSError:
                reply = None
        if reply is None:
            raise UnavailableError(f"tf.data service: the server at {self.address} closed the connection "
                                   f"(request {kind!r})")
        if isinstance(reply, BaseException):
            raise reply
        return reply

    def close(self) -> None:
        try:
            self._conn.close()
        except OSError:
            pass


class Server:
    """A TCP server on 127.0.0.1 answering requests with `handle(kind, fields)` (a reply, or an exception sent
    back for the client to raise). Threads: one accepting, one per connection; stop() ends them all."""

    def __init__(self, port: int, handle, name: str):
        self._handle = handle
        self._name = name
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", port))
        self.port = self._listener.getsockname()[1]
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._connections: set = set()
        self._threads: list = []
        self._accepting = None

    def start(self) -> None:
        if self._accepting is not None or self._stopped.is_set():
            return
        self._listener.listen(64)
        self._listener.settimeout(0.05)  # accept() polls, so stop() needs no wake-up trick
        self._accepting = threading.Thread(target=self._accept, name=f"{self._name}-accept", daemon=True)
        self._accepting.start()

    @property
    def started(self) -> bool:
        return self._accepting is not None

    def _accept(self) -> None:
        while not self._stopped.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            conn.settimeout(None)
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                if self._stopped.is_set():
                    conn.close()
                    return
                self._connections.add(conn)
                thread = threading.Thread(target=self._serve, args=(conn,), name=f"{self._name}-conn", daemon=True)
                self._threads.append(thread)
            thread.start()

    def _serve(self, conn) -> None:
        try:
            while not self._stopped.is_set():
                message = receive(conn)
                if message is None:
                    return
                kind, fields = message
                try:
                    reply = self._handle(kind, fields)
                except Exception as e:  # noqa: BLE001 - the error travels back to the client, which raises it
                    reply = e
                try:
                    send(conn, reply)
                except OSError:
                    return
        finally:
            with self._lock:
                self._connections.discard(conn)
            conn.close()

    def join(self) -> None:
        """Block until the server stops (TF's join: servers run until the process ends)."""
        self._stopped.wait()

    def stop(self) -> None:
        self._stopped.set()
        with self._lock:
            connections, threads = list(self._connections), list(self._threads)
        for conn in connections:
            try:
                conn.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked in recv
            except OSError:
                pass
        if self._accepting is not None:
            self._accepting.join()
        self._listener.close()
        current = threading.current_thread()
        for thread in threads:
            if thread is not current:
                thread.join()
