"""compile / fit / evaluate / predict: Keras 3's training loop. The step (forward, loss, gradients, optimizer
update, metric updates) runs as one tf.function with reduce_retracing (one trace for the full batches, one
more generalized trace at most for a smaller last batch), or eagerly with run_eagerly=True. A step that
raises leaves the weights and the optimizer's state as they were before it."""

from __future__ import annotations

import contextlib
import warnings

import numpy as np

import tinytf as _tf
from tinytf.runtime import nest

from .. import losses as losses_module
from .. import metrics as metrics_module
from .. import optimizers as optimizers_module
from .. import serialization
from ..callbacks import CallbackList, History, ProgbarLogger
from ..callbacks.callback import flatten_callbacks, pythonify_logs
from . import data_adapter
from .compile_metrics import CompiledMetric, CompileMetrics
from .dataset_epochs import RAN_OUT_OF_DATA
from .state_snapshot import restore, snapshot
from .step_functions import BatchRelaxed, StepFunctions


def _begin_the_step_that_found_the_end(source, on_batch_begin, last_step) -> None:
    """TF's loops call on_*_batch_begin before the step function reads its batch, so an epoch that ends by
    reading past the end of data of unknown length (a filtered dataset, a generator) shows one more batch
    begin, numbered after the last step, with no batch end (tinytf/keras/models/dataset_epochs.py)."""
    if getattr(source, "found_end", False):
        on_batch_begin(last_step + 1)


def _capped_epochs(epochs):
    """fit's epochs under keras.config.set_max_epochs' cap (a debugging aid; Keras warns when it limits)."""
    from ..config import max_epochs

    cap = max_epochs()
    if cap and cap < epochs:
        warnings.warn(f"Limiting epochs to {cap}", stacklevel=3)
        return cap
    return epochs


def _finalizes(optimizer) -> bool:
    """Whether the optimizer's end-of-fit hook may do anything: the base class's only with use_ema; any other
    (a wrapper, a subclass's own) is called. Listing the trainable weights for it walks the whole model, which a
    short fit notices."""
    method = getattr(type(optimizer), "finalize_variable_values", None)
    if method is None:
        return False
    return method is not optimizers_module.Optimizer.finalize_variable_values or bool(
        getattr(optimizer, "use_ema", False))


def _validates_at(epoch: int, validation_freq) -> bool:
    """validation_freq=2: every second epoch; validation_freq=[1, 5]: after those (1-based) epochs."""
    if isinstance(validation_freq, int):
        return (epoch + 1) % validation_freq == 0
    return (epoch + 1) in validation_freq


