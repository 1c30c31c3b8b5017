"""tf.distribute.experimental.rpc: Server and Client (rpc_ops.py)."""

from .rpc_ops import Client, Server

__all__ = ["Client", "Server"]
