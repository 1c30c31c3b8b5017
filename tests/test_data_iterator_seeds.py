"""A shuffle's pass order is drawn when its iterator is made (tinytf/data/iteration_seeds.py)."""

import threading

import tinytf as tf


def _orders(n, seed=5):
    tf.random.set_seed(7)
    ds = tf.data.Dataset.range(8).shuffle(8, seed=seed)
    return ds, [[int(x) for x in ds] for _ in range(n)]


def test_an_iterator_dropped_unread_uses_up_its_order():
    _, orders = _orders(3)
    ds, _ = _orders(0)
    unread = iter(ds)
    del unread
    assert [int(x) for x in ds] == orders[1]
    assert [int(x) for x in ds] == orders[2]


def test_iterators_read_in_any_order_get_the_orders_of_their_making():
    _, orders = _orders(3)
    ds, _ = _orders(0)
    first, second, third = iter(ds), iter(ds), iter(ds)
    assert [int(x) for x in third] == orders[2]
    assert [int(x) for x in first] == orders[0]
    assert [int(x) for x in second] == orders[1]


def test_iterators_made_and_read_in_threads_each_get_one_order():
    _, orders = _orders(16)
    ds, _ = _orders(0)
    got, lock = [], threading.Lock()

    def read():
        order = [int(x) for x in iter(ds.prefetch(2))]
        with lock:
            got.append(order)

    threads = [threading.Thread(target=read) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got) == sorted(orders)  # every order once, whichever thread made which iterator


def test_a_probe_for_flat_maps_element_spec_draws_nothing():
    _, orders = _orders(1)
    ds, _ = _orders(0)
    flat = ds.flat_map(lambda x: tf.data.Dataset.from_tensors(x))
    assert flat.element_spec.dtype == tf.int64
    assert [int(x) for x in flat] == orders[0]
