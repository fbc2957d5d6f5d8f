"""FlopsUtilizationCollector against MindSpore 2.10 CPU (fixtures/record_flops.py): the flops
of the compiled train and eval networks (MatMul, Conv2D and their gradients, as MindSpore's
pruned gradient graph has them), the PYNATIVE_MODE refusal, bad arguments; and the
per-step MFU line."""
import json
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import compat, nn, ops
from graphkiln.compile.flops import flops_collection
from graphkiln.train import FlopsUtilizationCollector
from graphkiln.train.callback import CallbackParams

FIXTURES = Path(__file__).resolve().parent / "fixtures"
RECORDED = json.loads((FIXTURES / "flops.json").read_text())
RECORDER = compat.import_mindspore_module(FIXTURES / "record_flops.py")


@pytest.mark.parametrize("name", sorted(RECORDED["graph"]))
def test_train_and_eval_flops_match_mindspore(name):
    assert RECORDER.flops_lines(name, ms.GRAPH_MODE) == RECORDED["graph"][name]


def test_pynative_mode_is_refused_as_mindspore():
    kind, message = RECORDED["pynative"]
    with pytest.raises(ValueError) as info:
        RECORDER.flops_lines("dense", ms.PYNATIVE_MODE)
    assert (type(info.value).__name__, str(info.value)) == (kind, message)


@pytest.mark.parametrize("case", sorted(RECORDED["bad_arguments"]))
def test_bad_arguments_raise_what_mindspore_raises(case):
    kind, message = RECORDED["bad_arguments"][case]
    with pytest.raises((TypeError, ValueError)) as info:
        FlopsUtilizationCollector(**RECORDER.BAD_ARGUMENTS[case])
    assert (type(info.value).__name__, str(info.value)) == (kind, message)


def test_batched_and_transposed_matmul_flops_of_a_jit_function():
    @ms.jit
    def f(a, b):
        return ops.BatchMatMul(transpose_a=True)(a, b)

    f(ms.Tensor(np.ones((3, 4, 2), np.float32)), ms.Tensor(np.ones((3, 4, 5), np.float32)))
    flops = flops_collection(f)
    assert flops.full_model == 2 * (3 * 2 * 5) * 4 and not flops.is_dynamic_shape


def test_per_step_line_reports_mfu_against_computility(capsys):
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.Dense(4, 3)
    collector = FlopsUtilizationCollector(data_size=3, computility=1e12)
    params = CallbackParams(mode="train", train_network=net, dataset_sink_mode=False,
                            batch_num=3, cur_step_num=1)
    context = ms.train.RunContext(params)
    net(ms.Tensor(np.ones((2, 4), np.float32)))
    collector.on_train_step_begin(context)
    collector.on_train_step_end(context)
    first, line = capsys.readouterr().out.splitlines()
    assert first.startswith("Full model flops is 48.0,")
    assert line.startswith("Train per step time: ") and " mfu:" in line and " hfu:" in line
