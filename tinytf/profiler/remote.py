"""tf.profiler.experimental.server.start / client.trace / client.monitor. TF speaks gRPC to a profiler server in
the traced process; tinytf's server answers a small line protocol over TCP instead (one JSON request line, then
the gzipped trace as the reply), so a tinytf process can profile another tinytf process. Without a server at
the address, the client raises TF's RuntimeError (UNAVAILABLE) after TF's attempts."""

from __future__ import annotations

import gzip
import json
import os
import socket
import threading
import time

from . import host_trace

_servers: dict = {}  # port -> listening socket


def _serve_one(connection) -> None:
    with connection:
        request = json.loads(connection.makefile("r", encoding="utf-8").readline() or "{}")
        duration = max(float(request.get("duration_ms", 1000)), 0.0) / 1000.0
        try:
            host_trace.start(os.devnull)
        except Exception as error:  # noqa: BLE001 - a local session is running: report it to the client
            reply = {"error": str(error)}
            connection.sendall(gzip.compress(json.dumps(reply).encode()))
            return
        time.sleep(duration)
        session = host_trace.current()
        host_trace.stop(save=False)
        connection.sendall(gzip.compress(json.dumps(session.trace_events()).encode()))


def _accept_loop(listener) -> None:
    while True:
        try:
            connection, _ = listener.accept()
        except OSError:
            return
        threading.Thread(target=_serve_one, args=(connection,), daemon=True).start()


def start_server(port) -> None:
    """Serve trace requests on `port` (all interfaces, as TF's server) from a daemon thread."""
    port = int(port)
    if port in _servers:
        return
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("", port))
    listener.listen()
    _servers[port] = listener
    threading.Thread(target=_accept_loop, args=(listener,), daemon=True, name=f"profiler-server-{port}").start()


def _address(service_addr: str):
    address = service_addr.split("://", 1)[-1].split(",")[0]
    host, _, port = address.rpartition(":")
    return host or "localhost", int(port)


def _request(service_addr, duration_ms):
    host, port = _address(service_addr)
    with socket.create_connection((host, port), timeout=10 + duration_ms / 1000.0) as connection:
        connection.sendall((json.dumps({"duration_ms": duration_ms}) + "\n").encode())
        connection.shutdown(socket.SHUT_WR)
        payload = b"".join(iter(lambda: connection.recv(65536), b""))
    reply = json.loads(gzip.decompress(payload))
    if "error" in reply:
        raise RuntimeError(f"UNAVAILABLE: {reply['error']}")
    return reply


def trace(service_addr, logdir, duration_ms, worker_list="", num_tracing_attempts=3, options=None):
    """Ask the server at `service_addr` for `duration_ms` of its spans; write them under `logdir` as
    host_trace.stop does."""
    for attempt in range(int(num_tracing_attempts)):
        print(f"Starting to trace for {duration_ms} ms. Remaining attempt(s): {num_tracing_attempts - attempt - 1}")
        try:
            reply = _request(service_addr, duration_ms)
        except OSError:
            reply = None
        if reply is not None and any(e.get("ph") == "X" for e in reply["traceEvents"]):
            run = time.strftime("%Y_%m_%d_%H_%M_%S")
            folder = os.path.join(os.fspath(logdir), "plugins", "profile", run)
            os.makedirs(folder, exist_ok=True)
            host = _address(service_addr)[0]
            with gzip.open(os.path.join(folder, f"{host}.trace.json.gz"), "wt", encoding="utf-8") as f:
                json.dump(reply, f)
            return
        if attempt + 1 < num_tracing_attempts:
            print("No trace event is collected. Automatically retrying.\n")
    print(f"No trace event is collected after {num_tracing_attempts} attempt(s). Perhaps, you want to try again "
          "(with more attempts?).\nTip: increase number of attempts with --num_tracing_attempts.")
    raise RuntimeError("UNAVAILABLE: No trace event was collected because there were no responses from clients or "
                       "the responses did not have trace data.")


def monitor(service_addr, duration_ms, level=1) -> str:
    """A short text summary of the server's activity over `duration_ms` (TF's monitoring result)."""
    host, port = _address(service_addr)
    try:
        reply = _request(service_addr, duration_ms)
    except ConnectionRefusedError:
        raise RuntimeError(f"UNAVAILABLE: failed to connect to all addresses; last error: UNKNOWN: ipv4:{host}:{port}:"
                           " Failed to connect to remote host: Connection refused") from None
    spans = [e for e in reply["traceEvents"] if e.get("ph") == "X"]
    busy_ms = sum(e["dur"] for e in spans) / 1000.0
    lines = [f"Monitored for {duration_ms} ms: {len(spans)} spans, {busy_ms:.3f} ms busy"]
    if level > 1:
        counts: dict = {}
        for e in spans:
            counts[e["name"]] = counts.get(e["name"], 0) + 1
        lines += [f"  {name}: {n}" for name, n in sorted(counts.items(), key=lambda kv: -kv[1])]
    return "\n".join(lines)
