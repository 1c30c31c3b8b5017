"""TF1's readers fed by a queue of file names, in TF1 sessions: TextLineReader (skip_header_lines),
WholeFileReader, IdentityReader, FixedLengthRecordReader (header, footer, hop), TFRecordReader, read and
read_up_to until OutOfRangeError, num_records_produced / num_work_units_completed, reset; and the eager error."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import outcome, program


def _files(tf, folder):
    """A few small files of each kind in `folder`; their paths."""
    paths = {}
    for name, text in (("a.txt", "head\none\ntwo\n"), ("b.txt", "head\nthree\n")):
        paths[name] = os.path.join(folder, name)
        with open(paths[name], "w") as f:
            f.write(text)
    paths["fixed.bin"] = os.path.join(folder, "fixed.bin")
    with open(paths["fixed.bin"], "wb") as f:
        f.write(b"HH" + bytes(range(10)) + b"F")
    paths["r.tfrecord"] = os.path.join(folder, "r.tfrecord")
    with tf.io.TFRecordWriter(paths["r.tfrecord"]) as writer:
        for record in (b"x", b"yy", b"zzz"):
            writer.write(record)
    return paths


def _short(value, folder):
    value = np.asarray(value).item()  # TF gives bytes; tinytf's Session a 0-d object array of bytes
    text = value.decode() if isinstance(value, bytes) else str(value)
    return text.replace(folder + os.sep, "")


def _read_all(tf, make_reader, names, folder, up_to=None):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        queue = v1.train.string_input_producer(names, num_epochs=1, shuffle=False)
        reader = make_reader()
        key, value = reader.read_up_to(queue, up_to) if up_to else reader.read(queue)
        produced, completed = reader.num_records_produced(), reader.num_work_units_completed()
        shapes = [key.shape.as_list(), value.shape.as_list(), key.dtype.name]
    records = []
    with v1.Session(graph=graph) as sess:
        sess.run(v1.local_variables_initializer())
        coord = v1.train.Coordinator()
        threads = v1.train.start_queue_runners(sess, coord)
        try:
            while True:
                k, v = sess.run([key, value])
                if up_to:
                    records.append([[_short(x, folder) for x in k], [_short(x, folder) for x in v]])
                else:
                    records.append([_short(k, folder), _short(v, folder)])
        except v1.errors.OutOfRangeError:
            pass
        counts = [int(sess.run(produced)), int(sess.run(completed))]
        coord.request_stop()
        coord.join(threads)
    return {"records": records, "counts": counts, "shapes": shapes}


@program
def p_tf1_more_readers(tf):
    v1 = tf.compat.v1
    with tempfile.TemporaryDirectory() as folder:
        paths = _files(tf, folder)
        texts = [paths["a.txt"], paths["b.txt"]]
        return {
            "text": _read_all(tf, v1.TextLineReader, texts, folder),
            "text_skip": _read_all(tf, lambda: v1.TextLineReader(skip_header_lines=1), texts, folder),
            "text_up_to": _read_all(tf, v1.TextLineReader, texts, folder, up_to=2),
            "whole": _read_all(tf, v1.WholeFileReader, texts, folder),
            "identity": _read_all(tf, v1.IdentityReader, ["w1", "w2"], folder),
            "fixed": _read_all(tf, lambda: v1.FixedLengthRecordReader(3, header_bytes=2, footer_bytes=1),
                               [paths["fixed.bin"]], folder),
            "fixed_hop": _read_all(tf, lambda: v1.FixedLengthRecordReader(4, header_bytes=2, footer_bytes=1,
                                                                         hop_bytes=3), [paths["fixed.bin"]], folder),
            "tfrecord": _read_all(tf, v1.TFRecordReader, [paths["r.tfrecord"], paths["r.tfrecord"]], folder),
        }


@program
def p_tf1_more_reader_reset(tf):
    v1 = tf.compat.v1
    with tempfile.TemporaryDirectory() as folder:
        paths = _files(tf, folder)
        graph = v1.Graph()
        with graph.as_default():
            queue = tf.queue.FIFOQueue(10, tf.string, shapes=[[]])
            fill = queue.enqueue_many([[paths["a.txt"], paths["a.txt"]]])
            reader = v1.TextLineReader()
            key, value = reader.read(queue)
            reset = reader.reset()
            produced = reader.num_records_produced()
        with v1.Session(graph=graph) as sess:
            sess.run(fill)
            first = [_short(v, folder) for v in (sess.run(value), sess.run(value))]
            before = int(sess.run(produced))
            sess.run(reset)
            after = int(sess.run(produced))
            again = _short(sess.run(value), folder)  # from the start of the second file name
            key_again = _short(sess.run(key), folder)
    return {"first": first, "counts": [before, after], "again": again, "key": key_again}


@program
def p_tf1_more_reader_eager(tf):
    return outcome(lambda: tf.compat.v1.TextLineReader(), "not supported when eager execution is enabled")
