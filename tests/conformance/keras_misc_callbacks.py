"""keras.callbacks SwapEMAWeights and RemoteMonitor, and optimizers' use_ema, as TF 2.21's Keras 3 runs them:
the moving averages, the periodic overwrite and fit's final swap to the averages, validation on the averages,
and the JSON RemoteMonitor posts (to a local HTTP server) at each epoch end."""

from __future__ import annotations

import http.server
import json
import threading
import urllib.parse

import numpy as np

from . import program, val


def _model(tf, optimizer):
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.set_weights([np.array([[0.5], [-0.3]], np.float32), np.array([0.1], np.float32)])
    model.compile(optimizer=optimizer, loss="mse")
    return model


def _xy():
    x = np.arange(16, dtype="float32").reshape(8, 2) / 10
    return x, x.sum(axis=1, keepdims=True)


@program
def p_optimizer_use_ema_fit(tf):
    results = []
    for frequency in (None, 3):
        optimizer = tf.keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.9, ema_overwrite_frequency=frequency)
        model = _model(tf, optimizer)
        x, y = _xy()
        history = model.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0)
        results.append([val(np.array(history.history["loss"], np.float32)), val(model.get_weights()),
                        [val(np.asarray(v)) for v in optimizer.variables],
                        {k: v for k, v in optimizer.get_config().items() if k.startswith("ema") or k == "use_ema"}])
    return results


@program
def p_optimizer_use_ema_adam_gradient_tape(tf):
    variable = tf.Variable([1.0, -2.0])
    optimizer = tf.keras.optimizers.Adam(0.1, use_ema=True, ema_momentum=0.5)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(variable ** 2)
        optimizer.apply_gradients([(tape.gradient(loss, variable), variable)])

    for _ in range(3):
        step()
    optimizer.finalize_variable_values([variable])
    return [val(variable), [val(np.asarray(v)) for v in optimizer.variables]]


@program
def p_swap_ema_weights_callback(tf):
    results = []
    for swap_on_epoch in (False, True):
        optimizer = tf.keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.9)
        model = _model(tf, optimizer)
        x, y = _xy()
        seen = []
        probe = tf.keras.callbacks.LambdaCallback(
            on_epoch_end=lambda epoch, logs, seen=seen, model=model: seen.append(val(model.get_weights())))
        history = model.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0, validation_data=(x, y),
                            callbacks=[tf.keras.callbacks.SwapEMAWeights(swap_on_epoch=swap_on_epoch), probe])
        results.append([val(np.array(history.history["val_loss"], np.float32)), seen, val(model.get_weights())])
    model = _model(tf, tf.keras.optimizers.SGD(0.1))
    try:
        model.fit(*_xy(), epochs=1, verbose=0, validation_data=_xy(),
                  callbacks=[tf.keras.callbacks.SwapEMAWeights()])
    except ValueError as e:
        results.append(["ValueError", "use_ema=True" in str(e)])
    return results


class _Recorder(http.server.BaseHTTPRequestHandler):
    received: list = []

    def do_POST(self):  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers["Content-Length"])).decode()
        type(self).received.append([self.path, self.headers.get("Content-Type"), self.headers.get("X-Run"), body])
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


def _decoded(entry):
    path, content_type, run, body = entry
    if content_type == "application/json":
        return [path, content_type, run, json.loads(body)]
    fields = urllib.parse.parse_qs(body)
    return [path, content_type, run, {k: json.loads(v[0]) for k, v in fields.items()}]


@program
def p_remote_monitor_posts_each_epoch(tf):
    _Recorder.received = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    root = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        model = _model(tf, tf.keras.optimizers.SGD(0.1))
        x, y = _xy()
        model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0,
                  callbacks=[tf.keras.callbacks.RemoteMonitor(root=root)])
        model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0, validation_data=(x, y),
                  callbacks=[tf.keras.callbacks.RemoteMonitor(root=root, path="/json/", send_as_json=True,
                                                              headers={"X-Run": "7"}),
                             tf.keras.callbacks.RemoteMonitor(root=root, path="/form/", field="payload")])
    finally:
        server.shutdown()
        server.server_close()
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(x, y, epochs=1, verbose=0, callbacks=[tf.keras.callbacks.RemoteMonitor(root="http://127.0.0.1:9")])
    unreachable = [str(w.message) for w in caught if "RemoteMonitor" in str(w.message)]
    return [sorted((_decoded(e) for e in _Recorder.received), key=lambda e: (e[0], json.dumps(e[3]))), unreachable]