def _serialized(value, module: str):
    """A compile argument as Keras 3 stores it in compile_config: names as given, objects as their configs."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        return [_serialized(item, module) for item in value]
    if isinstance(value, dict) and "class_name" not in value:
        return {key: _serialized(item, module) for key, item in value.items()}
    if hasattr(value, "get_config"):
        return serialization.serialize(value, module)
    return getattr(value, "__name__", str(value))


def compile_config(optimizer, loss, loss_weights, metrics, weighted_metrics, run_eagerly, steps_per_execution,
                   jit_compile) -> dict:
    """What a .keras file keeps of compile() (config.json's "compile_config"), so load_model compiles again."""
    return {"optimizer": serialization.serialize(optimizer, "keras.optimizers"),
            "loss": _serialized(loss, "keras.losses"), "loss_weights": _serialized(loss_weights, "keras.losses"),
            "metrics": _serialized(metrics, "keras.metrics"),
            "weighted_metrics": _serialized(weighted_metrics, "keras.metrics"), "run_eagerly": bool(run_eagerly),
            "steps_per_execution": steps_per_execution,
            "jit_compile": jit_compile if isinstance(jit_compile, bool) else False}




class Trainer:
    """The training half of keras.Model."""

    # --- compile -----------------------------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None, metrics=None, weighted_metrics=None,
                run_eagerly=False, steps_per_execution=1, jit_compile="auto", auto_scale_loss=True) -> None:
        """Choose the optimizer, loss and metrics (by name or object) that fit and evaluate use."""
        self.optimizer = optimizers_module.get(optimizer)
        unwrapped_optimizer = self.optimizer
        if auto_scale_loss and self.dtype_policy.name == "mixed_float16" and self.optimizer is not None and \
                not isinstance(self.optimizer, optimizers_module.LossScaleOptimizer):
            # Keras 3: float16 gradients underflow without loss scaling, so a mixed_float16 model scales by default
            self.optimizer = optimizers_module.LossScaleOptimizer(self.optimizer, name="loss_scale_optimizer")
        self.loss = loss
        self._loss_error = None
        try:
            self._compiled_loss = self._resolve_loss(loss)
        except ValueError as error:  # Keras 3 reports an unknown loss when it is first used, not at compile
            self._compiled_loss, self._loss_error = None, error
        self._loss_weights = loss_weights
        self._compiled_metrics = [CompiledMetric(m) for m in (metrics or [])]
        self._weighted_metrics = [CompiledMetric(m) for m in (weighted_metrics or [])]
        self._loss_tracker = metrics_module.Mean(name="loss")
        self._compile_metrics = CompileMetrics(self._compiled_metrics, self._weighted_metrics) \
            if self._compiled_metrics or self._weighted_metrics else None
        self._output_loss_trackers = None  # "<output>_loss" means, made on the first step of a multi-output model
        self.run_eagerly = run_eagerly
        if not isinstance(steps_per_execution, int) or isinstance(steps_per_execution, bool) or \
                steps_per_execution < 1:
            raise ValueError(f"`steps_per_execution` must be a positive integer. Received: "
                             f"steps_per_execution={steps_per_execution}")
        self.steps_per_execution = steps_per_execution
        # XLA does not exist here: the step is the same tf.function either way. The value is kept as Keras 3
        # resolves it ("auto" is False on a CPU-only machine; run_eagerly disables it with Keras' warning).
        if jit_compile == "auto":
            jit_compile = False
        if jit_compile and run_eagerly:
            warnings.warn("If `run_eagerly` is True, then `jit_compile` cannot also be True. Disabling "
                          "`jit_compile`.", stacklevel=2)
            jit_compile = False
        self.jit_compile = bool(jit_compile)
        self.compiled = True
        self.stop_training = False
        self._train_function = self._test_function = self._predict_function = None
        self._train_multi_function = self._test_multi_function = None
        # serialized when a file is written, as Keras does: compile() accepts what cannot be saved (a custom
        # LearningRateSchedule without get_config); only saving such a model fails
        self._compile_arguments = (unwrapped_optimizer, loss, loss_weights, metrics, weighted_metrics, run_eagerly,
                                   steps_per_execution, jit_compile)

    def get_compile_config(self):
        """The compile() arguments as a .keras file keeps them (None before compile), Keras 3's method."""
        arguments = getattr(self, "_compile_arguments", None)
        return None if arguments is None else compile_config(*arguments)

    @staticmethod
    def _resolve_loss(loss):
        if loss is None:
            return None
        if isinstance(loss, (list, tuple)):
            return [Trainer._resolve_loss(item) for item in loss]
        if isinstance(loss, dict) and "class_name" not in loss:  # per output; a loss's config has a class_name
            return {key: Trainer._resolve_loss(item) for key, item in loss.items()}
        resolved = losses_module.get(loss)
        if isinstance(resolved, losses_module.Loss):
            return resolved
        # a loss given by name is named as given ("mse"), as Keras 3 names its per-output "mse_loss" logs
        name = loss if isinstance(loss, str) else getattr(resolved, "__name__", None)
        return losses_module.LossFunctionWrapper(resolved, name=name)

    @property
    def metrics(self) -> list:
        """Keras 3's list: the loss tracker, then "compile_metrics" holding compile's metrics."""
        if not getattr(self, "compiled", False):
            return []
        return [self._loss_tracker] + ([self._compile_metrics] if self._compile_metrics is not None else []) + \
            list(self._output_loss_trackers or [])

    def _flat_metrics(self) -> list:
        """The loss tracker and each concrete compiled metric: the metrics whose state fit logs and combines
        across replicas."""
        if not getattr(self, "compiled", False):
            return []
        built = self._compile_metrics.built_metrics if self._compile_metrics is not None else []
        return [self._loss_tracker, *built, *(self._output_loss_trackers or [])]

    @property
    def metrics_names(self) -> list:
        names = ["loss"]
        if self._compiled_metrics or self._weighted_metrics:
            names.append("compile_metrics")
        return names

    def _require_compiled(self, what: str) -> None:
        if not getattr(self, "compiled", False):
            raise ValueError(f"You must call `compile()` before using the model for {what}.")
        if self._loss_error is not None:
            raise self._loss_error

    # --- the steps ---------------------------------------------------------------------------------------------
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The compiled loss (per output, weighted) plus the model's added and regularization losses. With
        several outputs, each output's unweighted loss is tracked as "<output>_loss", as Keras 3 logs it."""
        total = None
        if self._compiled_loss is not None:
            parts = self._output_losses(y, y_pred, sample_weight)
            total = _tf.add_n([weight * value for _, value, weight, _ in parts])
            if len(parts) > 1:
                self._track_output_losses(parts)
        extra = self.losses
        if extra:
            extra_sum = _tf.add_n([_tf.cast(v, _tf.float32) for v in extra])
            total = extra_sum if total is None else total + extra_sum
        if total is None:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        return total

    def _output_names(self, count: int, losses) -> list:
        """A Functional model's output layer names; otherwise (Keras 3) each output's loss name."""
        outputs = getattr(self, "_flat_outputs", None)
        if outputs and len(outputs) == count:
            return [t._keras_history[0].name for t in outputs]
        return [getattr(fn, "name", None) for fn in losses]

    def _output_losses(self, y, y_pred, sample_weight) -> list:
        """[(output name, unweighted loss, loss weight, prediction)] in the compiled loss's order."""
        compiled, weights = self._compiled_loss, self._loss_weights
        if isinstance(compiled, list):
            weights = weights or [1.0] * len(compiled)
            names = self._output_names(len(compiled), compiled)
            return [(name, fn(t, p, sample_weight), w, p) for fn, t, p, w, name in
                    zip(compiled, nest.flatten(y), nest.flatten(y_pred), weights, names)]
        if isinstance(compiled, dict):
            weights = weights or {}
            return [(k, fn(y[k], y_pred[k], sample_weight), weights.get(k, 1.0), y_pred[k])
                    for k, fn in compiled.items()]
        flat_true, flat_pred = nest.flatten(y), nest.flatten(y_pred)
        names = sorted(y_pred) if isinstance(y_pred, dict) else self._output_names(len(flat_pred),
                                                                                    [compiled] * len(flat_pred))
        return [(name, compiled(t, p, sample_weight), 1.0, p) for t, p, name in zip(flat_true, flat_pred, names)]

    def _track_output_losses(self, parts) -> None:
        if self._output_loss_trackers is None:
            self._output_loss_trackers = [metrics_module.Mean(name=f"{name}_loss") for name, _, _, _ in parts]
        for tracker, (_, value, _, prediction) in zip(self._output_loss_trackers, parts):
            tracker.update_state(value, sample_weight=self._batch_size(prediction))

    def compute_metrics(self, x, y, y_pred, sample_weight=None) -> dict:
        if self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self) -> dict:
        """The current metric results (loss first), as tensors; a metric whose result is a dict (such as
        compile_metrics) gives its entries."""
        results = {}
        for metric in self.metrics:
            result = metric.result()
            if isinstance(result, dict):
                results.update(result)
            else:
                results[metric.name] = result
        return results

    def _batch_size(self, x):
        first = nest.flatten(x)[0]
        if isinstance(first, _tf.sparse.SparseTensor):  # keras.Input(sparse=True) data
            return _tf.cast(first.dense_shape[0], _tf.float32)
        return _tf.cast(_tf.shape(first)[0], _tf.float32)

    def _build_from_data(self, batches) -> None:
        """Keras 3 builds a model that is not built yet symbolically from the data's shapes, batch None, before
        the first step (its summary then shows (None, ...)): done here for a Sequential without an Input."""
        from .sequential import Sequential

        if not isinstance(self, Sequential) or self.built:
            return
        shape = batches.sample_shape() if hasattr(batches, "sample_shape") else None
        if shape is not None and None not in shape:
            with self._strategy_scope():  # Keras 3 builds under distribute_strategy.scope()
                self.build((None, *shape))

    def _active_strategy(self):
        """The strategy fit runs under (None: the default one): the model's own, else a current scope's, as
        Keras 3's `distribute_strategy` falls back to tf.distribute.get_strategy()."""
        strategy = getattr(self, "_distribute_strategy", None)
        if strategy is None and _tf.distribute.has_strategy():
            strategy = _tf.distribute.get_strategy()
        return strategy

    def _strategy_scope(self):
        """The scope Keras 3's steps run in (distribute_strategy.run): the strategy current when the model was
        made. A model made outside any scope runs under the strategy current at the call (nothing to enter).
        Only then does an optimizer made under another strategy (or none) meet TF's colocate_vars_with check
        when it makes its slots (optimizer.py)."""
        strategy = self._active_strategy()
        if strategy is None or _tf.distribute.get_strategy() is strategy:
            return contextlib.nullcontext()
        return strategy.scope()

    def train_step(self, data):
        """One optimization step on a batch: override to customize fit."""
        x, y, sample_weight = data_adapter.unpack(data)
        with _tf.GradientTape() as tape:
            # Keras 3 passes training only to a call() that takes it: a subclassed model whose call has no
            # `training` runs its layers in inference mode in fit too (its Dropouts drop nothing), as in TF
            y_pred = self(x, training=True) if self._call_has_training else self(x)
            loss = self.compute_loss(x, y, y_pred, sample_weight, training=True)
            scaled_loss = self.optimizer.scale_loss(loss)  # LossScaleOptimizer's scale (Keras 3); else the loss
        variables = self.trainable_variables
        gradients = tape.gradient(scaled_loss, variables)
        self.optimizer.apply_gradients(zip(gradients, variables))
        self._loss_tracker.update_state(loss, sample_weight=self._batch_size(x))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data):
        """One evaluation step on a batch: override to customize evaluate."""
        x, y, sample_weight = data_adapter.unpack(data)
        y_pred = self(x, training=False) if self._call_has_training else self(x)
        loss = self.compute_loss(x, y, y_pred, sample_weight, training=False)
        self._loss_tracker.update_state(loss, sample_weight=self._batch_size(x))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        """The model's output for a batch: override to customize predict."""
        x, _, _ = data_adapter.unpack(data)
        return self(x, training=False) if self._call_has_training else self(x)

    def _step_function(self, kind: str) -> StepFunctions:
        """The step as tf.functions of flat tensors, one per batch structure (the plain method with
        run_eagerly). Called with a structured batch, it flattens it."""
        attribute = f"_{kind}_function"
        existing = getattr(self, attribute, None)
        if existing is not None:
            return existing
        method = getattr(self, f"{kind}_step")

        def one_step(data):
            with self._strategy_scope():
                return method(data)

        function = StepFunctions(one_step, eager=getattr(self, "run_eagerly", False))
        setattr(self, attribute, function)
        return function

    def _multi_step_function(self, kind: str) -> StepFunctions:
        """steps_per_execution > 1: one tf.function call runs the step on each of a tuple of batches in turn
        (the steps unrolled in one graph, as Keras runs N steps per execution). Train and test return the last
        logs; predict returns the outputs of the steps joined along the batch axis, as Keras 3 does."""
        attribute = f"_{kind}_multi_function"
        existing = getattr(self, attribute, None)
        if existing is not None:
            return existing
        method = getattr(self, f"{kind}_step")

        if kind == "predict":
            def steps(batches):
                with self._strategy_scope():
                    outputs = [method(data) for data in batches]
                return nest.map_structure(lambda *parts: _tf.concat(parts, axis=0), *outputs)
        else:
            def steps(batches):
                logs = None
                with self._strategy_scope():
                    for data in batches:
                        logs = method(data)
                return logs

        function = StepFunctions(steps, eager=getattr(self, "run_eagerly", False))
        setattr(self, attribute, function)
        return function

    def _executions(self, source, kind: str):
        """(first step, last step, function, leaves) per execution: steps_per_execution batches at a time, their
        tensors flat, and the function that runs them (looked up again only when the batches' structure
        changes: arrays keep one template object for every batch)."""
        size = getattr(self, "steps_per_execution", 1) or 1
        single, multi = self._step_function(kind), None
        # fit and evaluate trace their step for any batch size, as Keras 3 traces it from the tf.data element
        # spec (batch None): call() sees (None, ...) and the last short batch does not retrace; predict does not
        relax = kind != "predict" and getattr(source, "batch_size_varies", lambda: True)()
        template = function = None
        batches = source.flat_batches()
        replicated = self._replicated_step()
        if replicated is not None:  # MirroredStrategy: each batch split over the replicas, one step per call
            for step, (batch_template, leaves) in enumerate(batches):
                if batch_template is not template:
                    template, function = batch_template, replicated(self, kind, single.for_template(batch_template))
                    if getattr(source, "worker_pipeline", False):  # this worker's own batches: not sliced
                        function = function.own_batches()
                yield step, step, function, leaves
            return
        if size == 1:
            for step, (batch_template, leaves) in enumerate(batches):
                if batch_template is not template:
                    template, function = batch_template, single.for_template(batch_template, relax)
                yield step, step, function, leaves
                if type(function) is BatchRelaxed and function.traced:  # its trace serves any batch: no wrapper
                    function = function.function
            return
        multi = self._multi_step_function(kind)
        templates, leaves, first = [], [], 0
        for step, (batch_template, batch_leaves) in enumerate(batches):
            if not templates:
                first = step
            templates.append(batch_template)
            leaves.extend(batch_leaves)
            if len(templates) == size:
                if template is None or any(t is not u for t, u in zip(templates, template)):
                    template = tuple(templates)  # it keeps its templates alive: `is` stays meaningful
                    function = multi.for_template(template, relax)
                yield first, step, function, leaves
                templates, leaves = [], []
        if templates:  # a short last execution still reports first + N - 1 as its last step, as Keras 3 does
            short = single.for_template(templates[0], relax) if len(templates) == 1 else \
                multi.for_template(tuple(templates), relax)  # one batch left: the single step's trace serves it
            yield first, first + size - 1, short, leaves

    @property
    def distribute_strategy(self):
        """The strategy the model was made under (Keras' model.distribute_strategy), else the current one."""
        return getattr(self, "_distribute_strategy", None) or _tf.distribute.get_strategy()

    def _worker_input(self, x):
        """(x, whether it is this worker's own pipeline): under MultiWorkerMirroredStrategy with several
        workers, a dataset whose auto-shard policy shards the pipeline (FILE, HINT, OFF) becomes this worker's
        part of it; anything else stays, and every worker slices the global batches (DATA)."""
        strategy = self._active_strategy()
        worker_input = getattr(strategy, "_keras_worker_input", None)
        if worker_input is None or strategy.num_replicas_in_sync < 2:
            return x, False
        return worker_input(x)

    def _replicated_step(self):
        """The strategy's step wrapper when the model was compiled under a strategy whose replicas share this
        process (MirroredStrategy with several devices), else None."""
        strategy = self._active_strategy()
        # ParameterServerStrategy (one replica) wraps every step too: TF 2.21's Keras refuses its fit/evaluate
        wraps = getattr(strategy, "_wraps_keras_steps", False)
        if strategy is None or (strategy.num_replicas_in_sync < 2 and not wraps):
            return None
        return getattr(strategy, "_keras_step", None)

    def _state_variables(self) -> list:
        optimizer_variables = list(getattr(self.optimizer, "variables", []) or [])
        return list(self.weights) + optimizer_variables

    def _run_train_step(self, data, state=None):
        """The train step on one structured batch; if it raises, the weights and optimizer state are put back."""
        state = self._state_variables() if state is None else state
        saved = snapshot(state)
        try:
            return self._step_function("train")(data)
        except BaseException:
            restore(state, saved)
            raise

    # --- fit ---------------------------------------------------------------------------------------------------
    def _callbacks(self, callbacks, verbose, **params) -> CallbackList:
        callbacks = flatten_callbacks(callbacks)
        if verbose and not any(isinstance(c, ProgbarLogger) for c in callbacks):
            callbacks.append(ProgbarLogger())
        return CallbackList(callbacks, model=self, verbose=verbose, **params)

    def _metrics_result_or_logs(self, logs) -> dict:
        """The metrics' results, unless a custom step returned logs with other keys: then its last logs
        (Keras 3's rule, so a train_step returning {"loss": ..., "compile_metrics": {...}} logs those)."""
        strategy = self._active_strategy()
        across_workers = getattr(strategy, "_keras_metrics_result", None)  # MultiWorkerMirroredStrategy
        results = across_workers(self) if across_workers is not None else self.get_metrics_result()
        if isinstance(logs, dict) and set(logs) != set(results):
            return logs
        return results

    @staticmethod
    def _python_logs(logs: dict) -> dict:
        return pythonify_logs(logs)

    @staticmethod
    def _verbose(verbose):
        return 1 if verbose == "auto" else verbose

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None, validation_split=0.0,
            validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
            steps_per_epoch=None, validation_steps=None, validation_batch_size=None, validation_freq=1):
        """Train for `epochs` epochs; returns the History."""
        self._require_compiled("training")
        strategy = self._active_strategy()
        if strategy is not None and hasattr(strategy, "_fit"):  # e.g. RayStrategy: the workers train
            with self._strategy_scope():  # under the model's strategy, as every step is (the slots built here)
                return strategy._fit(self, x, y, batch_size, epochs, verbose, callbacks, shuffle, sample_weight,
                                     class_weight, initial_epoch, steps_per_epoch, validation_split=validation_split,
                                     validation_data=validation_data, validation_steps=validation_steps,
                                     validation_batch_size=validation_batch_size, validation_freq=validation_freq)
        verbose = self._verbose(verbose)
        epochs = _capped_epochs(epochs)
        if validation_split and validation_data is None:
            (x, y, sample_weight), validation_data = data_adapter.split_validation(x, y, sample_weight,
                                                                                   validation_split)
        x, own = self._worker_input(x)
        train = data_adapter.make_batches(x, y, sample_weight, batch_size, shuffle, class_weight, steps_per_epoch)
        train.worker_pipeline = own
        self._build_from_data(train)
        history = History()
        callback_list = self._callbacks([*flatten_callbacks(callbacks), history], verbose, epochs=epochs,
                                        steps=train.steps)
        self.stop_training = False
        callback_list.on_train_begin()
        initial_epoch = getattr(self, "_initial_epoch", None) or initial_epoch  # BackupAndRestore resumes here
        logs = {}
        state = None  # the guarded variables, collected once the optimizer has made its slots
        for epoch in range(initial_epoch, epochs):
            self._reset_metrics()
            callback_list.on_epoch_begin(epoch)
            step = -1
            for first, step, function, leaves in self._executions(train, "train"):
                callback_list.on_train_batch_begin(first)
                # A failed step leaves weights and optimizer state as they were. Values are replaced on
                # assignment, never changed in place, so the arrays themselves are the backup: no copy.
                guarded = state if state is not None else self._state_variables()
                saved = snapshot(guarded)
                try:
                    logs = function(*leaves)
                except BaseException:
                    restore(guarded, saved)
                    raise
                if state is None:
                    state = self._state_variables()
                callback_list.on_train_batch_end(step, logs)  # made Python numbers only if a callback reads them
                if self.stop_training:
                    break
            else:
                _begin_the_step_that_found_the_end(train, callback_list.on_train_batch_begin, step)
            if step < 0 and not getattr(train, "warns_when_out_of_data", False):
                # Keras 3 warns, trains nothing this epoch and goes on (its history stays empty)
                warnings.warn(RAN_OUT_OF_DATA, stacklevel=2)
            epoch_logs = dict(self._metrics_result_or_logs(logs))  # made Python numbers (sorted) by the callbacks
            if validation_data is not None and _validates_at(epoch, validation_freq):
                vx, vy, vsw = data_adapter.unpack(validation_data) if isinstance(validation_data, tuple) else (
                    validation_data, None, None)
                val_logs = self.evaluate(vx, vy, sample_weight=vsw, batch_size=validation_batch_size or batch_size,
                                         steps=validation_steps, verbose=0, return_dict=True, _internal=True,
                                         callbacks=callback_list)
                epoch_logs.update({f"val_{k}": v for k, v in sorted(val_logs.items())})
            callback_list.on_epoch_end(epoch, epoch_logs)
            logs = epoch_logs
            if self.stop_training:
                break
        if epochs > 0 and _finalizes(self.optimizer):  # use_ema: the weights take their moving averages (Keras 3)
            self.optimizer.finalize_variable_values(self.trainable_weights)
        callback_list.on_train_end(logs)
        self.history = history
        history.params = {"verbose": verbose, "epochs": epochs, "steps": train.steps}
        return history

    def _reset_metrics(self) -> None:
        for metric in self.metrics:
            metric.reset_state()

    def reset_metrics(self) -> None:
        self._reset_metrics()

    # --- evaluate / predict ------------------------------------------------------------------------------------
    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None, steps=None,
                 callbacks=None, return_dict=False, _internal=False, **kwargs):
        """The loss and metrics on the data: a list [loss, metric...], or a dict with return_dict."""
        self._require_compiled("evaluation")
        verbose = self._verbose(verbose)
        x, own = self._worker_input(x)
        batches = data_adapter.make_batches(x, y, sample_weight, batch_size, False, None, steps)
        batches.worker_pipeline = own
        self._build_from_data(batches)
        if isinstance(callbacks, CallbackList):  # fit's own list, for validation: its callbacks see the test hooks
            callback_list = callbacks
        else:
            callback_list = self._callbacks(callbacks if not _internal else [], verbose, steps=batches.steps,
                                            is_evaluate=not _internal)
        self._reset_metrics()  # inside fit too: after validation the metrics hold its results, as in Keras 3
        callback_list.on_test_begin()
        logs = None
        step = -1
        for first, step, function, leaves in self._executions(batches, "test"):
            callback_list.on_test_batch_begin(first)
            logs = function(*leaves)
            callback_list.on_test_batch_end(step, logs)
        _begin_the_step_that_found_the_end(batches, callback_list.on_test_batch_begin, step)
        # no batch at all (an empty validation set): Keras 3's logs stay {}, so fit logs no val_ entries
        logs = {} if logs is None else self._python_logs(self._metrics_result_or_logs(logs))
        callback_list.on_test_end(logs)
        return self._batch_result(logs, return_dict)

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """The model's outputs for every sample, as numpy arrays (same structure as the outputs)."""
        verbose = self._verbose(verbose)
        if data_adapter.is_array_like(x) or isinstance(x, dict):
            data_adapter.refuse_python_values(x)
            batches = data_adapter.ArrayBatches(x, batch_size=batch_size, steps=data_adapter.capped_steps(steps))
        else:
            batches = data_adapter.make_batches(x, steps=steps)
        callback_list = self._callbacks(callbacks, verbose, steps=batches.steps)
        self.stop_predicting = False
        callback_list.on_predict_begin()
        outputs = []
        step = -1
        for first, step, function, leaves in self._executions(batches, "predict"):
            callback_list.on_predict_batch_begin(first)
            result = function(*leaves)
            outputs.append(nest.map_structure(lambda t: np.asarray(t.numpy()), result))
            callback_list.on_predict_batch_end(step, {"outputs": result})
            if self.stop_predicting:
                break
        else:
            _begin_the_step_that_found_the_end(batches, callback_list.on_predict_batch_begin, step)
        callback_list.on_predict_end()
        if not outputs:
            raise ValueError("Unexpected result of `predict_function` (Empty batch_outputs). Please use "
                             "`Model.compile(..., run_eagerly=True)`, or `tf.config.run_functions_eagerly(True)` "
                             "for more information of where went wrong, or file a issue/bug to `keras`.")
        return nest.map_structure(lambda *parts: np.concatenate(parts, axis=0), *outputs)

    # --- single batches ----------------------------------------------------------------------------------------
    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, return_dict=False):
        self._require_compiled("training")
        self._reset_metrics()
        batches = data_adapter.ArrayBatches(x, y, sample_weight, batch_size=len(nest.flatten(
            nest.map_structure(data_adapter._to_numpy, x))[0]), class_weight=class_weight, numpy_strings=True)
        bx, by, bsw = next(batches.batches())
        logs = self._python_logs(self._run_train_step(data_adapter.batch_tuple(bx, by, bsw)))
        return self._batch_result(logs, return_dict)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        self._require_compiled("evaluation")
        self._reset_metrics()
        batches = data_adapter.ArrayBatches(x, y, sample_weight, batch_size=len(nest.flatten(
            nest.map_structure(data_adapter._to_numpy, x))[0]), numpy_strings=True)
        bx, by, bsw = next(batches.batches())
        logs = self._python_logs(self._step_function("test")(data_adapter.batch_tuple(bx, by, bsw)))
        return self._batch_result(logs, return_dict)

    def predict_on_batch(self, x):
        x = nest.map_structure(data_adapter.to_tensor, x)
        return nest.map_structure(lambda t: np.asarray(t.numpy()), self._step_function("predict")((x,)))

    def _batch_result(self, logs, return_dict):
        """Logs as a dict, or (Keras 3's order) a list: the metrics in `model.metrics` order (compile's metrics
        in theirs), then any other entry by name; one value alone is returned bare."""
        if return_dict:
            return dict(sorted(logs.items()))
        names = []
        for metric in self.metrics:
            names.extend(m.name for m in metric.built_metrics) if isinstance(metric, CompileMetrics) else \
                names.append(metric.name)
        values = [logs[name] for name in names if name in logs] + [logs[k] for k in sorted(logs) if k not in names]
        return values[0] if len(values) == 1 else values
