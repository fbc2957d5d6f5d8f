"""``opt_init_args_register``: what each optimizer (and a user's registered optimizer) keeps
of its arguments matches MindSpore 2.10 (recorded by fixtures/record_optimizer_init_args.py)."""
import json
import sys
from pathlib import Path

import pytest

import graphkiln as ms

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
import record_optimizer_init_args as recorder  # noqa: E402

EXPECTED = json.loads((FIXTURES / "optimizer_init_args.json").read_text())
GOT = recorder.init_args(ms)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_init_args_match_mindspore(name):
    assert GOT[name] == EXPECTED[name]


def test_registered_init_still_runs_and_checks():
    opt = recorder.custom_optimizer(ms)(ms.nn.Dense(3, 2).trainable_params(), damping=0.25)
    assert opt.damping == 0.25 and float(opt.learning_rate.asnumpy()) == pytest.approx(0.01)
    with pytest.raises(TypeError):
        recorder.custom_optimizer(ms)(ms.nn.Dense(3, 2).trainable_params(), bogus=1)
