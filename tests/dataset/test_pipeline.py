"""Pipeline behaviour: iterators, epochs, seeds, workers, introspection and operations."""
import time

import numpy as np
import pytest

import graphkiln as ms
import graphkiln.dataset as ds
import graphkiln.dataset.vision as vision


class Squares:
    """Random-access source: (i, i*i as float32 pair)."""

    def __init__(self, n=20):
        self.n = n

    def __getitem__(self, i):
        return np.array(i), np.array([i * i, -i], np.float32)

    def __len__(self):
        return self.n


@pytest.fixture(autouse=True)
def _config():
    saved = (ds.config.get_seed(), ds.config.get_num_parallel_workers(),
             ds.config.get_prefetch_size())
    yield
    ds.config.set_seed(saved[0])
    ds.config.set_num_parallel_workers(saved[1])
    ds.config.set_prefetch_size(saved[2])


def _column(data, i=0, **kw):
    return [r[i].tolist() for r in data.create_tuple_iterator(output_numpy=True, **kw)]


def test_iterators_give_tensors_numpy_and_dicts():
    data = ds.GeneratorDataset(Squares(4), ["i", "sq"], shuffle=False)
    row = next(iter(data.create_tuple_iterator()))
    assert isinstance(row, list) and isinstance(row[0], ms.Tensor)
    assert row[1].dtype == ms.float32 and row[0].dtype == ms.int64
    d = next(iter(data.create_dict_iterator(output_numpy=True)))
    assert set(d) == {"i", "sq"} and isinstance(d["sq"], np.ndarray)
    assert [type(x) for x in next(iter(data))] == [ms.Tensor, ms.Tensor]
    assert _column(data, columns=["sq"]) == [[0.0, 0.0], [1.0, -1.0], [4.0, -2.0], [9.0, -3.0]]
    strings = ds.GeneratorDataset([(np.array(["ab", "c"]),)], ["s"])
    assert next(iter(strings.create_tuple_iterator()))[0].dtype.kind == "U"


def test_batches_feed_compiled_cells():
    net = ms.nn.Dense(2, 3)
    data = ds.GeneratorDataset(Squares(6), ["i", "sq"], shuffle=False).batch(3)
    outs = [net(sq).shape for _, sq in data.create_tuple_iterator()]
    assert outs == [(3, 3), (3, 3)]


def test_epochs_and_num_epochs():
    it = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).create_tuple_iterator(
        num_epochs=2, output_numpy=True)
    assert [int(r[0]) for r in it] == [1, 2, 3]
    assert [int(r[0]) for r in it] == [1, 2, 3]
    with pytest.raises(RuntimeError, match="beyond the specified number of epochs"):
        list(it)  # as MindSpore (tests/dataset/test_epochs.py)


def test_seeded_runs_repeat_whatever_the_worker_kind():
    """A seed fixes every draw; random ops draw per map worker (seeded seed + w, as in
    MindSpore), so the worker count changes them but threads or processes do not."""
    def run(workers, processes, seed=7):
        ds.config.set_seed(seed)
        data = ds.GeneratorDataset(Squares(24), ["i", "sq"], shuffle=True)
        data = data.map(lambda i: i * 1, input_columns=["i"])
        img = ds.NumpySlicesDataset(np.arange(24 * 48).reshape(24, 4, 4, 3).astype(np.uint8),
                                    ["img"], shuffle=False)
        img = img.map([vision.RandomCrop(3), vision.RandomHorizontalFlip()], ["img"],
                      num_parallel_workers=workers, python_multiprocessing=processes)
        both = ds.zip((data.shuffle(5), img)).batch(4)
        return [[a.tolist() for a in r] for r in both.create_tuple_iterator(
            output_numpy=True, num_epochs=1)]

    first = run(1, False)
    assert first == run(1, True)
    assert run(2, False) == run(2, True) != first
    assert run(1, False, seed=8) != first


def test_epochs_reshuffle_with_a_seed():
    ds.config.set_seed(3)
    it = ds.NumpySlicesDataset(list(range(30))).create_tuple_iterator(num_epochs=2,
                                                                     output_numpy=True)
    e1, e2 = [int(r[0]) for r in it], [int(r[0]) for r in it]
    assert sorted(e1) == sorted(e2) == list(range(30)) and e1 != e2


