"""keras.preprocessing.text: Keras 1's text helpers that TF 2.21 still ships (deprecated there, pure Python):
text_to_word_sequence, one_hot and hashing_trick (Python's hash or md5 of each word), and the Tokenizer with
its JSON form. Behaviour follows keras/src/legacy/preprocessing/text.py."""

from __future__ import annotations

import collections
import hashlib
import json

import numpy as np

FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'


def text_to_word_sequence(input_text, filters=FILTERS, lower=True, split=" "):
    """The words of a text: lowercased, each filtered character made a separator, empty words dropped."""
    if lower:
        input_text = input_text.lower()
    input_text = input_text.translate(str.maketrans({c: split for c in filters}))
    return [word for word in input_text.split(split) if word]


def hashing_trick(text, n, hash_function=None, filters=FILTERS, lower=True, split=" ", analyzer=None):
    """Each word's hash in [1, n - 1] (hash_function None is Python's hash, "md5" is md5)."""
    if hash_function is None:
        hash_function = hash
    elif hash_function == "md5":
        def hash_function(word):
            return int(hashlib.md5(word.encode()).hexdigest(), 16)
    words = text_to_word_sequence(text, filters=filters, lower=lower, split=split) if analyzer is None \
        else analyzer(text)
    return [hash_function(w) % (n - 1) + 1 for w in words]


def one_hot(input_text, n, filters=FILTERS, lower=True, split=" ", analyzer=None):
    """hashing_trick with Python's hash (not a one-hot encoding, despite the name Keras gave it)."""
    return hashing_trick(input_text, n, hash_function=hash, filters=filters, lower=lower, split=split,
                         analyzer=analyzer)


class Tokenizer:
    """Words -> indices by frequency (1 is the most frequent; 0 is never a word; `oov_token`, if given, is 1),
    and texts -> sequences or matrices (binary, count, freq, tfidf)."""

    def __init__(self, num_words=None, filters=FILTERS, lower=True, split=" ", char_level=False, oov_token=None,
                 analyzer=None, **kwargs):
        if "nb_words" in kwargs:
            num_words = kwargs.pop("nb_words")
        document_count = kwargs.pop("document_count", 0)
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments: {kwargs}")
        self.word_counts = collections.OrderedDict()
        self.word_docs = collections.defaultdict(int)
        self.filters, self.split, self.lower = filters, split, lower
        self.num_words, self.document_count = num_words, document_count
        self.char_level, self.oov_token, self.analyzer = char_level, oov_token, analyzer
        self.index_docs = collections.defaultdict(int)
        self.word_index: dict = {}
        self.index_word: dict = {}

    def _words(self, text):
        if self.char_level or isinstance(text, list):
            if self.lower:
                text = [t.lower() for t in text] if isinstance(text, list) else text.lower()
            return text
        if self.analyzer is None:
            return text_to_word_sequence(text, filters=self.filters, lower=self.lower, split=self.split)
        return self.analyzer(text)

    def fit_on_texts(self, texts) -> None:
        for text in texts:
            self.document_count += 1
            words = self._words(text)
            for w in words:
                self.word_counts[w] = self.word_counts.get(w, 0) + 1
            for w in set(words):
                self.word_docs[w] += 1
        ordered = sorted(self.word_counts.items(), key=lambda x: x[1], reverse=True)  # stable: first seen first
        vocabulary = ([] if self.oov_token is None else [self.oov_token]) + [w for w, _ in ordered]
        self.word_index = dict(zip(vocabulary, range(1, len(vocabulary) + 1)))
        self.index_word = {c: w for w, c in self.word_index.items()}
        for w, c in list(self.word_docs.items()):
            self.index_docs[self.word_index[w]] = c

    def fit_on_sequences(self, sequences) -> None:
        self.document_count += len(sequences)
        for seq in sequences:
            for i in set(seq):
                self.index_docs[i] += 1

    def texts_to_sequences(self, texts) -> list:
        return list(self.texts_to_sequences_generator(texts))

    def texts_to_sequences_generator(self, texts):
        oov = self.word_index.get(self.oov_token)
        for text in texts:
            vector = []
            for w in self._words(text):
                i = self.word_index.get(w)
                if i is not None:
                    if self.num_words and i >= self.num_words:
                        if oov is not None:
                            vector.append(oov)
                    else:
                        vector.append(i)
                elif self.oov_token is not None:
                    vector.append(oov)
            yield vector

    def sequences_to_texts(self, sequences) -> list:
        return list(self.sequences_to_texts_generator(sequences))

    def sequences_to_texts_generator(self, sequences):
        oov = self.word_index.get(self.oov_token)
        for seq in sequences:
            words = []
            for num in seq:
                word = self.index_word.get(num)
                if word is not None:
                    if self.num_words and num >= self.num_words:
                        if oov is not None:
                            words.append(self.index_word[oov])
                    else:
                        words.append(word)
                elif self.oov_token is not None:
                    words.append(self.index_word[oov])
            yield " ".join(words)

    def texts_to_matrix(self, texts, mode="binary"):
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences, mode="binary"):
        if not self.num_words:
            if not self.word_index:
                raise ValueError("Specify a dimension (`num_words` argument), or fit on some text data first.")
            num_words = len(self.word_index) + 1
        else:
            num_words = self.num_words
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        x = np.zeros((len(sequences), num_words))
        for i, seq in enumerate(sequences):
            if not seq:
                continue
            counts = collections.Counter(j for j in seq if j < num_words)
            for j, c in counts.items():
                if mode == "count":
                    x[i][j] = c
                elif mode == "freq":
                    x[i][j] = c / len(seq)
                elif mode == "binary":
                    x[i][j] = 1
                elif mode == "tfidf":  # weighting scheme 2 of Wikipedia's tf-idf page, as Keras
                    x[i][j] = (1 + np.log(c)) * np.log(1 + self.document_count / (1 + self.index_docs.get(j, 0)))
                else:
                    raise ValueError("Unknown vectorization mode:", mode)
        return x

    def get_config(self) -> dict:
        return {"num_words": self.num_words, "filters": self.filters, "lower": self.lower, "split": self.split,
                "char_level": self.char_level, "oov_token": self.oov_token, "document_count": self.document_count,
                "word_counts": json.dumps(self.word_counts), "word_docs": json.dumps(self.word_docs),
                "index_docs": json.dumps(self.index_docs), "index_word": json.dumps(self.index_word),
                "word_index": json.dumps(self.word_index)}

    def to_json(self, **kwargs) -> str:
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()}, **kwargs)


def tokenizer_from_json(json_string) -> Tokenizer:
    """A Tokenizer from the JSON of Tokenizer.to_json()."""
    config = json.loads(json_string).get("config")
    word_counts = json.loads(config.pop("word_counts"))
    word_docs = json.loads(config.pop("word_docs"))
    index_docs = {int(k): v for k, v in json.loads(config.pop("index_docs")).items()}
    index_word = {int(k): v for k, v in json.loads(config.pop("index_word")).items()}
    word_index = json.loads(config.pop("word_index"))
    tokenizer = Tokenizer(**config)
    tokenizer.word_counts, tokenizer.word_docs, tokenizer.index_docs = word_counts, word_docs, index_docs
    tokenizer.word_index, tokenizer.index_word = word_index, index_word
    return tokenizer
