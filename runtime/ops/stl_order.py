"""The orders libstdc++'s std::priority_queue and std::sort leave equal elements in, for kernels whose results
depend on them: TF's CombinedNonMaxSuppression takes candidates from a std::priority_queue compared by score
only, and sorts its detections with std::sort (not stable), so among equal scores TF's output order is the one
these algorithms produce. Each function follows libstdc++'s bits/stl_heap.h and bits/stl_algo.h step by step;
`less(a, b)` is the comparator."""

from __future__ import annotations

_THRESHOLD = 16  # libstdc++'s _S_threshold: below it, sorting is insertion sort


def _push_up(items, hole, top, value, less):
    parent = (hole - 1) // 2
    while hole > top and less(items[parent], value):
        items[hole] = items[parent]
        hole = parent
        parent = (hole - 1) // 2
    items[hole] = value


def _adjust(items, first, hole, length, value, less):
    """std::__adjust_heap on items[first:first + length], hole relative to first."""
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(items[first + child], items[first + child - 1]):
            child -= 1
        items[first + hole] = items[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        items[first + hole] = items[first + child - 1]
        hole = child - 1
    view = _Offset(items, first)
    _push_up(view, hole, top, value, less)


class _Offset:
    """items seen from index `first` on (the iterators of libstdc++'s heap functions)."""

    def __init__(self, items, first):
        self.items, self.first = items, first

    def __getitem__(self, i):
        return self.items[self.first + i]

    def __setitem__(self, i, value):
        self.items[self.first + i] = value


class PriorityQueue:
    """std::priority_queue over a sequence: push = push_back + push_heap, pop = pop_heap + pop_back."""

    def __init__(self, less):
        self.items, self.less = [], less

    def __len__(self):
        return len(self.items)

    def push(self, value):
        self.items.append(value)
        _push_up(self.items, len(self.items) - 1, 0, value, self.less)

    def pop(self):
        items = self.items
        top = items[0]
        if len(items) > 1:
            last = len(items) - 1
            value = items[last]
            items[last] = items[0]
            _adjust(items, 0, 0, last, value, self.less)
        items.pop()
        return top


def _make_heap(items, first, last, less):
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust(items, first, parent, length, items[first + parent], less)
        if parent == 0:
            return
        parent -= 1


def _heap_sort(items, first, last, less):
    """std::partial_sort(first, last, last): make_heap, then pop_heap down to one element."""
    _make_heap(items, first, last, less)
    while last - first > 1:
        last -= 1
        value = items[last]
        items[last] = items[first]
        _adjust(items, first, 0, last - first, value, less)


def _median_to_first(items, result, a, b, c, less):
    x, y, z = items[a], items[b], items[c]
    if less(x, y):
        pick = b if less(y, z) else (c if less(x, z) else a)
    else:
        pick = a if less(x, z) else (c if less(y, z) else b)
    items[result], items[pick] = items[pick], items[result]


def _partition(items, first, last, pivot, less):
    while True:
        while less(items[first], items[pivot]):
            first += 1
        last -= 1
        while less(items[pivot], items[last]):
            last -= 1
        if not first < last:
            return first
        items[first], items[last] = items[last], items[first]
        first += 1


def _introsort_loop(items, first, last, depth, less):
    while last - first > _THRESHOLD:
        if depth == 0:
            _heap_sort(items, first, last, less)
            return
        depth -= 1
        mid = first + (last - first) // 2
        _median_to_first(items, first, first + 1, mid, last - 1, less)
        cut = _partition(items, first + 1, last, first, less)
        _introsort_loop(items, cut, last, depth, less)
        last = cut


def _linear_insert(items, i, less):
    value = items[i]
    j = i - 1
    while less(value, items[j]):
        items[i] = items[j]
        i, j = j, j - 1
    items[i] = value


def _insertion_sort(items, first, last, less):
    for i in range(first + 1, last):
        value = items[i]
        if less(value, items[first]):
            items[first + 1:i + 1] = items[first:i]
            items[first] = value
        else:
            _linear_insert(items, i, less)


def sort(items: list, less) -> None:
    """std::sort in place: introsort to runs of at most 16, then insertion sort."""
    n = len(items)
    if n < 2:
        return
    _introsort_loop(items, 0, n, 2 * (n.bit_length() - 1), less)
    if n > _THRESHOLD:
        _insertion_sort(items, 0, _THRESHOLD, less)
        for i in range(_THRESHOLD, n):
            _linear_insert(items, i, less)
    else:
        _insertion_sort(items, 0, n, less)
