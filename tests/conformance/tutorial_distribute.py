"""TF's distributed-training tutorials (site/en/tutorials/distribute: keras, custom_training, input,
save_and_load) on MirroredStrategy, as their code is written, at tiny sizes: synthetic MNIST-shaped data in
place of the downloads (no internet), fixed weights in place of random initializers, no shuffle. Each program
returns the numbers the tutorial prints (losses, accuracies, predictions) so that tinytf's are compared with
TF 2.21's."""

from __future__ import annotations

import os
import pathlib
import tempfile

import numpy as np

from . import data, fixed_weights, outcome, program

IMAGES = (np.abs(data((80, 28, 28, 1), scale=255.0)).astype(np.uint8))
LABELS = (np.arange(80) * 7 % 10).astype(np.int64)


def _round(values):
    return [float(v) for v in values]


def _mnist(tf, strategy, batch_per_replica=16):
    def scale(image, label):
        image = tf.cast(image, tf.float32)
        image /= 255
        return image, label

    batch = batch_per_replica * strategy.num_replicas_in_sync
    train = tf.data.Dataset.from_tensor_slices((IMAGES[:64], LABELS[:64])).map(scale).cache().batch(batch)
    test = tf.data.Dataset.from_tensor_slices((IMAGES[64:], LABELS[64:])).map(scale).batch(batch)
    return train, test


def _conv_model(tf, strategy, optimizer, metrics):
    """The tutorials' model, made and compiled under the strategy's scope (its optimizer too: `optimizer` is a
    factory, since an optimizer made outside the scope is another strategy's, which TF refuses)."""
    with strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.Input((28, 28, 1)),
            tf.keras.layers.Conv2D(4, 3, activation="relu"), tf.keras.layers.MaxPooling2D(),
            tf.keras.layers.Flatten(), tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(10)])
        fixed_weights(model, scale=0.1)
        model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), optimizer=optimizer(),
                      metrics=metrics)
    return model


@program
def p_tutorial_distribute_keras_fit_checkpoints_and_reload(tf):
    strategy = tf.distribute.MirroredStrategy()
    train, test = _mnist(tf, strategy)
    model = _conv_model(tf, strategy, lambda: tf.keras.optimizers.Adam(learning_rate=0.001), ["accuracy"])

    def decay(epoch):
        return 1e-3 if epoch < 2 else 1e-4

    printed_rates = []

    class PrintLR(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            printed_rates.append(float(model.optimizer.learning_rate.numpy()))

    with tempfile.TemporaryDirectory() as folder:
        prefix = os.path.join(folder, "training_checkpoints", "ckpt_{epoch:04d}.weights.h5")
        callbacks = [tf.keras.callbacks.TensorBoard(log_dir=os.path.join(folder, "logs")),
                     tf.keras.callbacks.ModelCheckpoint(filepath=prefix, save_weights_only=True),
                     tf.keras.callbacks.LearningRateScheduler(decay), PrintLR()]
        history = model.fit(train, epochs=3, callbacks=callbacks, verbose=0).history
        checkpoints = sorted(p.name for p in pathlib.Path(folder, "training_checkpoints").glob("*"))
        model.load_weights(os.path.join(folder, "training_checkpoints", checkpoints[-1]))
        evaluated = model.evaluate(test, verbose=0)
        path = os.path.join(folder, "my_model.keras")
        model.save(path)
        unreplicated = tf.keras.models.load_model(path)
        unreplicated.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                             optimizer=tf.keras.optimizers.Adam(), metrics=["accuracy"])
        with strategy.scope():
            replicated = tf.keras.models.load_model(path)
            replicated.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                               optimizer=tf.keras.optimizers.Adam(), metrics=["accuracy"])
            replicated_eval = replicated.evaluate(test, verbose=0)
        logs = sorted(os.listdir(os.path.join(folder, "logs")))
    return [{k: _round(v) for k, v in sorted(history.items())}, printed_rates, checkpoints, _round(evaluated),
            _round(unreplicated.evaluate(test, verbose=0)), _round(replicated_eval), logs]


