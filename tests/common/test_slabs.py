"""Arrays carved from slabs (common/slabs.py): layout, reuse accounting, bounded waste."""
import numpy as np

from graphkiln.common import slabs
from graphkiln.common.slabs import SlabAllocator, carve


def _root(a: np.ndarray) -> np.ndarray:
    while a.base is not None:
        a = a.base
    return a


def _disjoint(arrays) -> bool:
    spans = sorted((a.ctypes.data, a.ctypes.data + a.nbytes) for a in arrays)
    return all(end <= start for (_, end), (start, _) in zip(spans, spans[1:]))


def test_carve_lays_arrays_on_cache_lines_of_one_allocation():
    specs = [((3, 5), np.dtype(np.float32)), ((7,), np.dtype(np.float64)),
             ((300, 1000), np.dtype(np.float32)), ((2, 3), np.dtype(np.int64))]
    arrays = carve(specs)
    assert len({id(_root(a)) for a in arrays}) == 1 and _disjoint(arrays)
    for a, (shape, dtype) in zip(arrays, specs):
        assert a.shape == shape and a.dtype == dtype and a.flags.c_contiguous
        assert a.ctypes.data % slabs.ALIGN == 0


def test_slab_arrays_share_slabs_and_a_released_slab_is_dropped():
    alloc = SlabAllocator()
    n = slabs.SLAB_BYTES // 4 // 4  # a quarter slab of float32
    got = [alloc.empty((n,), np.float32) for _ in range(6)]  # 4 in the first slab, 2 after
    assert [t is not None for _, t in got] == [True] * 6 and _disjoint([a for a, _ in got])
    first, second = got[0][1], got[5][1]
    assert first != second and all(t == first for _, t in got[:4])
    assert alloc.slab_bytes == 2 * slabs.SLAB_BYTES
    for a, t in got[:4]:
        alloc.release(t, a)
    assert first not in alloc.kept and alloc.slab_bytes == slabs.SLAB_BYTES
    assert alloc.kept_bytes == 2 * n * 4


def test_small_huge_and_wasteful_requests_are_allocated_on_their_own():
    alloc = SlabAllocator()
    assert alloc.empty((16,), np.float32)[1] is None  # below MIN_CARVED
    assert alloc.empty((slabs.SLAB_BYTES,), np.uint8)[1] is None  # over half a slab
    quarter = slabs.SLAB_BYTES // 4
    held = [alloc.empty((quarter,), np.uint8) for _ in range(12)]  # four per slab
    assert len({t for _, t in held}) == 3
    for i, (a, t) in enumerate(held):  # one kept per slab: three slabs stay, mostly empty
        if i % 4:
            alloc.release(t, a)
    assert alloc.slab_bytes > 2 * alloc.kept_bytes + slabs.SLAB_BYTES
    assert alloc.empty((quarter,), np.uint8)[1] is None  # no new slab while waste is high
