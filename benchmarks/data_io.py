"""Reading TFRecord files of tf.train.Example: tinytf against TensorFlow (same file, same sitting) and against
a plain Python/numpy reader of the same bytes.

    python -m benchmarks.data_io                     # tinytf, plain Python, and TensorFlow via /work/tfenv
    python benchmarks/data_io.py --library tensorflow --file F    # one library only

The file: ~50 MB of Examples (a 784-byte image, an int64 label, 32 floats), written once by tinytf. Reported:
TFRecordDataset read throughput (MB/s, CRCs checked, one epoch), the pipeline's throughput (records/s of
`TFRecordDataset -> batch(256) -> map(parse_example)`, one epoch), the same pipeline without the map (what
reading and batching cost: the ceiling a faster parse can reach), and the parse op alone (a tf.function over
40 batches of 256 records in memory: the file's, whose records share one byte layout, and records of varied
lengths, which take tinytf's general decoder); best of a few epochs."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

TF_PYTHON = "/work/tfenv/bin/python"


def make_file(path: str, megabytes: float = 50.0) -> int:
    import tinytf as tf

    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, size=(512, 784), dtype=np.uint8)
    count, size = 0, 0
    with tf.io.TFRecordWriter(path) as writer:
        while size < megabytes * 1e6:
            example = tf.train.Example(features=tf.train.Features(feature={
                "image": tf.train.Feature(bytes_list=tf.train.BytesList(value=[images[count % 512].tobytes()])),
                "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[count % 10])),
                "features": tf.train.Feature(float_list=tf.train.FloatList(value=rng.normal(size=32).tolist())),
            })).SerializeToString()
            writer.write(example)
            size += len(example) + 16
            count += 1
    return count


def best(fn, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def library_figures(tf, path: str, rounds: int = 3) -> dict:
    size = os.path.getsize(path)
    ds = tf.data.TFRecordDataset(path)
    counted = [0]

    def read():
        n = 0
        for _ in ds:
            n += 1
        counted[0] = n
    read_s = best(read, rounds)
    features = {"image": tf.io.FixedLenFeature([], tf.string), "label": tf.io.FixedLenFeature([], tf.int64),
                "features": tf.io.FixedLenFeature([32], tf.float32)}
    batched = ds.batch(256)
    parsed = batched.map(lambda r: tf.io.parse_example(r, features))

    def parse():
        for _batch in parsed:
            pass
    parse_s = best(parse, rounds)

    def batch_only():  # the same pipeline without the parse: what reading and batching alone cost
        for _batch in batched:
            pass
    batch_s = best(batch_only, rounds)

    # the parse op alone, inside a tf.function, on batches of 256 records already in memory
    batches = [b for _i, b in zip(range(40), batched)]
    parse_fn = tf.function(lambda r: tf.io.parse_example(r, features))
    parse_fn(batches[0])

    def parse_only():
        for b in batches:
            parse_fn(b)
    op_s = best(parse_only, rounds)
    in_memory = sum(int(b.shape[0]) for b in batches)

    # the same, on records whose lengths differ (labels of 1 to 3 varint bytes): no shared byte layout
    varied = [tf.constant(b) for b in varied_batches(tf)]
    parse_fn(varied[0])

    def parse_varied():
        for b in varied:
            parse_fn(b)
    varied_s = best(parse_varied, rounds)
    return {"read_MB_per_s": size / 1e6 / read_s, "parse_records_per_s": counted[0] / parse_s,
            "batch_only_records_per_s": counted[0] / batch_s, "parse_op_records_per_s": in_memory / op_s,
            "parse_op_varied_records_per_s": 40 * 256 / varied_s, "records": counted[0]}


def varied_batches(tf, count=40, size=256) -> list:
    """Batches of Examples like the file's, with labels up to 100,000 so that record lengths vary."""
    rng = np.random.default_rng(1)
    out = []
    for _batch in range(count):
        batch = []
        for _record in range(size):
            label = int(rng.integers(0, 100_000)) >> int(rng.integers(0, 17))  # 1 to 3 varint bytes
            batch.append(tf.train.Example(features=tf.train.Features(feature={
                "image": tf.train.Feature(bytes_list=tf.train.BytesList(
                    value=[rng.integers(0, 256, 784, dtype=np.uint8).tobytes()])),
                "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[label])),
                "features": tf.train.Feature(float_list=tf.train.FloatList(value=rng.normal(size=32).tolist())),
            })).SerializeToString())
        out.append(batch)
    return out