@program
def p_tutorial_distribute_custom_training_loop(tf):
    strategy = tf.distribute.MirroredStrategy()
    images = IMAGES[..., 0][..., None] / np.float32(255)
    batch = 16 * strategy.num_replicas_in_sync
    train_dist = strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices((images[:64], LABELS[:64])).batch(batch))
    test_dist = strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices((images[64:], LABELS[64:])).batch(batch))

    def create_model():
        regularizer = tf.keras.regularizers.L2(1e-5)
        return tf.keras.Sequential([
            tf.keras.layers.Conv2D(4, 3, activation="relu", kernel_regularizer=regularizer),
            tf.keras.layers.MaxPooling2D(), tf.keras.layers.Flatten(),
            tf.keras.layers.Dense(8, activation="relu", kernel_regularizer=regularizer),
            tf.keras.layers.Dense(10, kernel_regularizer=regularizer)])

    with strategy.scope():
        loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True,
                                                                    reduction=tf.keras.losses.Reduction.NONE)

        def compute_loss(labels, predictions, model_losses):
            loss = tf.nn.compute_average_loss(loss_object(labels, predictions))
            if model_losses:
                loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))
            return loss

        test_loss = tf.keras.metrics.Mean(name="test_loss")
        train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")
        test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="test_accuracy")
        model = create_model()
        model.build((None, 28, 28, 1))
        fixed_weights(model, scale=0.1)
        optimizer = tf.keras.optimizers.Adam(learning_rate=0.001)
        checkpoint = tf.train.Checkpoint(optimizer=optimizer, model=model)

    def train_step(inputs):
        images, labels = inputs
        with tf.GradientTape() as tape:
            predictions = model(images, training=True)
            loss = compute_loss(labels, predictions, model.losses)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        train_accuracy.update_state(labels, predictions)
        return loss

    def test_step(inputs):
        images, labels = inputs
        predictions = model(images, training=False)
        test_loss.update_state(loss_object(labels, predictions))
        test_accuracy.update_state(labels, predictions)

    @tf.function
    def distributed_train_step(dataset_inputs):
        per_replica_losses = strategy.run(train_step, args=(dataset_inputs,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)

    @tf.function
    def distributed_test_step(dataset_inputs):
        return strategy.run(test_step, args=(dataset_inputs,))

    epochs = []
    with tempfile.TemporaryDirectory() as folder:
        prefix = os.path.join(folder, "ckpt")
        for epoch in range(2):
            total_loss, num_batches = 0.0, 0
            for x in train_dist:
                total_loss += distributed_train_step(x)
                num_batches += 1
            for x in test_dist:
                distributed_test_step(x)
            if epoch % 2 == 0:
                checkpoint.save(prefix)
            epochs.append(_round([total_loss / num_batches, train_accuracy.result() * 100, test_loss.result(),
                                  test_accuracy.result() * 100]))
            for metric in (test_loss, train_accuracy, test_accuracy):
                metric.reset_state()

        eval_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="eval_accuracy")
        new_model = create_model()
        new_optimizer = tf.keras.optimizers.Adam()

        @tf.function
        def eval_step(images, labels):
            eval_accuracy(labels, new_model(images, training=False))

        restored = tf.train.Checkpoint(optimizer=new_optimizer, model=new_model)
        restored.restore(tf.train.latest_checkpoint(folder))
        for images_batch, labels_batch in tf.data.Dataset.from_tensor_slices((images[64:], LABELS[64:])).batch(16):
            eval_step(images_batch, labels_batch)
        latest = os.path.basename(tf.train.latest_checkpoint(folder))

    @tf.function
    def distributed_train_epoch(dataset):
        total_loss, num_batches = 0.0, 0
        for x in dataset:
            per_replica_losses = strategy.run(train_step, args=(x,))
            total_loss += strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)
            num_batches += 1
        return total_loss / tf.cast(num_batches, dtype=tf.float32)

    in_graph = _round([distributed_train_epoch(train_dist) for _ in range(2)])
    return [epochs, latest, float(eval_accuracy.result()) * 100, in_graph]


