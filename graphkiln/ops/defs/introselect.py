"""The order C++'s ``std::nth_element`` (libstdc++'s introselect) leaves a row's indices in:
MindSpore's CPU ``TopK(sorted=False)`` returns its first ``k`` as they are.

Introselect partitions around a median-of-three pivot until the part holding position ``k``
has at most 3 elements, then insertion-sorts that part (a heap select after
``2 * floor(log2(n))`` partitions), with TopK's comparator ``value(a) > value(b)``: the
largest first.
"""
from __future__ import annotations

import heapq
from collections.abc import Callable


def _median_to_first(idx: list, result: int, a: int, b: int, c: int, before) -> None:
    if before(idx[a], idx[b]):
        pick = b if before(idx[b], idx[c]) else c if before(idx[a], idx[c]) else a
    else:
        pick = a if before(idx[a], idx[c]) else c if before(idx[b], idx[c]) else b
    idx[result], idx[pick] = idx[pick], idx[result]


def _partition(idx: list, first: int, last: int, pivot, before) -> int:
    while True:
        while before(idx[first], pivot):
            first += 1
        last -= 1
        while before(pivot, idx[last]):
            last -= 1
        if not first < last:
            return first
        idx[first], idx[last] = idx[last], idx[first]
        first += 1


def _insertion_sort(idx: list, first: int, last: int, before) -> None:
    for i in range(first + 1, last):
        value = idx[i]
        if before(value, idx[first]):
            idx[first + 1:i + 1] = idx[first:i]
            idx[first] = value
            continue
        j = i
        while before(value, idx[j - 1]):
            idx[j] = idx[j - 1]
            j -= 1
        idx[j] = value


def _heap_select(idx: list, first: int, middle: int, last: int, before) -> None:
    """The ``middle - first`` elements that belong first, as a heap (rarely reached)."""
    class _Key:
        __slots__ = ("i",)

        def __init__(self, i):
            self.i = i

        def __lt__(self, other):  # heapq keeps the smallest on top: the one placed last
            return before(other.i, self.i)

    heap = [_Key(i) for i in idx[first:middle]]
    heapq.heapify(heap)
    for pos in range(middle, last):
        if before(idx[pos], heap[0].i):
            idx[pos], heap[0].i = heap[0].i, idx[pos]
            heapq.heapreplace(heap, heap[0])
    idx[first:middle] = [k.i for k in heap]


def nth_element(idx: list, nth: int, value: Callable[[int], float]) -> None:
    """Reorder ``idx`` in place as ``std::nth_element(idx, idx + nth, idx + len, comp)`` with
    ``comp(a, b) = value(a) > value(b)``."""
    def before(a, b):
        return value(a) > value(b)

    first, last = 0, len(idx)
    if nth >= last:
        return
    depth = 2 * ((last - first).bit_length() - 1)
    while last - first > 3:
        if depth == 0:
            _heap_select(idx, first, nth + 1, last, before)
            idx[first], idx[nth] = idx[nth], idx[first]
            return
        depth -= 1
        mid = first + (last - first) // 2
        _median_to_first(idx, first, first + 1, mid, last - 1, before)
        cut = _partition(idx, first + 1, last, idx[first], before)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(idx, first, last, before)
