"""A resumed pipeline skips its earlier epochs without reading them where the pipeline
allows (fast recovery): the rows are those of a replay of every earlier epoch, and a source
read by index reads only the resumed epoch's rows."""
import numpy as np
import pytest

import graphkiln.dataset as ds
import graphkiln.dataset.transforms as tf
from graphkiln.dataset.engine.datasets import Dataset


class Counted:
    """A random-access source that counts its reads."""

    def __init__(self, n: int = 12):
        self.n, self.reads = n, 0

    def __getitem__(self, i):
        self.reads += 1
        return np.array(i, np.int32)

    def __len__(self):
        return self.n


def _pipelines():
    def gen(shuffle=True, n=12):
        source = Counted(n)
        return source, ds.GeneratorDataset(source, ["x"], shuffle=shuffle)

    def shuffled_buffer():
        source, data = gen(False)
        return source, data.shuffle(5).map(lambda x: x * 2).batch(2)

    def random_map_repeat():
        source, data = gen()
        data = data.map(tf.RandomApply([tf.Fill(0)], prob=0.5), num_parallel_workers=2)
        return source, data.repeat(2).batch(3)

    def concat_zip():
        a, left = gen()
        _, right = gen(n=12)
        right = right.rename("x", "y")
        return a, (left + ds.GeneratorDataset(Counted(4), ["x"])).skip(4).zip(right)

    def split_part():
        source, data = gen(n=20)
        return source, data.split([0.5, 0.5])[1].shuffle(3)

    return {"shuffled_buffer": shuffled_buffer, "random_map_repeat": random_map_repeat,
            "concat_zip": concat_zip, "split_part": split_part}


def _resumed(build, step: int, num_epochs: int, cheap: bool, monkeypatch):
    with monkeypatch.context() as m:
        if not cheap:
            m.setattr(Dataset, "_skips_cheaply", lambda self: False)
        source, data = build()
        data.set_init_step(step)
        it = data.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True)
        left = num_epochs - step // data.get_dataset_size()
        rows = [[[np.asarray(c).tolist() for c in r] for r in it] for _ in range(left)]
        return rows, source.reads


@pytest.mark.parametrize("name", sorted(_pipelines()))
def test_skipped_epochs_give_the_replayed_rows(name, monkeypatch):
    build = _pipelines()[name]
    seed = ds.config.get_seed()
    try:
        ds.config.set_seed(3)
        size = build()[1].get_dataset_size()
        step = 3 * size + size // 2
        ds.config.set_seed(3)
        replayed, replay_reads = _resumed(build, step, 5, False, monkeypatch)
        ds.config.set_seed(3)
        skipped, skip_reads = _resumed(build, step, 5, True, monkeypatch)
    finally:
        ds.config.set_seed(seed)
    assert skipped == replayed and len(skipped) == 2
    assert skip_reads < replay_reads / 2


def test_unskippable_pipeline_still_replays(monkeypatch):
    """A Python generator may keep state between epochs: its epochs run again."""
    calls = []

    def rows():
        calls.append(1)
        yield from (np.array(i) for i in range(4))

    data = ds.GeneratorDataset(rows, ["x"])
    data.set_init_step(9)
    got = [r[0].tolist() for r in data.create_tuple_iterator(num_epochs=3, output_numpy=True)]
    # one pass for the dataset size (a generator has no length), two replayed, one resumed
    assert got == [1, 2, 3] and len(calls) == 4


def test_a_source_read_by_index_reads_only_what_the_resumed_run_gives():
    """Earlier epochs and the rows before the step inside its epoch are skipped by index,
    below the map and the batch (fast recovery)."""
    source = Counted(12)
    data = ds.GeneratorDataset(source, ["x"], shuffle=False).map(lambda x: x + 100).batch(2)
    data.set_init_step(3 * 6 + 2)  # epoch 3, after its first two batches
    it = data.create_tuple_iterator(num_epochs=5, output_numpy=True)
    epochs = [[r[0].tolist() for r in it] for _ in range(2)]
    assert epochs[0] == [[104, 105], [106, 107], [108, 109], [110, 111]]
    assert len(epochs[1]) == 6 and source.reads == 8 + 12
