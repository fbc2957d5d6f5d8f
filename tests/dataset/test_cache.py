"""DatasetCache against MindSpore 2.10 with a real cache server (fixtures/record_cache.py)."""
import json
import os

import numpy as np
import pytest

import graphkiln.dataset as ds
import graphkiln.dataset.vision as vision

from .fixtures.cache_cases import CountingAdd, run_cases
from .fixtures.make_files import write_mnist

with open(os.path.join(os.path.dirname(__file__), "fixtures", "cache_reference.json")) as _f:
    REFERENCE = json.load(_f)


@pytest.fixture(scope="module")
def mnist_dir(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("mnist"))
    write_mnist(folder)
    return folder


@pytest.fixture(scope="module")
def results(mnist_dir):
    return run_cases(ds, vision, mnist_dir, lambda: ds.DatasetCache(session_id=1, size=0))


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_cache_matches_mindspore(name, results):
    got, want = dict(results[name]), dict(REFERENCE[name])
    # MindSpore serves from its server's cache from the third epoch on (the second still
    # runs the map while the server commits); here from the second: fewer calls, same rows.
    if "calls" in want:
        assert got.pop("calls") == 20 and want.pop("calls") == 40
    assert got == want


def test_cached_map_reshuffles_each_epoch(mnist_dir):
    ds.config.set_seed(7)
    add = CountingAdd()
    data = ds.MnistDataset(mnist_dir, usage="train", shuffle=True).map(
        add, input_columns="image", cache=ds.DatasetCache(session_id=2))
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=3)
    epochs = [[int(r[1]) for r in it] for _ in range(3)]
    assert add.calls == 20 and epochs[0] != epochs[1] != epochs[2]
    assert sorted(epochs[0]) == sorted(epochs[1]) == sorted(epochs[2])


def test_size_bound_keeps_results_right(mnist_dir):
    cache = ds.DatasetCache(session_id=3, size=1)  # 1 MiB holds 1 MiB of rows
    data = ds.MnistDataset(mnist_dir, usage="train", shuffle=False).map(
        lambda x: np.zeros((300, 300), np.float64), input_columns="image", cache=cache)
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=2)
    assert [len(list(it)) for _ in range(2)] == [20, 20]
    assert cache.get_stat().num_mem_cached == 1  # one 720 kB row fits, two do not
