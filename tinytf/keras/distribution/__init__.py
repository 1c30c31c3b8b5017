"""keras.distribution as Keras 3.15 has it on TF 2.21's TensorFlow backend: the bookkeeping of device meshes,
tensor layouts, layout maps and the DataParallel / ModelParallel distributions, and a global current
distribution (set_distribution, Distribution.scope). On that backend the layouts are descriptive only: Keras'
TF distribution_lib is a prototype that shards nothing, so variables and fit under a distribution run as without
one, here as there. What the TF backend lacks (initialize, get_device_count, distribute_tensor of a real tensor,
the DTensor mesh behind backend_mesh) raises the errors it raises under TF 2.21."""

from .distribution_lib import (
    DataParallel,
    DeviceMesh,
    LayoutMap,
    ModelParallel,
    TensorLayout,
    distribute_tensor,
    distribution,
    get_device_count,
    initialize,
    list_devices,
    set_distribution,
)

__all__ = ["DataParallel", "DeviceMesh", "LayoutMap", "ModelParallel", "TensorLayout", "distribute_tensor",
           "distribution", "get_device_count", "initialize", "list_devices", "set_distribution"]
