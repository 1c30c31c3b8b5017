"""A shuffle draws each pass's order when an iterator is made, not when it is first read (TF's iterators seed
their shuffles in Initialize): iterators made and read out of order, dropped unread, over a repeat, and the
iterators Keras 3's fit makes (one more at the end of each epoch over a dataset of known length; one going on
across epochs with steps_per_epoch; an epoch that runs out of data over a dataset of unknown length)."""

from __future__ import annotations

from . import program


@program
def p_orders_follow_iterator_creation(tf):
    tf.random.set_seed(7)
    ds = tf.data.Dataset.range(6).shuffle(6, seed=5)
    a, b = iter(ds), iter(ds)
    out = [[int(x) for x in b], [int(x) for x in a]]
    ds = tf.data.Dataset.range(6).shuffle(6, seed=5).map(lambda x: x * 10).batch(2)
    unread = iter(ds)
    del unread
    out.append([x.numpy().tolist() for x in ds])
    ds = tf.data.Dataset.range(3).shuffle(3, seed=5).repeat(2)
    a, b = iter(ds), iter(ds)
    out += [[int(x) for x in b], [int(x) for x in a]]
    return out


@program
def p_orders_through_prefetch_and_cache(tf):
    tf.random.set_seed(7)
    ds = tf.data.Dataset.range(6).shuffle(6, seed=5).prefetch(2)
    a, b = iter(ds), iter(ds)
    out = [[int(x) for x in b], [int(x) for x in a]]
    ds = tf.data.Dataset.range(6).shuffle(6, seed=5).cache()
    out += [[int(x) for x in ds], [int(x) for x in ds]]
    shuffled = tf.data.Dataset.range(6).shuffle(6, seed=9)
    cached = shuffled.cache()  # a complete cache makes no input iterator: its passes draw nothing
    out += [[int(x) for x in cached], [int(x) for x in cached], [int(x) for x in shuffled]]
    return out


def _fit_runs(tf, np):
    tf.keras.utils.set_random_seed(1)
    x = np.arange(40, dtype="float32").reshape(20, 2)
    y = np.arange(20, dtype="float32")[:, None]
    base = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(20, seed=3)
    out = []
    for ds, steps in [(base.batch(5), None), (base.filter(lambda a, b: True).batch(5), None), (base.batch(5), 3)]:
        model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
        model.compile(optimizer=tf.keras.optimizers.SGD(1e-4), loss="mse")
        history = model.fit(ds, epochs=3, steps_per_epoch=steps, verbose=0, shuffle=False)
        out.append([round(v, 3) for v in history.history["loss"]])
        out.append([int(b[0]) for a, b in ds.unbatch().take(4)])  # the order after fit: how many it began
    return out


@program
def p_keras_fit_iterators_over_a_shuffled_dataset(tf):
    import warnings

    import numpy as np

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _fit_runs(tf, np)


@program
def p_interleave_over_shuffled_files_takes_the_first_order(tf):
    import os
    import tempfile

    tf.random.set_seed(2)
    folder = tempfile.mkdtemp()
    for k in range(3):
        with open(os.path.join(folder, f"part-{k}.csv"), "w") as f:
            f.write("a,b\n" + "".join(f"{k * 10 + j},{k + j / 10}\n" for j in range(4)))
    files = sorted(tf.io.gfile.glob(os.path.join(folder, "part-*.csv")))

    def records(name):
        return tf.data.experimental.CsvDataset(name, [tf.int32, tf.float32], header=True)

    # flat_map's element spec is found without using up one of the shuffle's orders
    shuffled = tf.data.Dataset.from_tensor_slices(files).shuffle(3, seed=1)
    out = [[int(a) for a, b in shuffled.interleave(records, cycle_length=1)],
           [int(a) for a, b in shuffled.flat_map(records)]]
    pattern = os.path.join(folder, "part-*.csv")
    for reads, buffer in [(3, 4), (1, 1)]:
        batches = tf.data.experimental.make_csv_dataset(pattern, batch_size=3, num_epochs=1, num_parallel_reads=reads,
                                                        shuffle_buffer_size=buffer, shuffle_seed=1)
        out.append([batch["a"].numpy().tolist() for batch in batches])
    return out


@program
def p_iterators_keep_pythons_next_method(tf):
    ds = tf.data.Dataset.range(3)
    numpy_iterator, iterator = ds.as_numpy_iterator(), iter(ds)
    return [int(numpy_iterator.next()), int(numpy_iterator.next()), int(iterator.next()), int(iterator.get_next())]