@program
def p_tutorial_distribute_input_pipelines(tf):
    strategy = tf.distribute.MirroredStrategy()
    out = []
    dataset = tf.data.Dataset.from_tensors(([1.0], [1.0])).repeat(100).batch(16)
    dist_dataset = strategy.experimental_distribute_dataset(dataset)
    first = next(iter(dist_dataset))
    out.append([t.numpy().shape for t in first])

    def dataset_fn(input_context):
        batch_size = input_context.get_per_replica_batch_size(16)
        d = tf.data.Dataset.from_tensors(([1.0], [1.0])).repeat(64).batch(16)
        d = d.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
        return d.batch(batch_size).prefetch(2)

    out.append(sum(1 for _ in strategy.distribute_datasets_from_function(dataset_fn)))

    @tf.function
    def train_step(inputs):
        features, labels = inputs
        return labels - 0.3 * features

    out.append([float(tf.reduce_sum(strategy.run(train_step, args=(x,)))) for x in dist_dataset])

    @tf.function
    def train_fn(distributed_iterator):
        total = tf.constant(0, tf.int64)
        for _ in tf.range(5):
            optional_data = distributed_iterator.get_next_as_optional()
            if not optional_data.has_value():
                break
            per_replica_results = strategy.run(lambda x: x, args=(optional_data.get_value(),))
            total += tf.reduce_sum(strategy.experimental_local_results(per_replica_results)[0])
        return total

    out.append(int(train_fn(iter(strategy.experimental_distribute_dataset(tf.data.Dataset.range(9).batch(4))))))

    @tf.function(input_signature=[dist_dataset.element_spec])
    def doubled(per_replica_inputs):
        return strategy.run(lambda inputs: 2 * inputs, args=(per_replica_inputs,))

    out.append([float(tf.reduce_sum(t)) for t in doubled(next(iter(dist_dataset)))])

    with strategy.scope():
        layer = tf.keras.layers.StringLookup(vocabulary=["a", "b", "c", "d", "f"])

    def lookup_fn(input_context):
        d = tf.data.Dataset.from_tensor_slices(["a", "c", "e"]).repeat()
        d = d.batch(input_context.get_per_replica_batch_size(4))
        d = d.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
        return d.map(lambda x: layer(x))

    lookups = iter(strategy.distribute_datasets_from_function(lookup_fn))
    out.append([next(lookups).numpy().tolist() for _ in range(3)])

    indexed = strategy.experimental_distribute_dataset(tf.data.Dataset.range(24).enumerate().batch(6))
    result = {}
    for index, inputs in indexed:
        output_index, outputs = strategy.run(lambda i, x: (i, 2 * x), args=(index, inputs))
        for i, value in zip(strategy.experimental_local_results(output_index)[0].numpy(),
                            strategy.experimental_local_results(outputs)[0].numpy()):
            result[int(i)] = int(value)
    out.append(sorted(result.items()))
    values = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(ctx.replica_id_in_sync_group))
    out.append(int(strategy.run(lambda x: x, args=(values,))))
    return out


@program
def p_tutorial_distribute_save_and_load(tf):
    strategy = tf.distribute.MirroredStrategy()
    train, test = _mnist(tf, strategy)

    def get_model():
        return _conv_model(tf, strategy, tf.keras.optimizers.Adam, [tf.metrics.SparseCategoricalAccuracy()])

    model = get_model()
    out = [_round(model.fit(train, epochs=2, verbose=0).history["loss"])]
    with tempfile.TemporaryDirectory() as folder:
        keras_path = os.path.join(folder, "keras_save.keras")
        model.save(keras_path)
        restored = tf.keras.models.load_model(keras_path)
        out.append(_round(restored.fit(train, epochs=2, verbose=0).history["loss"]))
        with tf.distribute.OneDeviceStrategy("/cpu:0").scope():
            restored_ds = tf.keras.models.load_model(keras_path)
            out.append(_round(restored_ds.fit(train, epochs=2, verbose=0).history["loss"]))
        model = get_model()
        saved_model_path = os.path.join(folder, "tf_save")
        tf.saved_model.save(model, saved_model_path)
        loaded = tf.saved_model.load(saved_model_path)
        inference_func = loaded.signatures["serving_default"]
        out.append(sorted(loaded.signatures.keys()))
        predict_dataset = test.map(lambda image, label: image)
        batch = next(iter(predict_dataset))
        out.append({k: _round(v.numpy()[:2].ravel()) for k, v in inference_func(batch).items()})
        another = tf.distribute.MirroredStrategy()
        with another.scope():
            loaded = tf.saved_model.load(saved_model_path)
            inference_func = loaded.signatures["serving_default"]
            for dist_batch in another.experimental_distribute_dataset(predict_dataset):
                result = another.run(inference_func, args=(dist_batch,))
                out.append({k: _round(another.experimental_local_results(v)[0].numpy()[:2].ravel())
                            for k, v in result.items()})
                break
        out.append(outcome(lambda: get_model().save(saved_model_path), "Invalid filepath extension"))

        class SubclassedModel(tf.keras.Model):
            output_name = "output_layer"

            def __init__(self):
                super().__init__()
                self._dense_layer = tf.keras.layers.Dense(5, dtype=tf.dtypes.float32, name=self.output_name)

            def call(self, inputs):
                return self._dense_layer(inputs)

        my_model = SubclassedModel()
        out.append(outcome(lambda: my_model.save(saved_model_path), "Invalid filepath extension"))
        tf.saved_model.save(my_model, saved_model_path)
        out.append(sorted(tf.saved_model.load(saved_model_path).signatures.keys()))
        dataset = tf.data.Dataset.from_tensors((tf.range(5, dtype=tf.float32), tf.range(5, dtype=tf.float32))
                                               ).repeat(20).batch(4)
        my_model.compile(optimizer="adam", loss="mean_squared_error")
        my_model.fit(dataset, epochs=1, verbose=0)
        my_model.save(os.path.join(folder, "subclassed.keras"))
        out.append(sorted(os.listdir(folder)))
    return out
