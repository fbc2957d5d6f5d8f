"""DatasetHelper, connect_network_with_dataset and data_sink: batches and error types as
MindSpore 2.10 gives them on CPU (fixtures/record_dataset_helper.py), and the host-side
sinking graphkiln does for the Ascend/GPU targets."""
import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms

REC = json.loads((Path(__file__).resolve().parent / "fixtures" /
                  "dataset_helper.json").read_text())


def make_dataset():
    def gen():
        for i in range(5):
            yield np.full((2,), i, np.float32), np.array(i, np.int32)
    return ms.dataset.GeneratorDataset(gen, ["x", "y"], shuffle=False)


@pytest.fixture
def ascend_target():
    with warnings.catch_warnings():  # "accepted and executed on the CPU"
        warnings.simplefilter("ignore", UserWarning)
        ms.set_context(device_target="Ascend")
    yield
    ms.set_context(device_target="CPU")


def test_batches_match_mindspore():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    helper = ms.DatasetHelper(make_dataset(), dataset_sink_mode=False)
    assert [[t.asnumpy().tolist() for t in b] for b in helper] == REC["batches"]


def _errors():
    return {
        "sink_on_cpu": lambda: ms.DatasetHelper(make_dataset(), True),
        "data_sink_on_cpu": lambda: ms.data_sink(lambda x, y: x, make_dataset()),
        "sink_size_zero": lambda: ms.DatasetHelper(make_dataset(), True, 0),
        "sink_mode_type": lambda: ms.DatasetHelper(make_dataset(), 1),
        "connect_not_sink": lambda: ms.connect_network_with_dataset(
            ms.nn.Dense(2, 2), ms.DatasetHelper(make_dataset(), False)),
        "data_sink_size": lambda: ms.data_sink(lambda x, y: x, make_dataset(), 0),
        "graph_sink_cpu": lambda: ms.DatasetHelper(make_dataset(), True),
    }


@pytest.mark.parametrize("name", sorted(REC["errors"]))
def test_errors_match_mindspore_on_cpu(name):
    ms.set_context(mode=ms.GRAPH_MODE if name.startswith("graph") else ms.PYNATIVE_MODE)
    with pytest.raises(Exception) as info:
        _errors()[name]()
    assert type(info.value).__name__ == REC["errors"][name]
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_sink_mode_on_an_accelerator_target_feeds_batches(ascend_target):
    helper = ms.DatasetHelper(make_dataset(), dataset_sink_mode=True, sink_size=3)
    assert helper.sink_size() == 3
    types, shapes = helper.types_shapes()
    assert types == [ms.float32, ms.int32] and shapes == [(2,), ()]
    net = ms.connect_network_with_dataset(ms.nn.ReLU(), helper)
    seen = [float(net(x).asnumpy()[0]) + int(y.asnumpy()) for x, y in helper]
    assert seen == [0.0, 2.0, 4.0, 6.0, 8.0]


def test_data_sink_runs_sink_size_batches_per_call(ascend_target):
    calls = []

    def step(x, y):
        calls.append(int(y.asnumpy()))
        return x * 2

    sink = ms.data_sink(step, make_dataset(), sink_size=2)
    outs = [sink().asnumpy()[0] for _ in range(3)]
    assert calls == [0, 1, 2, 3, 4, 0] and outs == [2.0, 6.0, 0.0]


def test_reexports():
    assert ms.seed is ms.common.generator.seed
    assert ms.build_train_network is ms.amp.build_train_network
    assert ms.DatasetHelper is ms.train.DatasetHelper
