"""What mindcv's, mindocr's and mindyolo's models and training scripts needed, against
MindSpore 2.10 (fixtures/record_realprog_cases.py): ``mindspore.boost`` gradient accumulation, the
``nn.Optimizer`` members user optimizers call (``target``, ``flatten_gradients``,
``assignadd`` of the global step...), MultitypeFuncGraph's sized type names, learning-rate
cells read at a ``[1]`` step, ``Parameter.cache_enable``, the errors of pools larger
than their input, user cells on ``RNNCellBase`` and ``ops.functional.identity`` passing
any value through."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms

FIXTURES = Path(__file__).with_name("fixtures")
sys.path.insert(0, str(FIXTURES))
import record_realprog_cases as recorder  # noqa: E402

EXPECTED = json.loads((FIXTURES / "realprog_cases.json").read_text())
MODES = {"graph": ms.GRAPH_MODE, "pynative": ms.PYNATIVE_MODE}


def _close(got, want, path="") -> None:
    if isinstance(want, dict):
        assert sorted(got) == sorted(want), path
        for k in want:
            _close(got[k], want[k], f"{path}/{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), path
        for i, (g, w) in enumerate(zip(got, want)):
            _close(g, w, f"{path}/{i}")
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=1e-5, abs=1e-6), path
    else:
        assert got == want, path


@pytest.fixture
def restore_mode():
    yield
    ms.set_context(mode=ms.GRAPH_MODE)


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_matches_mindspore(key, restore_mode):
    name, mode = key.split("/")
    _close(recorder.run(ms, name, MODES[mode]), EXPECTED[key])


def test_accumulation_is_the_mean_of_the_steps_gradients():
    """NumPy reference: the buffer after one call is grad/2, and the second call's update
    is Momentum's first step on the mean of the two gradients."""
    out = recorder.run(ms, "grad_accumulation", ms.PYNATIVE_MODE)
    w0 = np.arange(6, dtype=np.float64).reshape(2, 3) / 10
    grads = []
    for step in range(2):
        x, y = (t.asnumpy().astype(np.float64) for t in recorder._data(ms, step))
        err = x @ w0.T - y
        grads.append(2 * err.T @ x / err.size)
    np.testing.assert_allclose(out[0]["buffer"], grads[0] / 2, rtol=1e-5)
    np.testing.assert_allclose(out[1]["weight"], w0 - 0.1 * (grads[0] + grads[1]) / 2,
                               rtol=1e-5)
    assert out[1]["buffer"] == [[0.0] * 3] * 2 and out[1]["count"] == 0


def test_base_optimizer_target_cannot_be_set():
    net = ms.nn.Dense(2, 1)
    opt = ms.nn.SGD(net.trainable_params())
    assert opt.target == "CPU"
    with pytest.raises(NotImplementedError):
        opt.target = "CPU"


def test_parameter_cache_enable_flag():
    """mindcv's checkpoint callback reads ``param.cache_enable`` of every weight."""
    p = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
    assert p.cache_enable is False
    p.cache_enable = True
    assert p.clone().cache_enable is True
    with pytest.raises(TypeError, match="`cache_enable` must be bool"):
        p.cache_enable = 1
