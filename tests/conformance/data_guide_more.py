"""Programs of TensorFlow's data guide (guide/data.ipynb) that the earlier modules did not cover, with local
stand-ins for its downloads: resampling an imbalanced dataset (rejection_resample with a given and an
estimated initial distribution, sample_from_datasets with a dataset of weights), printing feature batches with
str.format as the CSV section does, and checkpointing an iterator with tf.train.Checkpoint. Random outcomes are
recorded as what TF's semantics fix (the element structure, class fractions within a tolerance, exact results
where the mixing probability makes them deterministic), not as TF's sequence."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import program, val

_LABELS = np.array([0] * 9 + [1], np.int64)  # 90% negative, as the guide's credit card data (skewed further)


def _imbalanced(tf, n=100):
    """(features, label) pairs, 90% of class 0, in a fixed order."""
    labels = np.tile(_LABELS, n // 10)
    features = np.arange(n, dtype=np.float32)
    return tf.data.Dataset.from_tensor_slices((features, labels))


def _class_fraction(ds, n):
    """The fraction of class 1 among the first n (class, element) pairs, to one decimal."""
    classes = [int(c) for c, _ in ds.take(n)]
    return [len(classes), round(float(np.mean(classes)), 1)]


@program
def p_guide_rejection_resample_given_initial(tf):
    ds = _imbalanced(tf).repeat()
    resampled = ds.rejection_resample(lambda x, y: y, target_dist=[0.5, 0.5], initial_dist=[0.9, 0.1], seed=42)
    balanced = resampled.map(lambda extra_label, features_and_label: features_and_label)
    labels = [int(y) for _, y in balanced.take(2000)]
    return [str(resampled.element_spec), str(balanced.element_spec), _class_fraction(resampled, 2000),
            abs(float(np.mean(labels)) - 0.5) < 0.05, val(resampled.cardinality())]


@program
def p_guide_rejection_resample_estimated_initial(tf):
    """No initial_dist: the distribution is estimated as the classes go by (starting from 10 of each)."""
    ds = _imbalanced(tf).repeat()
    resampled = ds.batch(10).unbatch().rejection_resample(lambda x, y: y, target_dist=[0.5, 0.5], seed=7)
    fraction = _class_fraction(resampled, 3000)
    return [str(resampled.element_spec), fraction[0], abs(fraction[1] - 0.5) <= 0.1]


@program
def p_guide_rejection_resample_deterministic_cases(tf):
    """A target equal to the initial distribution keeps every element, in order; a target of one class keeps
    only that class (the mixing probability is 1 and 0: no random draw decides)."""
    ds = _imbalanced(tf, 20)
    same = ds.rejection_resample(lambda x, y: y, target_dist=[0.9, 0.1], initial_dist=[0.9, 0.1])
    only_ones = ds.apply(tf.data.experimental.rejection_resample(lambda x, y: y, target_dist=[0.0, 1.0],
                                                                initial_dist=[0.9, 0.1], seed=1))
    single = tf.data.Dataset.from_tensor_slices(np.tile(_LABELS, 2)).rejection_resample(
        lambda y: y, target_dist=[0.9, 0.1], initial_dist=[0.9, 0.1])
    return [val(list(same)), val(list(only_ones)), str(single.element_spec), val(list(single))]


@program
def p_guide_sample_from_datasets_weight_dataset(tf):
    """sample_from_datasets with a dataset of weight vectors (one per draw), as rejection_resample uses it."""
    a = tf.data.Dataset.from_tensors(np.int64(0)).repeat()
    b = tf.data.Dataset.from_tensors(np.int64(1)).repeat()
    weights = tf.data.Dataset.from_tensors([0.2, 0.8]).repeat()
    mixed = tf.data.Dataset.sample_from_datasets([a, b], weights=weights, seed=3)
    ones = float(np.mean([int(x) for x in mixed.take(2000)]))
    changing = tf.data.Dataset.range(4).map(lambda i: [(tf.cast(i % 2, tf.float32), 1.0 - tf.cast(i % 2,
                                                                                                     tf.float32))])
    alternating = tf.data.Dataset.sample_from_datasets([a, b], weights=changing, seed=1)
    return [str(mixed.element_spec), round(ones, 1), val(list(alternating))]


@program
def p_guide_format_feature_batches(tf):
    """The CSV section prints batches with str.format: a tensor formats as its numpy value."""
    batch = {"age": tf.constant([18.0, 52.5]), "class": tf.constant([b"Third", b"First"]),
             "n_siblings_spouses": tf.constant([0, 3])}
    label = tf.constant([0, 1])
    lines = ["'survived': {}".format(label)]
    for key, value in batch.items():
        lines.append("  {!r:20s}: {}".format(key, value))
    return lines + [f"{tf.constant(3.25):.1f}", "{}".format(tf.constant(b"x")), "{}".format(tf.constant(7)),
                    "{}".format(tf.constant([[True], [False]]))]


@program
def p_guide_iterator_checkpoint(tf):
    """The guide's iterator checkpoint: a restored iterator resumes where it was saved."""
    directory = tempfile.mkdtemp()
    range_ds = tf.data.Dataset.range(20)
    iterator = iter(range_ds)
    ckpt = tf.train.Checkpoint(step=tf.Variable(0), iterator=iterator)
    manager = tf.train.CheckpointManager(ckpt, os.path.join(directory, "my_ckpt"), max_to_keep=3)
    first = [int(next(iterator)) for _ in range(5)]
    manager.save()
    second = [int(next(iterator)) for _ in range(5)]
    ckpt.restore(manager.latest_checkpoint)
    again = [int(next(iterator)) for _ in range(5)]
    return [first, second, again]


