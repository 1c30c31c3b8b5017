"""keras.utils.text_dataset_from_directory and timeseries_dataset_from_array as TF 2.21 ships them (Keras 3),
with the examples of their docs. Where the dataset's own shuffle decides the order (tinytf's shuffle is seeded
but not TF's Philox stream), programs compare the batches' contents sorted; the file list's shuffle is numpy's,
and its order is compared as is."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import program


def _write_corpus(root):
    for label, words in (("pos", "good movie number"), ("neg", "bad film")):
        os.makedirs(os.path.join(root, label), exist_ok=True)
        for i in range(5):
            with open(os.path.join(root, label, f"{label}{i}.txt"), "w") as f:
                f.write(f"{words} {i} end\n")
    with open(os.path.join(root, "pos", "notes.md"), "w") as f:
        f.write("not a sample")
    os.makedirs(os.path.join(root, ".hidden"), exist_ok=True)


def _batches(dataset):
    out = []
    for x, y in dataset:
        out.append([[t.decode() for t in x.numpy().reshape(-1).tolist()], y.numpy().tolist()])
    return out


@program
def p_text_dataset_from_directory(tf):
    with tempfile.TemporaryDirectory() as root:
        _write_corpus(root)
        plain = tf.keras.utils.text_dataset_from_directory(root, batch_size=4, shuffle=False, verbose=False)
        categorical = tf.keras.utils.text_dataset_from_directory(root, batch_size=None, shuffle=False,
                                                                 label_mode="categorical", max_length=8,
                                                                 verbose=False)
        chosen = tf.keras.utils.text_dataset_from_directory(root, batch_size=3, shuffle=False, class_names=["pos"],
                                                            verbose=False)
        train, validation = tf.keras.utils.text_dataset_from_directory(
            root, batch_size=4, seed=7, validation_split=0.3, subset="both", label_mode="binary", verbose=False)
        shuffled = tf.keras.utils.text_dataset_from_directory(root, batch_size=3, seed=42, verbose=False)
        no_labels = tf.keras.utils.text_dataset_from_directory(root, labels=None, batch_size=20, shuffle=False,
                                                               verbose=False)
        pairs = sorted((t.decode(), int(y)) for x, ys in shuffled for t, y in zip(x.numpy(), ys.numpy()))
        return [plain.class_names, _batches(plain),
                [[x.numpy().decode(), y.numpy().tolist()] for x, y in categorical], chosen.class_names,
                _batches(chosen), _batches(validation),
                sorted(t.decode() for x, _ in train for t in x.numpy()), [len(x) for x, _ in train],
                pairs, [len(x) for x, _ in shuffled], [t.decode() for x in no_labels for t in x.numpy()],
                no_labels.class_names]


@program
def p_text_dataset_from_directory_errors(tf):
    from . import outcome

    with tempfile.TemporaryDirectory() as root:
        _write_corpus(root)
        utils = tf.keras.utils
        return [outcome(lambda: utils.text_dataset_from_directory(root, label_mode="sparse"), "label_mode"),
                outcome(lambda: utils.text_dataset_from_directory(root, validation_split=0.2, subset="training"),
                        "seed"),
                outcome(lambda: utils.text_dataset_from_directory(root, class_names=["cats"]), "class_names"),
                outcome(lambda: utils.text_dataset_from_directory(root, labels=[0, 1]), "lengths"),
                outcome(lambda: utils.text_dataset_from_directory(root, labels="yes"), "labels")]


@program
def p_timeseries_dataset_from_array_docs(tf):
    data = np.arange(100)
    out = []
    dataset = tf.keras.utils.timeseries_dataset_from_array(data, None, sequence_length=10, sampling_rate=2,
                                                           batch_size=8)
    first = next(iter(dataset))
    out.append([first.shape.as_list(), first.numpy()[0].tolist(), first.numpy()[1].tolist()])
    steps = np.arange(30).reshape(15, 2).astype("float32")
    windows = tf.keras.utils.timeseries_dataset_from_array(steps, np.arange(15) * 10, sequence_length=4,
                                                           sampling_rate=2, sequence_stride=3, batch_size=2,
                                                           start_index=1, end_index=14)
    out.append([[x.numpy().tolist(), y.numpy().tolist(), x.dtype.name, y.dtype.name] for x, y in windows])
    target = tf.keras.utils.timeseries_dataset_from_array(data[:-10], data[10:], sequence_length=10,
                                                          batch_size=None)
    out.append([[x.numpy().tolist(), int(y)] for x, y in list(target)[:2]])
    shuffled = tf.keras.utils.timeseries_dataset_from_array(data, None, sequence_length=5, batch_size=4,
                                                            shuffle=True, seed=3)
    out.append([sorted(w[0] for x in shuffled for w in x.numpy().tolist()), [len(x) for x in shuffled]])
    return out


@program
def p_timeseries_dataset_from_array_errors(tf):
    from . import outcome

    make = tf.keras.utils.timeseries_dataset_from_array
    data = np.arange(20)
    return [outcome(lambda: make(data, None, 5, start_index=-1), "start_index"),
            outcome(lambda: make(data, None, 5, start_index=4, end_index=3), "end_index"),
            outcome(lambda: make(data, None, 5, sampling_rate=0), "sampling_rate"),
            outcome(lambda: make(data, None, 5, sequence_stride=20), "sequence_stride")]


@program
def p_keras_preprocessing_reexports(tf):
    pre = tf.keras.preprocessing
    return [pre.text_dataset_from_directory is tf.keras.utils.text_dataset_from_directory,
            pre.timeseries_dataset_from_array is tf.keras.utils.timeseries_dataset_from_array,
            [n for n in ("Tokenizer", "hashing_trick", "one_hot", "text_to_word_sequence", "tokenizer_from_json")
             if hasattr(pre.text, n)]]


@program
def p_keras_preprocessing_text_tokenizer(tf):
    text = tf.keras.preprocessing.text
    texts = ["The cat sat on the mat.", "The dog ate my homework!", "Cat, dog: the end?"]
    tokenizer = text.Tokenizer(num_words=6, oov_token="<OOV>")
    tokenizer.fit_on_texts(texts)
    sequences = tokenizer.texts_to_sequences(["the cat and the zebra", "my dog"])
    restored = text.tokenizer_from_json(tokenizer.to_json())
    chars = text.Tokenizer(char_level=True)
    chars.fit_on_texts(["abca", "bc"])
    return [tokenizer.word_index, sequences, tokenizer.sequences_to_texts(sequences),
            np.round(tokenizer.texts_to_matrix(texts, mode="tfidf"), 6).tolist(),
            tokenizer.texts_to_matrix(texts, mode="count").tolist(),
            np.round(tokenizer.texts_to_matrix(texts, mode="freq"), 6).tolist(),
            restored.texts_to_sequences(["the cat and the zebra"]), chars.word_index,
            text.text_to_word_sequence("Hello, World! It's me."),
            text.hashing_trick("a b a", 10, hash_function="md5")]
