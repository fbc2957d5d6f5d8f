"""``Cell.state_dict`` / ``load_state_dict``: parameters and persistent buffers by dotted
name, a checkpoint round trip, strict-mode errors and the four hooks."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn


class Block(nn.Cell):
    def __init__(self, value):
        super().__init__()
        self.fc = nn.Dense(2, 2, weight_init="normal" if value else "zeros")
        self.register_buffer("running", Tensor(np.full(2, value, np.float32)))
        self.register_buffer("scratch", Tensor(np.zeros(2, np.float32)), persistent=False)

    def construct(self, x):
        return self.fc(x) + self.running


class Net(nn.Cell):
    def __init__(self, value):
        super().__init__()
        self.block = Block(value)
        self.gain = ms.Parameter(Tensor(np.full(2, value + 1.0, np.float32)))

    def construct(self, x):
        return self.block(x) * self.gain


def test_state_dict_names_params_then_sub_cells_and_skips_non_persistent():
    keys = list(Net(1.0).state_dict().keys())
    assert keys == ["gain", "block.running", "block.fc.weight", "block.fc.bias"]


def test_checkpoint_round_trip_copies_params_and_buffers(tmp_path):
    src, dst = Net(3.0), Net(0.0)
    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(src.state_dict(), path)
    result = dst.load_state_dict(ms.load_checkpoint(path))
    assert result.missing_keys == [] and result.unexpected_keys == []
    x = Tensor(np.array([[1.0, -2.0]], np.float32))
    np.testing.assert_allclose(dst(x).asnumpy(), src(x).asnumpy(), rtol=1e-6)
    np.testing.assert_array_equal(dst.get_buffer("block.running").asnumpy(), [3.0, 3.0])


def test_strict_load_names_missing_and_unexpected_keys():
    state = dict(Net(1.0).state_dict())
    del state["gain"]
    state["extra"] = Tensor(np.ones(2, np.float32))
    with pytest.raises(RuntimeError, match="Missing key.*'gain'|Unexpected key.*'extra'"):
        Net(0.0).load_state_dict(state)
    result = Net(0.0).load_state_dict(state, strict=False)
    assert result.missing_keys == ["gain"] and result.unexpected_keys == ["extra"]


def test_hooks_run_around_state_dict_and_load():
    calls = []
    net = Net(1.0)
    net.register_state_dict_pre_hook(lambda cell, prefix, keep: calls.append("pre"))
    handle = net.register_state_dict_post_hook(lambda cell, sd, prefix, meta: calls.append("post"))
    net.register_load_state_dict_pre_hook(lambda cell, sd, *rest: calls.append("load_pre"))
    net.register_load_state_dict_post_hook(lambda cell, keys: calls.append("load_post"))
    net.load_state_dict(net.state_dict())
    assert calls[:2] == ["pre", "post"] and "load_pre" in calls and calls[-1] == "load_post"
    handle.remove()
    calls.clear()
    net.state_dict()
    assert calls == ["pre"]
