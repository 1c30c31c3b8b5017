"""TF's tf.data guide, "Consuming TFRecord data": its cells parse the French Street Name Signs file, which
they download; here the same cells read a small local TFRecord file of Examples with the same features
(`image/encoded`, `image/text`): Example.FromString of a record, tf.io.parse_example of one record
(`eg[tf.newaxis]`), the same function mapped over the dataset (traced), and a batch of its results."""

from __future__ import annotations

import os
import tempfile

from . import outcome, program


def _fsns_like(tf):
    path = os.path.join(tempfile.mkdtemp(), "fsns-00000-of-00001")
    with tf.io.TFRecordWriter(path) as writer:
        for i, text in enumerate([b"Rue de la Paix", b"Avenue Foch", b"Quai d'Orsay"]):
            image = bytes([137, 80, i]) * 4
            feature = {"image/encoded": tf.train.Feature(bytes_list=tf.train.BytesList(value=[image])),
                       "image/text": tf.train.Feature(bytes_list=tf.train.BytesList(value=[text])),
                       "image/width": tf.train.Feature(int64_list=tf.train.Int64List(value=[600 + i]))}
            writer.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())
    return path


@program
def p_data_guide_consume_tfrecord(tf):
    dataset = tf.data.TFRecordDataset(filenames=[_fsns_like(tf)])
    raw_example = next(iter(dataset))
    parsed = tf.train.Example.FromString(raw_example.numpy())
    feature = parsed.features.feature
    first = [list(feature["image/encoded"].bytes_list.value[0]), feature["image/text"].bytes_list.value[0].decode(),
             list(feature["image/width"].int64_list.value)]

    def tf_parse(eg):
        example = tf.io.parse_example(
            eg[tf.newaxis], {
                'image/encoded': tf.io.FixedLenFeature(shape=(), dtype=tf.string),
                'image/text': tf.io.FixedLenFeature(shape=(), dtype=tf.string)
            })
        return example['image/encoded'][0], example['image/text'][0]

    img, txt = tf_parse(raw_example)
    decoded = dataset.map(tf_parse)
    image_batch, text_batch = next(iter(decoded.batch(10)))
    return [first, txt.numpy().decode(), list(img.numpy()[:20]), str(decoded.element_spec),
            image_batch.shape.as_list(), [t.decode() for t in text_batch.numpy().tolist()],
            outcome(lambda: list(tf.data.Dataset.range(3).map(tf_parse)), "Input 'serialized' of 'ParseExampleV2' Op"),
            outcome(lambda: tf_parse(tf.constant([1, 2], tf.int64)), "Tensor conversion requested dtype string")]