@program
def p_guide_iterator_checkpoint_pipeline(tf):
    """A seeded shuffle, a map and a batch resume exactly; a new iterator restored from the checkpoint (another
    object of the same pipeline) continues from the saved position too."""
    directory = tempfile.mkdtemp()
    ds = tf.data.Dataset.range(30).shuffle(10, seed=5).map(lambda x: x * 2).batch(4)
    it = iter(ds)
    _ = [next(it) for _ in range(2)]
    path = tf.train.Checkpoint(iterator=it).write(os.path.join(directory, "ckpt"))
    rest = [next(it).numpy().tolist() for _ in range(3)]
    fresh = iter(ds)
    tf.train.Checkpoint(iterator=fresh).read(path)
    resumed = [next(fresh).numpy().tolist() for _ in range(3)]
    it2 = iter(ds)
    restored = tf.train.Checkpoint(iterator=it2)
    restored.read(path)
    remaining = [b.numpy().tolist() for b in it2]
    return [rest == resumed, rest == remaining[:3], len(remaining), sum(len(b) for b in remaining)]


@program
def p_guide_iterator_checkpoint_repeated_shuffle(tf):
    """Saved in the second epoch of a reshuffling seeded shuffle: the restored iterator gives the same rest, the
    later epochs' orders included."""
    directory = tempfile.mkdtemp()
    ds = tf.data.Dataset.range(6).shuffle(6, seed=9).repeat(3)
    it = iter(ds)
    head = [int(next(it)) for _ in range(8)]
    ckpt = tf.train.Checkpoint(iterator=it)
    path = ckpt.write(os.path.join(directory, "ckpt"))
    rest = [int(x) for x in it]
    ckpt.read(path)
    again = [int(x) for x in it]
    epochs = [sorted(head[:6]), sorted(head[6:] + rest[:4]), sorted(rest[4:])]
    return [rest == again, len(rest), epochs, head[:6] != (head[6:] + rest[:4])]


@program
def p_guide_performance_timeline(tf):
    """The data performance guide's timeline: a generator dataset of (steps, times, values) with output_types,
    output_shapes and args, accumulated with tf.concat, then filtered with a boolean numpy mask as a tensor
    index (times made deterministic here; the guide reads time.perf_counter)."""
    def generator(instance_idx, num_samples):
        open_enter, open_elapsed = 1.0, 0.5
        for sample_idx in range(num_samples):
            yield ([("Open",), ("Read",)], [(open_enter, open_elapsed), (2.0 + sample_idx, 0.25)],
                   [(instance_idx, 0, -1), (instance_idx, 0, sample_idx)])
            open_enter, open_elapsed = -1., -1.

    ds = tf.data.Dataset.from_generator(generator, output_types=(tf.string, tf.float32, tf.int32),
                                        output_shapes=((2, 1), (2, 2), (2, 3)), args=(7, 3))
    steps_acc = tf.zeros([0, 1], dtype=tf.string)
    times_acc = tf.zeros([0, 2], dtype=tf.float32)
    values_acc = tf.zeros([0, 3], dtype=tf.int32)
    for steps, times, values in ds.prefetch(tf.data.AUTOTUNE):
        steps_acc = tf.concat((steps_acc, steps), axis=0)
        times_acc = tf.concat((times_acc, times), axis=0)
        values_acc = tf.concat((values_acc, values), axis=0)
        steps_acc = tf.concat((steps_acc, [["Train"]]), axis=0)
        times_acc = tf.concat((times_acc, [(9.0, 0.125)]), axis=0)
        values_acc = tf.concat((values_acc, [values[-1]]), axis=0)
    mask = np.logical_and(times_acc > 0, steps_acc != b"")[:, 0]
    steps = steps_acc[mask].numpy()
    by_tensor = times_acc[tf.constant(mask)]
    both = values_acc[np.stack([mask, mask, ~mask], 1)]
    return [str(ds.element_spec), [s.decode() for s in steps[:, 0]], val(times_acc[mask]), val(by_tensor),
            val(both), val(values_acc[mask])]


@program
def p_guide_parse_example_of_non_strings(tf):
    """The guide's tf_parse given a tensor that is not serialized records: a conversion ValueError eagerly, the
    op's input TypeError inside a dataset map."""
    from . import outcome

    features = {"image/text": tf.io.FixedLenFeature(shape=(), dtype=tf.string)}

    def tf_parse(eg):
        return tf.io.parse_example(eg[tf.newaxis], features)["image/text"][0]

    ints = tf.data.Dataset.from_tensors(tf.constant([[0, 1]], tf.int64))
    return [outcome(lambda: tf_parse(tf.constant([[0, 1]], tf.int64)), "Tensor conversion requested dtype string"),
            outcome(lambda: ints.map(tf_parse), "does not match expected type of string"),
            outcome(lambda: ints.map(lambda e: tf.io.parse_single_example(e[0, 0], features)),
                    "does not match expected type of string")]


@program
def p_guide_keras_fit_dataset_steps(tf):
    """The guide's model.fit(dataset): the steps Keras counts per epoch (its progress bar's target) are the
    dataset's cardinality when it is known, steps_per_epoch when given, else unknown."""
    x = np.linspace(-1, 1, 600, dtype=np.float32).reshape(150, 4)
    y = (np.arange(150) % 2).astype(np.int32)
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    model.compile(optimizer="sgd", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)
    known = model.fit(ds, epochs=2, verbose=0).params
    unknown = model.fit(ds.filter(lambda a, b: True), epochs=1, verbose=0).params
    given = model.fit(ds.repeat(), epochs=1, steps_per_epoch=3, verbose=0).params
    return [known, unknown, given]