def test_introspection():
    data = ds.GeneratorDataset(Squares(10), ["i", "sq"], shuffle=False)
    assert data.output_shapes() == [[], [2]]
    assert data.output_types() == [np.int64, np.float32]
    b = data.batch(4, drop_remainder=True).repeat(3)
    assert (b.get_dataset_size(), b.get_batch_size(), b.get_repeat_count()) == (6, 4, 3)
    assert b.output_shapes() == [[4], [4, 2]]
    unknown = ds.GeneratorDataset(lambda: iter([(np.array(1),)] * 5), ["x"])
    assert unknown.get_dataset_size() == 5
    fresh = ds.GeneratorDataset(Squares(10), ["i", "sq"], shuffle=False)  # one tree a source
    assert fresh.filter(lambda i: i < 3, ["i"]).get_dataset_size() == 3


def test_split_and_shuffle_buffer():
    ds.config.set_seed(1)
    a, b = ds.NumpySlicesDataset(list(range(10)), shuffle=False).split([7, 3])
    got = sorted(_column(a) + _column(b))
    assert got == list(range(10)) and a.get_dataset_size() == 7
    shuffled = _column(ds.NumpySlicesDataset(list(range(50)), shuffle=False).shuffle(8))
    assert sorted(shuffled) == list(range(50)) and shuffled != list(range(50))


def test_per_batch_map_with_workers_and_callable_batch_size():
    data = ds.NumpySlicesDataset({"a": np.arange(10)}, shuffle=False)
    got = data.batch(lambda info: info.get_batch_num() + 1,
                     per_batch_map=lambda a, info: ([x + 100 for x in a],),
                     input_columns=["a"], num_parallel_workers=2)
    assert [len(r) for r in _column(got)] == [1, 2, 3, 4]
    assert sum(_column(got), [])[:3] == [100, 101, 102]


def test_samplers():
    n = ds.NumpySlicesDataset(list(range(10)), sampler=ds.SubsetSampler([3, 1]))
    assert _column(n) == [3, 1]
    ds.config.set_seed(5)
    r = _column(ds.NumpySlicesDataset(list(range(10)), sampler=ds.SubsetRandomSampler([2, 4, 6])))
    assert sorted(r) == [2, 4, 6]
    rnd = ds.NumpySlicesDataset(list(range(10)), sampler=ds.RandomSampler(num_samples=4))
    assert len(_column(rnd)) == 4 and rnd.get_dataset_size() == 4
    rep = ds.NumpySlicesDataset(list(range(3)), sampler=ds.RandomSampler(True, 8))
    assert len(_column(rep)) == 3  # MindSpore draws at most the source's rows
    shards = [_column(ds.NumpySlicesDataset(list(range(10)), sampler=ds.DistributedSampler(
        3, k, shuffle=True))) for k in range(3)]
    assert sorted(sum(shards, []))[:10] != [] and set(sum(shards, [])) == set(range(10))
    assert _column(ds.NumpySlicesDataset(list(range(10)), sampler=[9, 0])) == [9, 0]
    weighted = ds.NumpySlicesDataset(list(range(40)), sampler=ds.WeightedRandomSampler(
        [0.0, 1.0, 3.0], num_samples=40))  # at most the source's rows, as MindSpore
    drawn = _column(weighted)
    assert len(drawn) == 40 and 0 not in drawn and drawn.count(2) > drawn.count(1)
    with pytest.raises(RuntimeError, match="together"):
        ds.NumpySlicesDataset([1, 2], num_shards=2)
    with pytest.raises(ValueError, match="shard_id"):
        ds.NumpySlicesDataset([1, 2], num_shards=2, shard_id=2)
    with pytest.raises(RuntimeError, match="shuffle"):
        ds.NumpySlicesDataset([1, 2], sampler=ds.SequentialSampler(), shuffle=True)


def test_generator_sources():
    gen = ds.GeneratorDataset(lambda: ((np.array(i),) for i in range(4)), "x", num_samples=3)
    assert _column(gen) == [0, 1, 2]
    typed = ds.GeneratorDataset(Squares(3), ["i", "sq"], column_types=[ms.int32, ms.float16],
                                shuffle=False)
    assert typed.output_types() == [np.int32, np.float16]
    schema = ds.Schema()
    schema.add_column("i", de_type=ms.int64)
    schema.add_column("sq", de_type=ms.float32)
    assert ds.GeneratorDataset(Squares(2), schema=schema).get_col_names() == ["i", "sq"]
    with pytest.raises(ValueError, match="random-access"):
        ds.GeneratorDataset(lambda: iter([]), ["x"], num_shards=2, shard_id=0)
    with pytest.raises(ValueError, match="columns_names nor schema"):
        ds.GeneratorDataset(Squares())


