"""tf.distribute.experimental.rpc: a Server on 127.0.0.1 serving tf.functions (with input signatures: tensors,
a dict output, a variable they update, no output, a failing assertion) and a Client calling them by `call`
and by the methods it makes per registered function; failed calls give a status (TF's error codes), the
blocking methods raise. Messages differ (TF's carry gRPC details): codes, classes and values are compared."""

from __future__ import annotations

import socket

from . import outcome, program, val


def _address():
    s = socket.socket()
    s.bind(("localhost", 0))
    port = s.getsockname()[1]
    s.close()
    return f"localhost:{port}"


def _error(result):
    code, message = result.get_error()
    return [val(code), message.dtype.name, message.numpy().decode()]


def _raised(fn):
    """The class raised (TF's blocking call raises an error whose message is bytes: str() of it fails)."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recording which exception is the point
        return [type(e).__name__, "OpError" in [k.__name__ for k in type(e).__mro__]]
    return None


def _status(result):
    code, message = result.get_error()
    return [bool(result.is_ok()), int(code), isinstance(message.numpy(), bytes)]


@program
def p_rpc_server_and_client(tf):
    rpc = tf.distribute.experimental.rpc
    address = _address()
    server = rpc.Server.create("grpc", address)
    counter = tf.Variable(0)

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)])
    def addition(a, b):
        return tf.add(a, b)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def stats(x):
        return {"sum": tf.reduce_sum(x), "max": tf.reduce_max(x)}

    @tf.function(input_signature=[])
    def bump():
        counter.assign_add(1)
        return counter.read_value()

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def check(x):
        tf.debugging.assert_positive(x, message="x must be positive")
        return x * 2.0

    @tf.function
    def nothing():
        counter.assign_add(10)
        return None

    for name, fn in [("addition", addition), ("stats", stats), ("bump", bump), ("check", check),
                     ("nothing", nothing)]:
        server.register(name, fn)

    @tf.function
    def no_signature(a):
        return a

    out = [outcome(lambda: server.register("no_signature", no_signature), "Input signature not specified"),
           outcome(lambda: server.register("python", lambda: 1), "Only TF functions"),
           outcome(lambda: rpc.Server.create("http", address), "Only GRPC backend"),
           outcome(lambda: rpc.Client.create("http", address), "Only GRPC backend")]
    server.start()
    client = rpc.Client.create("grpc", address, name="client")
    out.append(sorted(n for n in dir(client) if not n.startswith("_") and n not in ("close",)))
    result = client.call("addition", [tf.constant(2), tf.constant(3)], output_specs=tf.TensorSpec((), tf.int32))
    out += [type(result).__name__, val(result.is_ok()), val(result.get_value()), _error(result)]
    out += [val(client.addition(tf.constant(4), tf.constant(5)).get_value()),
            val(client.addition_blocking(tf.constant(1), tf.constant(1))),
            val(client.stats(tf.constant([1.0, 5.0, 2.0])).get_value()),
            val(client.bump().get_value()), val(client.bump_blocking()), client.nothing().get_value(),
            val(client.nothing().is_ok()), val(counter)]
    failed = client.check(tf.constant(-1.0))
    out += [_status(failed), outcome(failed.get_value, "x must be positive"),
            _raised(lambda: client.check_blocking(tf.constant(-1.0)))]
    missing = client.call("missing", [], output_specs=tf.TensorSpec((), tf.int32))
    out += [_status(missing), outcome(missing.get_value, "missing is not registered")]
    out.append(_status(client.call("addition", [tf.constant(1)], output_specs=tf.TensorSpec((), tf.int32))))
    out.append(_status(client.call("addition", [tf.constant(1.0), tf.constant(2.0)],
                                   output_specs=tf.TensorSpec((), tf.int32))))
    out.append(outcome(lambda: client.addition(tf.constant(1)), "same nested structure"))
    out.append(outcome(lambda: client.call("bump").get_value(), "Incorrect number of output types"))
    out.append(outcome(lambda: rpc.Client.create("grpc", _address(), timeout_in_ms=300), "Deadline Exceeded"))
    stop = getattr(server, "stop", None)  # tinytf's: the serving threads end here rather than at exit
    if stop is not None:
        client.close()
        stop()
    return out
