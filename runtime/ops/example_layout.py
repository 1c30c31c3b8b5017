"""A shortcut for batches of Examples that share one byte layout, the usual shape of fixed-size data (an image
of N bytes, a label, K floats): every record has the same length and the same bytes everywhere except inside
the features' values. Then the batch is an (n, length) byte matrix, and a feature's values are columns
of it: packed floats one `view('<f4')`, one-byte varints one cast, strings fixed slices.

Why: the general decoder (example_wire) costs a fixed ~200 numpy steps per batch whatever the batch holds;
here a batch costs about twenty. The layout is learned from one record with the general decoder and kept per
(wanted features, record length); a batch uses it only after a check that all its records have that length
and equal the learned record on every byte outside the features' values (tags, lengths, keys), so the
message structure is the learned one (the general decoder does not look into unwanted features' values
either). Anything else (lengths differ, another key order, a varint of two
bytes) goes to the general decoder."""

from __future__ import annotations

import numpy as np

from . import example_wire as wire

_LAYOUTS: dict = {}  # (wanted, record length) -> _Layout or None (the record could not be learned)
_MOST = 64  # layouts kept (one per distinct record length seen; a dataset of varied lengths must not grow it)


class _Layout:
    def __init__(self, record: bytes, wanted):
        items_of = wire._Learning()
        self.columns = wire.decode([record], wanted, items_of)
        length = len(record)
        in_values = np.zeros(length, bool)
        in_values[wire._ranges(*items_of.unwanted)] = True  # other features' values may differ too
        self.values_at = []  # per wanted key: the byte positions of its values in a record, or its item spans
        for items in items_of:
            if items is None:
                self.values_at.append(None)
                continue
            positions = wire._ranges(items.begin, items.end)
            in_values[positions] = True
            self.values_at.append((positions, list(zip(items.begin.tolist(), items.end.tolist()))))
        self.fixed = np.flatnonzero(~in_values)
        self.fixed_bytes = np.frombuffer(record, np.uint8)[self.fixed]

    def decode(self, data: bytes, n: int, length: int, wanted):
        matrix = np.frombuffer(data, np.uint8).reshape(n, length)
        if not (matrix[:, self.fixed] == self.fixed_bytes).all():
            return None
        out = []
        for (_key, kind), column, values_at in zip(wanted, self.columns, self.values_at):
            if values_at is None:  # absent, empty or of another kind in every record alike
                values = None if column.values is None else column.values[:0]
                out.append(wire.Decoded(np.repeat(column.present, n), np.repeat(column.kind, n),
                                        np.repeat(column.counts, n), values))
                continue
            positions, spans = values_at
            if kind == wire.STRING:
                values = np.empty(n * len(spans), dtype=object)
                values[:] = [data[base + b:base + e] for base in range(0, n * length, length) for b, e in spans]
                count = len(spans)
            elif kind == wire.FLOAT:
                values = np.ascontiguousarray(matrix[:, positions]).view("<f4").astype(np.float32).reshape(-1)
                count = positions.size // 4
            else:
                raw = matrix[:, positions]
                if raw.size and raw.max() >= 0x80:  # a varint of several bytes: boundaries differ per record
                    return None
                values = raw.astype(np.int64).reshape(-1)
                count = positions.size
            out.append(wire.Decoded(np.repeat(column.present, n), np.repeat(column.kind, n),
                                    np.full(n, count, np.int64), values))
        return out


def decode(records, wanted):
    """The batch's columns through a learned layout, or None when the batch does not fit one."""
    n = len(records)
    if n < 2:
        return None
    length = len(records[0])
    if length == 0 or len(set(map(len, records))) != 1:
        return None
    key = (tuple(wanted), length)
    layout = _LAYOUTS.get(key, False)
    if layout is False:
        try:
            layout = _Layout(records[0], wanted)
        except wire.Unusual:
            layout = None
        if len(_LAYOUTS) >= _MOST:
            _LAYOUTS.clear()
        _LAYOUTS[key] = layout
    return None if layout is None else layout.decode(b"".join(records), n, length, wanted)
