"""keras.callbacks.RemoteMonitor: at the end of each epoch, POST {"epoch": n, <logs>} to root + path, as a form
field (`data=<json>`, the default) or as a JSON body (send_as_json=True), with the user's headers. Keras sends
it with the `requests` library; tinytf sends the same request with the standard library (urllib). A server that
cannot be reached gives Keras' warning, not an error."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
import warnings

import numpy as np

from .callback import Callback


class RemoteMonitor(Callback):
    def __init__(self, root="http://localhost:9000", path="/publish/epoch/end/", field="data", headers=None,
                 send_as_json=False):
        super().__init__()
        self.root = root
        self.path = path
        self.field = field
        self.headers = headers
        self.send_as_json = send_as_json

    def _request(self, send: dict) -> urllib.request.Request:
        headers = dict(self.headers or {})
        if self.send_as_json:  # requests' json=: no NaN or infinity (a ValueError, reported as unreachable)
            body = json.dumps(send, allow_nan=False).encode("utf-8")
            headers.setdefault("Content-Type", "application/json")
        else:
            body = urllib.parse.urlencode({self.field: json.dumps(send)}).encode("ascii")
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        return urllib.request.Request(self.root + self.path, data=body, headers=headers, method="POST")

    def on_epoch_end(self, epoch, logs=None):
        send = {"epoch": epoch}
        for key, value in (logs or {}).items():
            send[key] = value.item() if isinstance(value, (np.ndarray, np.generic)) else value
        try:
            with urllib.request.urlopen(self._request(send), timeout=30) as response:
                response.read()
        except urllib.error.HTTPError:
            pass  # requests does not raise for an error status either
        except (urllib.error.URLError, OSError, ValueError):
            warnings.warn(f"Could not reach RemoteMonitor root server at {self.root}", stacklevel=2)
