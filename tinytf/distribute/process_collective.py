"""The all-reduce of MirroredStrategy's process replicas: a shared memory buffer and a barrier between forked
processes.

Memory: one anonymous shared mapping (mmap MAP_SHARED of no file), made before the replicas are forked, so
every process maps the same pages. It has no name in /dev/shm: nothing can outlive the processes, even when one
is killed (a named multiprocessing.shared_memory segment leaks when its owner dies before unlinking it). Its
pages are only reserved, and take memory when first written: the buffer is sized for the largest sum it may see
(twice the strategy's variables, at least MIN_SLOT_BYTES, per replica) at no cost for the small ones: a
variable made after the fork makes new processes, and so a new buffer.

A sum, the same in every process (two rounds alternate between two halves of the buffer, so that a fast
process writing the next round's arrays never overwrites what a slow one still reads):
  1. each replica copies its arrays into its slot (grouped by dtype, one flat run per dtype);
  2. barrier;
  3. reduce-scatter: replica r sums its r-th part of every run over the slots, in replica order (slot 0 +
     slot 1 + ...: the thread replicas' order, so both backends give the same bits), into the result slot;
  4. barrier;
  5. all-gather: every replica copies the whole result out (it is already in shared memory).
Below SCATTER_MIN_BYTES (the MLP's 0.8 MB of gradients, the CNN's 0.25 MB) steps 3-5 are one: every replica sums
all the slots itself, in the same order. With two replicas that reads and writes as many bytes as 3-5 do, and
saves a barrier, whose two process wake-ups cost more than the sums on a loaded machine.

The barrier is central: replicas 1..N-1 post a semaphore, replica 0 (the parent) takes N-1 posts and then
releases each replica's own semaphore. Replica 0 waits with a timeout, and between waits checks that the other
processes are alive, so a replica process that dies turns into an error in the parent instead of a hang; a
replica that raises marks itself failed and posts, which wakes the parent at once."""

from __future__ import annotations

import collections
import mmap
import os
import time

import numpy as np

from .collective import scaled

MIN_SLOT_BYTES = 64 << 20  # per replica and round, at least: the largest set of arrays one sum may carry
INPUT_BYTES = 64 << 20  # per replica: a step's arguments (replica_processes.dumps; larger ones use the pipe)
SCATTER_MIN_BYTES = 4 << 20  # below: each replica sums all slots (one barrier; a barrier is two process wake-ups)
TIMEOUT_SECONDS = 600.0  # a replica that neither answers nor dies (as the thread replicas' barrier waits)
_ALIGN = 64


class ReplicaProcessError(RuntimeError):
    """A replica process of MirroredStrategy died or failed; the strategy's processes are stopped."""


class _Aborted(RuntimeError):
    pass


class ProcessBarrier:
    def __init__(self, context, num_replicas: int):
        self.num_replicas = num_replicas
        self._arrive = context.Semaphore(0)
        self._go = [context.Semaphore(0) for _ in range(num_replicas)]
        self._flags = context.RawArray("b", num_replicas + 1)  # [i]: replica i failed; [N]: aborted by replica 0
        self.alive_check = None  # in replica 0: raises when a replica process died
        self.parent_pid = os.getpid()

    def wait(self, replica_id: int) -> None:
        if replica_id == 0:
            deadline = time.monotonic() + TIMEOUT_SECONDS
            for _ in range(self.num_replicas - 1):
                while not self._arrive.acquire(timeout=0.2):
                    if self.alive_check is not None:
                        self.alive_check()
                    if time.monotonic() > deadline:
                        raise ReplicaProcessError(f"MirroredStrategy: a replica process did not reach the all-reduce "
                                                  f"within {TIMEOUT_SECONDS:.0f} s")
                self._raise_if_failed()
            for go in self._go[1:]:
                go.release()
            return
        self._arrive.release()
        while not self._go[replica_id].acquire(timeout=1.0):
            if os.getppid() != self.parent_pid:  # the parent is gone: nobody will release us
                os._exit(3)
        if self._flags[self.num_replicas]:
            raise _Aborted("MirroredStrategy: another replica failed during a cross-replica step")

    def _raise_if_failed(self):
        failed = [i for i in range(1, self.num_replicas) if self._flags[i]]
        if failed:
            raise _Aborted(f"MirroredStrategy: replica {failed[0]} failed during a cross-replica step")

    def fail(self, replica_id: int) -> None:
        """In a replica process whose step raised: wake replica 0, which stops every replica."""
        self._flags[replica_id] = 1
        self._arrive.release()

    def abort(self) -> None:
        """In replica 0: release every replica waiting at the barrier, with an error."""
        self._flags[self.num_replicas] = 1
        for go in self._go[1:]:
            go.release()