def test_parallel_random_access_source_in_processes():
    data = ds.GeneratorDataset(Squares(40), ["i", "sq"], shuffle=False, num_parallel_workers=2,
                               python_multiprocessing=True)
    assert _column(data) == list(range(40))


def test_config_checks():
    ds.config.set_prefetch_size(4)
    ds.config.set_num_parallel_workers(3)
    assert (ds.config.get_prefetch_size(), ds.config.get_num_parallel_workers()) == (4, 3)
    with pytest.raises(TypeError):
        ds.config.set_seed("1")
    with pytest.raises(ValueError):
        ds.config.set_prefetch_size(0)


def test_operation_argument_errors():
    data = ds.NumpySlicesDataset({"a": [1, 2]}, shuffle=False)
    with pytest.raises(ValueError, match="batch_size"):
        data.batch(0)
    broken = data.map(lambda x: x, input_columns=["nope"])  # column errors: test_columns.py
    with pytest.raises(RuntimeError, match="doesn't exist"):
        broken.get_col_names()
    fresh = ds.NumpySlicesDataset({"a": [1, 2]}, shuffle=False)
    with pytest.raises(RuntimeError, match="output_columns"):
        list(fresh.map(lambda a: (a, a), input_columns=["a"]))


def test_prefetch_runs_ahead_but_memory_stays_bounded():
    ds.config.set_prefetch_size(2)
    produced = []

    def endless():
        i = 0
        while True:
            produced.append(i)
            yield (np.array(i),)
            i += 1

    data = ds.GeneratorDataset(endless, ["x"]).map(lambda x: x + 1, ["x"],
                                                   num_parallel_workers=2).batch(4)
    it = data.create_tuple_iterator(output_numpy=True)
    first = next(it)
    assert first[0].tolist() == [1, 2, 3, 4]
    deadline = time.time() + 0.5
    while len(produced) < 8 and time.time() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)
    assert 8 <= len(produced) < 200  # ran ahead of the consumer, within its buffers
    it.stop()


def test_endless_repeat_reports_one_pass():
    gen = ds.GeneratorDataset(lambda: iter([(np.array(1),)] * 3), ["x"])
    assert gen.repeat().get_dataset_size() == 3
    assert gen.repeat().get_repeat_count() == -1
    assert ds.NumpySlicesDataset([1, 2]).repeat(-1).get_dataset_size() == 2


def test_distributed_shards_agree_without_a_seed():
    """Every rank must shuffle alike (MindSpore seeds DistributedSampler from the config)."""
    def shard(k):
        data = ds.NumpySlicesDataset(list(range(10)), num_shards=2, shard_id=k)
        return _column(data)

    a, b = shard(0), shard(1)
    assert sorted(a + b) == list(range(10)) and shard(0) == a


def test_padded_dataset_pads_for_even_shards():
    pad = ds.PaddedDataset([{"x": np.array(-1)}, {"x": np.array(-2)}])
    assert pad.get_col_names() == ["x"] and _column(pad) == [-1, -2]
    data = ds.NumpySlicesDataset({"x": np.arange(4)}, shuffle=False) + pad
    assert data.get_dataset_size() == 6 and _column(data)[-2:] == [-1, -2]
    with pytest.raises(ValueError, match="same keys"):
        ds.PaddedDataset([{"x": 1}, {"y": 2}])
    ds.config.set_numa_enable(True)
    assert ds.config.get_numa_enable()
    ds.config.set_numa_enable(False)


def test_a_node_feeding_two_pipelines_is_refused_as_in_mindspore():
    # MindSpore 2.10 (same calls): "The data pipeline is not a tree (i.e., one node has 2
    # consumers)" from get_col_names, get_dataset_size and iterators once a node below the
    # one asked has two consumers; the shared node itself still runs
    base = ds.NumpySlicesDataset({"a": np.arange(4)}, shuffle=False)
    first = base.map(lambda x: x + 1, input_columns="a")
    assert [int(r[0]) for r in first.create_tuple_iterator(output_numpy=True)] == [1, 2, 3, 4]
    second = base.batch(2)
    for use in (first.get_col_names, second.get_dataset_size,
                lambda: next(second.create_dict_iterator())):
        with pytest.raises(ValueError, match=r"not a tree \(i.e., one node has 2 consumers\)"):
            use()
    assert base.get_dataset_size() == 4
    both = ds.NumpySlicesDataset({"a": np.arange(2)}, shuffle=False)
    with pytest.raises(ValueError, match="not a tree"):
        (both + both).get_dataset_size()
