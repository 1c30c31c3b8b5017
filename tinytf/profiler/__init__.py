"""tf.profiler: `tf.profiler.experimental` (the host profiler: start/stop, Profile, Trace, and the profiler
server and client)."""

from . import experimental  # noqa: F401
