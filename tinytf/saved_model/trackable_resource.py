"""tf.saved_model.experimental.TrackableResource: the base of objects holding a resource tensor that
tf.functions capture (TF's lookup tables are ones). Subclasses implement _create_resource (and _initialize,
_destroy_resource); `resource_handle` creates the resource on first use, outside any function being traced
(init_scope), so a tf.function captures the handle instead of re-creating it at every call. tinytf's
tf.saved_model.save writes the resources it knows (lookup tables); a custom subclass is saved with its variables
and functions but not re-created by _create_resource on load."""

from __future__ import annotations


class TrackableResource:
    """Holds a Tensor which a tf.function can capture."""

    def __init__(self, device: str = ""):
        self._resource_handle_value = None
        self._resource_device = device

    def _create_resource(self):
        """Create the resource (a tensor or variable handle): subclasses must implement it."""
        raise NotImplementedError("TrackableResource._create_resource not implemented.")

    def _initialize(self):
        """Initialize the resource held at self.resource_handle (nothing by default)."""

    def _destroy_resource(self):
        """Release the resource (nothing by default: numpy memory goes with the object)."""

    @property
    def resource_handle(self):
        if self._resource_handle_value is None:
            from ..device import device
            from ..scopes import init_scope

            with init_scope(), device(self._resource_device or None):
                self._resource_handle_value = self._create_resource()
        return self._resource_handle_value

    @resource_handle.setter
    def resource_handle(self, value):
        self._resource_handle_value = value

    def __del__(self):
        if getattr(self, "_resource_handle_value", None) is not None:
            try:
                self._destroy_resource()
            except Exception:  # noqa: BLE001 - TF ignores errors of resource destruction at interpreter exit
                pass
