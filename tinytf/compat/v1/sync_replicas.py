"""`tf.compat.v1.train.SyncReplicasOptimizer`, built as TF builds it: each replica's train op applies its
gradients to one ConditionalAccumulator per variable (stamped with the replica's local step, so stale ones are
dropped) and then waits for a token; the chief's queue runner takes `replicas_to_aggregate` gradients from each
accumulator, applies their mean with the wrapped optimizer (advancing the global step), and hands out tokens
stamped with the new global step. On one machine with one replica (replicas_to_aggregate=1) it trains as the
wrapped optimizer does, one step behind its token. `make_session_run_hook(is_chief)` starts it in a session."""

from __future__ import annotations

import numpy as np

from tinytf.runtime.ops.array import fill

from ...control_dependencies import control_dependencies
from ...indexed_slices import IndexedSlices
from ...queue import FIFOQueue
from ...scopes import name_scope
from .accumulators import ConditionalAccumulator, SparseConditionalAccumulator
from .initializers import zeros_initializer
from .ops import group
from .queue_runner import QueueRunner
from .session_run_hook import SessionRunHook
from .variable_scope import get_variable
from .variables import global_variables, report_uninitialized_variables


class SyncReplicasOptimizer:
    """Wraps `opt`: gradients of `replicas_to_aggregate` replicas are averaged before one update."""

    def __init__(self, opt, replicas_to_aggregate, total_num_replicas=None, variable_averages=None,
                 variables_to_average=None, use_locking=False, name="sync_replicas"):
        if total_num_replicas is None:
            total_num_replicas = replicas_to_aggregate
        if variable_averages is not None:
            raise NotImplementedError("SyncReplicasOptimizer: variable_averages is not supported by tinytf")
        self._opt = opt
        self._replicas_to_aggregate = replicas_to_aggregate
        self._total_num_replicas = total_num_replicas
        self._tokens_per_step = max(total_num_replicas, replicas_to_aggregate)
        self._name = name
        self._gradients_applied = False
        self._global_step = None
        self._sync_token_queue = None
        self._chief_queue_runner = None
        self._accumulator_list = []

    def compute_gradients(self, *args, **kwargs):
        return self._opt.compute_gradients(*args, **kwargs)

    def minimize(self, loss, global_step=None, var_list=None, name=None):
        return self.apply_gradients(self.compute_gradients(loss, var_list), global_step, name)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """The replica's train op: its gradients into the accumulators, then a token from the chief."""
        grads_and_vars = list(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("Must supply at least one variable")
        if global_step is None:
            raise ValueError("Global step is required to check staleness")
        self._global_step = global_step
        step_dtype = global_step.dtype
        self._local_step = get_variable("sync_rep_local_step", [], dtype=step_dtype, initializer=zeros_initializer(),
                                        trainable=False, collections=["local_variables"])
        self.local_step_init_op = self._local_step.assign(global_step)
        chief_init_ops = [self.local_step_init_op]
        self.ready_for_local_init_op = report_uninitialized_variables(global_variables())
        train_ops, aggregated, var_list = [], [], []
        with name_scope(self._name):
            for grad, var in grads_and_vars:
                var_list.append(var)
                if grad is None:
                    aggregated.append(None)
                    continue
                if isinstance(grad, IndexedSlices):
                    accumulator = SparseConditionalAccumulator(grad.dtype, shape=(), name=f"{var.name}/grad_accum")
                    train_ops.append(accumulator.apply_indexed_slices_grad(grad, local_step=self._local_step))
                    aggregated.append(accumulator.take_indexed_slices_grad(self._replicas_to_aggregate))
                else:
                    accumulator = ConditionalAccumulator(grad.dtype, shape=var.shape, name=f"{var.name}/grad_accum")
                    train_ops.append(accumulator.apply_grad(grad, local_step=self._local_step))
                    aggregated.append(accumulator.take_grad(self._replicas_to_aggregate))
                self._accumulator_list.append(accumulator)
        update_op = self._opt.apply_gradients(list(zip(aggregated, var_list)), global_step)
        self._sync_token_queue = FIFOQueue(-1, step_dtype, shapes=(), name="sync_token_q", shared_name="sync_token_q")
        with control_dependencies(train_ops):
            token = self._sync_token_queue.dequeue()
        train_op = self._local_step.assign(token)
        with control_dependencies([update_op]):
            tokens = fill([self._tokens_per_step], global_step)
            sync_op = self._sync_token_queue.enqueue_many((tokens,))
        self._chief_queue_runner = QueueRunner(self._sync_token_queue, [sync_op])
        for accumulator in self._accumulator_list:
            chief_init_ops.append(accumulator.set_global_step(global_step, name="SetGlobalStep"))
        self.chief_init_op = group(*chief_init_ops)
        self._gradients_applied = True
        return train_op

    def get_chief_queue_runner(self):
        if self._gradients_applied is False:
            raise ValueError("Should be called after apply_gradients().")
        return self._chief_queue_runner

    def get_init_tokens_op(self, num_tokens=-1):
        """An op putting `num_tokens` tokens (default replicas_to_aggregate) in the queue, so the first steps
        of the replicas need not wait for the chief."""
        if self._gradients_applied is False:
            raise ValueError("get_init_tokens_op() should be called after apply_gradients().")
        tokens_needed = self._replicas_to_aggregate - self._total_num_replicas
        if num_tokens == -1:
            num_tokens = self._replicas_to_aggregate
        elif num_tokens < tokens_needed:
            raise ValueError(f"Too few tokens to finish the first step: {num_tokens} (given) vs {tokens_needed} "
                             "(needed)")
        if num_tokens > 0:
            tokens = fill([num_tokens], self._global_step)
            return self._sync_token_queue.enqueue_many((tokens,))
        return group()

    def make_session_run_hook(self, is_chief, num_tokens=-1):
        return _SyncReplicasOptimizerHook(self, is_chief, num_tokens)

    def get_slot(self, *args, **kwargs):
        return self._opt.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._opt.get_slot_names(*args, **kwargs) if hasattr(self._opt, "get_slot_names") else []

    def variables(self):
        return self._opt.variables() if hasattr(self._opt, "variables") else []


class _SyncReplicasOptimizerHook(SessionRunHook):
    """Initializes the replica's local step (and, on the chief, the accumulators' global steps and the first
    tokens) when a session is made, and starts the chief's queue runner."""

    def __init__(self, sync_optimizer, is_chief, num_tokens):
        self._sync_optimizer = sync_optimizer
        self._is_chief = is_chief
        self._num_tokens = num_tokens

    def begin(self):
        optimizer = self._sync_optimizer
        if optimizer._gradients_applied is False:
            raise ValueError("SyncReplicasOptimizer.apply_gradient should be called before using the hook.")
        self._ready_for_local_init_op = optimizer.ready_for_local_init_op
        if self._is_chief:
            self._local_init_op = optimizer.chief_init_op
            self._q_runner = optimizer.get_chief_queue_runner()
            self._init_tokens_op = optimizer.get_init_tokens_op(self._num_tokens)
        else:
            self._local_init_op = optimizer.local_step_init_op
            self._q_runner = None
            self._init_tokens_op = None

    def after_create_session(self, session, coord):
        ready, message = _ready(self._ready_for_local_init_op, session)
        if not ready:
            raise RuntimeError(f"Init operations did not make model ready for SyncReplicasOptimizer local_init. "
                               f"Init op: {self._local_init_op.name}, error: {message}")
        session.run(self._local_init_op)
        if self._init_tokens_op is not None:
            session.run(self._init_tokens_op)
        if self._q_runner is not None:
            self._q_runner.create_threads(session, coord=coord, daemon=True, start=True)


def _ready(report_op, session):
    names = np.asarray(session.run(report_op))
    if names.size == 0:
        return True, None
    return False, "Variables not initialized: " + ", ".join(n.decode() if isinstance(n, bytes) else str(n)
                                                          for n in names.reshape(-1))


__all__ = ["SyncReplicasOptimizer"]