def plain_python_figures(path: str, rounds: int = 3) -> dict:
    """The floor of a Python reader: the framing walked with struct (CRCs checked with google_crc32c, as the
    libraries do), and parsing with the protobuf classes plus numpy, no tf.data around it."""
    import google_crc32c

    from tinytf.io.tfrecord import masked_crc32c
    from tinytf.runtime.ops.example_proto import Example

    size = os.path.getsize(path)
    assert google_crc32c.value(b"") == 0

    def records():
        with open(path, "rb") as f:
            data = f.read()
        at, out, unpack = 0, [], struct.unpack_from
        while at < len(data):
            (length,) = unpack("<Q", data, at)
            if masked_crc32c(data[at:at + 8]) != unpack("<I", data, at + 8)[0]:
                raise ValueError("bad length crc")
            body = data[at + 12:at + 12 + length]
            if masked_crc32c(body) != unpack("<I", data, at + 12 + length)[0]:
                raise ValueError("bad data crc")
            out.append(body)
            at += 16 + length
        return out
    read_s = best(records, rounds)
    all_records = records()

    def parse():
        for start in range(0, len(all_records), 256):
            protos = [Example.FromString(r).features.feature for r in all_records[start:start + 256]]
            np.array([p["label"].int64_list.value[0] for p in protos], np.int64)
            np.array([p["features"].float_list.value for p in protos], np.float32)
            [p["image"].bytes_list.value[0] for p in protos]
    parse_s = best(parse, rounds)
    return {"read_MB_per_s": size / 1e6 / read_s, "parse_records_per_s": len(all_records) / parse_s,
            "batch_only_records_per_s": float("nan"), "parse_op_records_per_s": float("nan"),
            "parse_op_varied_records_per_s": float("nan"),
            "records": len(all_records)}


def measure(library: str, path: str) -> dict:
    if library == "tensorflow":
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    tf = importlib.import_module(library)
    return {"library": library, **library_figures(tf, path)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", choices=["tinytf", "tensorflow"])
    parser.add_argument("--file")
    parser.add_argument("--megabytes", type=float, default=50.0)
    args = parser.parse_args(argv)
    if args.library:
        print(json.dumps(measure(args.library, args.file)))
        return
    from benchmarks.data_pipeline import blas_threads

    load = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else "?"
    print(f"load average {load}, cpus {os.cpu_count()}, BLAS threads {blas_threads()}")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "examples.tfrecord")
        n = make_file(path, args.megabytes)
        print(f"file: {os.path.getsize(path) / 1e6:.1f} MB, {n} Examples")
        rows = [measure("tinytf", path), {"library": "plain python", **plain_python_figures(path)}]
        if os.path.exists(TF_PYTHON):
            out = subprocess.run([TF_PYTHON, os.path.abspath(__file__), "--library", "tensorflow", "--file", path],
                                 capture_output=True, text=True, cwd="/tmp")
            lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
            if lines:
                rows.append(json.loads(lines[-1]))
            else:
                print("TensorFlow run failed:", out.stderr[-500:])
    print(f"{'library':<14}{'read MB/s':>10}{'pipeline rec/s':>16}{'without parse':>15}{'parse op':>12}"
          f"{'parse op, varied lengths':>26}")
    for r in rows:
        assert r["records"] == n
        print(f"{r['library']:<14}{r['read_MB_per_s']:>10,.1f}{r['parse_records_per_s']:>16,.0f}"
              f"{r['batch_only_records_per_s']:>15,.0f}{r['parse_op_records_per_s']:>12,.0f}"
              f"{r['parse_op_varied_records_per_s']:>26,.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])
