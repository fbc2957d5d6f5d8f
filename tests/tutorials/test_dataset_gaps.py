"""Dataset features MindSpore's tutorials use that have no recorded script of their own."""
import multiprocessing

import numpy as np
import pytest

import graphkiln.dataset as ds


class _IndexTable:
    """A user sampler with only ``__getitem__`` and ``__len__``."""

    def __init__(self, ids):
        self.ids = ids

    def __getitem__(self, i):
        return self.ids[i]

    def __len__(self):
        return len(self.ids)


def test_a_sampler_with_getitem_and_len_gives_its_indices_in_order():
    letters = np.array(list("abcdefgh"))
    data = ds.NumpySlicesDataset(letters, column_names=["c"], sampler=_IndexTable([3, 0, 3, 7]))
    got = [str(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]
    assert got == ["d", "a", "d", "h"]


def test_a_sampler_without_indices_is_refused_with_what_is_accepted():
    with pytest.raises(TypeError, match="__getitem__ and __len__"):
        ds.NumpySlicesDataset(np.arange(3), sampler=object())


def test_more_workers_than_cpus_is_mindspores_value_error():
    cpus = multiprocessing.cpu_count()
    with pytest.raises(ValueError, match=f"exceeds the boundary between 1 and {cpus}!"):
        ds.NumpySlicesDataset(np.arange(3)).map(lambda x: x, num_parallel_workers=cpus + 1)
    with pytest.raises(ValueError, match="exceeds the boundary"):
        ds.NumpySlicesDataset(np.arange(3), num_parallel_workers=0)
