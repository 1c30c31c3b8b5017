"""The all-reduce of MultiWorkerMirroredStrategy's workers: separate processes (started by the user, each with
its TF_CONFIG) that meet over TCP. Worker 0 (the chief) listens at its cluster address; every other worker
connects to it (retrying while the chief is not up yet, as TF's workers wait for each other at start-up) and
says which worker it is. A sum: each worker sends its arrays (times its scale) to the chief, the chief adds
them in worker order (0, 1, 2, ...: every worker gets the same bits) and sends the sums back; then each
worker runs `between(sums)` on its own variables (each process holds its own copy of the model: every one
applies the same update, as MirroredStrategy's process replicas do).

A star, not TF's ring: the chief moves (N-1) x the gradients' bytes each way per step, which is fine for the
few workers of one machine or a small cluster this is for. A worker that dies or hangs up makes the others'
next sum raise tf.errors.UnavailableError (naming the worker) instead of waiting forever.
Peers are trusted: the messages are pickled numpy arrays, like TF's unauthenticated gRPC between its tasks."""

from __future__ import annotations

import collections
import pickle
import socket
import struct
import time

import numpy as np

from tinytf.runtime.errors import UnavailableError

from .collective import scaled, summed

CONNECT_TIMEOUT_SECONDS = 120.0  # how long workers wait for each other at start-up
_HEADER = struct.Struct("!Q")


def _split_address(address: str):
    address = address.split("://", 1)[-1]
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"MultiWorkerMirroredStrategy: a task address must be host:port, got {address!r}")
    return host, int(port)


class SocketCollective:
    def __init__(self, addresses: list, worker_index: int, timeout: float = CONNECT_TIMEOUT_SECONDS):
        self.num_workers = len(addresses)
        self.worker_index = worker_index
        self.seconds = collections.deque(maxlen=100_000)
        self._peers: dict = {}  # the chief: worker index -> socket; a worker: {0: socket to the chief}
        host, port = _split_address(addresses[0])
        if worker_index == 0:
            self._listen(host, port, timeout)
        else:
            self._connect(host, port, timeout)

    def _listen(self, host, port, timeout) -> None:
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind((host, port))
        server.listen(self.num_workers)
        server.settimeout(timeout)
        try:
            while len(self._peers) < self.num_workers - 1:
                try:
                    conn, _ = server.accept()
                except TimeoutError:
                    missing = sorted(set(range(1, self.num_workers)) - set(self._peers))
                    raise UnavailableError(f"MultiWorkerMirroredStrategy: workers {missing} did not connect to the "
                                           f"chief at {host}:{port} within {timeout:.0f} s") from None
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                conn.settimeout(None)
                index = self._receive(conn, "a worker")
                self._peers[int(index)] = conn
        finally:
            server.close()

    def _connect(self, host, port, timeout) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                conn = socket.create_connection((host, port), timeout=5.0)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise UnavailableError(f"MultiWorkerMirroredStrategy: worker {self.worker_index} could not "
                                           f"reach the chief at {host}:{port} within {timeout:.0f} s") from None
                time.sleep(0.1)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn.settimeout(None)
        self._send(conn, self.worker_index)
        self._peers[0] = conn

    @staticmethod
    def _send(conn, obj) -> None:
        data = pickle.dumps(obj, protocol=5)
        conn.sendall(_HEADER.pack(len(data)) + data)

    def _receive(self, conn, who):
        header = self._read(conn, _HEADER.size, who)
        return pickle.loads(self._read(conn, _HEADER.unpack(header)[0], who))

    @staticmethod
    def _read(conn, size: int, who) -> bytes:
        buffer = bytearray(size)
        view = memoryview(buffer)
        got = 0
        while got < size:
            try:
                n = conn.recv_into(view[got:], size - got)
            except OSError as error:
                raise UnavailableError(f"MultiWorkerMirroredStrategy: lost {who}: {error}") from None
            if n == 0:
                raise UnavailableError(f"MultiWorkerMirroredStrategy: {who} hung up (its process ended or failed)")
            got += n
        return bytes(buffer)

    def sum(self, replica_id: int, arrays: list, between=None, scale: float = 1.0) -> list:
        """The elementwise sum over the workers of each array (each worker's times its `scale`);
        `between(sums)` then runs in every worker."""
        start = time.perf_counter()
        mine = [np.array(scaled(a, scale)) for a in arrays]
        if self.worker_index == 0:
            parts = [mine]
            for index in range(1, self.num_workers):
                theirs = self._receive(self._peers[index], f"worker {index}")
                if len(theirs) != len(mine) or any(np.shape(a) != np.shape(b) for a, b in zip(theirs, mine)):
                    raise ValueError(f"MultiWorkerMirroredStrategy: worker {index} all-reduces shapes "
                                     f"{[np.shape(a) for a in theirs]}, the chief {[np.shape(a) for a in mine]}: "
                                     "every worker must run the same steps")
                parts.append(theirs)
            result = [summed([p[k] for p in parts]) for k in range(len(mine))]
            for index in range(1, self.num_workers):
                self._send(self._peers[index], result)
        else:
            self._send(self._peers[0], mine)
            result = self._receive(self._peers[0], "the chief (worker 0)")
        self.seconds.append(time.perf_counter() - start)
        if between is not None:
            between(result)
        return result

    def close(self) -> None:
        for conn in self._peers.values():
            try:
                conn.close()
            except OSError:
                pass
        self._peers = {}