class ProcessCollective:
    """The all-reduce between the replica processes (module docstring). The same object exists in every
    process (forked); `sum` is called by every replica with arrays of the same shapes and dtypes."""

    def __init__(self, context, num_replicas: int, variable_bytes: int = 0):
        self.num_replicas = num_replicas
        self._slot_bytes = -(-max(MIN_SLOT_BYTES, 2 * variable_bytes) // mmap.PAGESIZE) * mmap.PAGESIZE
        self._memory = mmap.mmap(-1, 2 * (num_replicas + 1) * self._slot_bytes + num_replicas * INPUT_BYTES)
        self.barrier = ProcessBarrier(context, num_replicas)
        self._round = 0
        self.seconds = collections.deque(maxlen=100_000)

    def sum(self, replica_id: int, arrays: list, between=None, scale: float = 1.0) -> list:
        """Each array's elementwise sum over the replicas (each replica's arrays times its `scale`, written
        straight into its slot); `between(result)` then runs in EVERY replica (each process holds its own
        variables: each applies the same update)."""
        start = time.perf_counter()
        arrays = [np.asarray(a) for a in arrays]
        runs, total = _layout(arrays)
        if total > self._slot_bytes:
            raise ValueError(f"MirroredStrategy (process replicas): one all-reduce carries {total} bytes, more than "
                             f"the {self._slot_bytes} a replica's buffer holds (twice the strategy's variables); "
                             "use thread replicas (TINYTF_MIRRORED_REPLICAS=threads)")
        half = (self._round % 2) * (self.num_replicas + 1)
        self._round += 1
        slots = [self._slot(half + r) for r in range(self.num_replicas)]
        result = self._slot(half + self.num_replicas)
        mine = slots[replica_id]
        for dtype, offset, members in runs:
            flat = _view(mine, dtype, offset, sum(arrays[k].size for k in members))
            position = 0
            for k in members:
                size = arrays[k].size
                scaled(arrays[k], scale, out=flat[position:position + size].reshape(arrays[k].shape))
                position += size
        self.barrier.wait(replica_id)
        if total < SCATTER_MIN_BYTES:  # small: every replica sums every slot itself, one barrier fewer
            summed = self._sum_locally(arrays, runs, slots)
        else:
            summed = self._reduce_scatter_all_gather(replica_id, arrays, runs, slots, result)
        if replica_id == 0:
            self.seconds.append(time.perf_counter() - start)
        if between is not None:
            between(summed)
        return summed

    @staticmethod
    def _sum_locally(arrays, runs, slots) -> list:
        summed: list = [None] * len(arrays)
        for dtype, offset, members in runs:
            length = sum(arrays[k].size for k in members)
            parts = [_view(s, dtype, offset, length) for s in slots]
            flat = np.add(parts[0], parts[1]) if len(parts) > 1 else parts[0].copy()
            for part in parts[2:]:
                np.add(flat, part, out=flat)
            position = 0
            for k in members:
                size = arrays[k].size
                summed[k] = flat[position:position + size].reshape(arrays[k].shape)
                position += size
        return summed

    def _reduce_scatter_all_gather(self, replica_id, arrays, runs, slots, result) -> list:
        for dtype, offset, members in runs:  # reduce-scatter: my part of every run
            length = sum(arrays[k].size for k in members)
            lo, hi = replica_id * length // self.num_replicas, (replica_id + 1) * length // self.num_replicas
            if hi == lo:
                continue
            out = _view(result, dtype, offset, length)[lo:hi]
            parts = [_view(s, dtype, offset, length)[lo:hi] for s in slots]
            if len(parts) > 1:
                np.add(parts[0], parts[1], out=out)
            else:
                out[...] = parts[0]
            for part in parts[2:]:
                np.add(out, part, out=out)
        self.barrier.wait(replica_id)
        summed: list = [None] * len(arrays)
        for dtype, offset, members in runs:  # all-gather: the result is shared already, copy it out
            flat = _view(result, dtype, offset, sum(arrays[k].size for k in members))
            position = 0
            for k in members:
                size = arrays[k].size
                summed[k] = flat[position:position + size].reshape(arrays[k].shape).copy()
                position += size
        return summed

    def _slot(self, index: int):
        return memoryview(self._memory)[index * self._slot_bytes:(index + 1) * self._slot_bytes]

    def input_region(self, replica_id: int):
        """Where replica 0 puts replica i's step arguments (read by replica i before it answers)."""
        start = 2 * (self.num_replicas + 1) * self._slot_bytes + replica_id * INPUT_BYTES
        return memoryview(self._memory)[start:start + INPUT_BYTES]

    def close(self) -> None:
        try:
            self._memory.close()
        except BufferError:  # a view is still alive somewhere: the mapping goes with the process
            pass

    # the thread collective's interface (MirroredStrategy calls these on whichever collective is active)
    def abort(self) -> None:
        self.barrier.abort()

    def reset(self) -> None:
        pass


def _layout(arrays: list):
    """[(dtype, byte offset, indices of the arrays of that dtype)] in a fixed order, and the bytes used."""
    groups: dict = {}
    for k, a in enumerate(arrays):
        groups.setdefault(a.dtype, []).append(k)
    runs, offset = [], 0
    for dtype in sorted(groups, key=str):  # the same order in every process
        members = groups[dtype]
        runs.append((dtype, offset, members))
        offset += sum(arrays[k].nbytes for k in members)
        offset = -(-offset // _ALIGN) * _ALIGN
    return runs, offset


def _view(slot, dtype, offset: int, count: int):
    return np.frombuffer(slot, dtype=dtype, count=count, offset=offset)
