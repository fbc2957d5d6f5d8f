"""Errors raised while a compiled graph runs point at the user's line: the op's name, the
``file:line`` of the call that created it (MindSpore's "Traceback of Net Construct Code"),
the original exception type, and no generated-code or kernel frames unless
``GRAPHKILN_INTERNAL_FRAMES=1``. Impossible allocations fail at shape inference."""
from __future__ import annotations

import traceback

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn, ops
from graphkiln.errors import PACKAGE_DIR

X = ms.Tensor(np.arange(3, dtype=np.float32))
BAD_INDEX = ms.Tensor(np.array([5], np.int32))
HERE = __file__


def gather_plain(x, i):
    y = x * 2
    z = ops.gather(y, i, 0)  # LINE: gather_plain
    return z + 1


def gather_in_branch(x, i):
    if x.sum() > 0:
        x = x + ops.gather(x, i, 0) * 2  # LINE: gather_in_branch
    return x


def gather_in_loop(x, i):
    k = x.sum() * 0
    while k < 2:
        x = x + ops.gather(x, i, 0).sum()  # LINE: gather_in_loop
        k = k + 1
    return x


def _line(tag: str) -> int:
    with open(HERE) as f:
        return next(n for n, text in enumerate(f, 1) if text.rstrip().endswith(f"# LINE: {tag}"))


def _raised(fn, *args) -> BaseException:
    with pytest.raises(Exception) as info:
        fn(*args)
    return info.value


@pytest.mark.parametrize("fn", [gather_plain, gather_in_branch, gather_in_loop],
                         ids=lambda f: f.__name__)
def test_kernel_error_names_op_and_user_line(fn):
    eager = _raised(fn, X, BAD_INDEX)
    graph = _raised(ms.jit(fn), X, BAD_INDEX)
    assert type(graph) is type(eager)
    text = str(graph)
    assert "For 'Gather'" in text
    assert "The Traceback of Net Construct Code" in text
    assert f"{HERE}:{_line(fn.__name__)}" in text
    frames = [f.filename for f in traceback.extract_tb(graph.__traceback__)]
    assert not [f for f in frames if f.startswith("<graphkiln")], frames
    assert not [f for f in frames if f.startswith(PACKAGE_DIR) and "/ops/" in f], frames


def test_internal_frames_shown_on_request(monkeypatch):
    monkeypatch.setenv("GRAPHKILN_INTERNAL_FRAMES", "1")
    graph = _raised(ms.jit(gather_plain), X, BAD_INDEX)
    frames = [f.filename for f in traceback.extract_tb(graph.__traceback__)]
    assert any(f.startswith("<graphkiln") for f in frames), frames


class Net(nn.Cell):
    def construct(self, x, i):
        return ops.gather(x, i, 0) + 1  # LINE: cell


def test_graph_mode_cell_error_names_user_line():
    ms.set_context(mode=ms.GRAPH_MODE)
    err = _raised(Net(), X, BAD_INDEX)
    assert "For 'Gather'" in str(err) and f"{HERE}:{_line('cell')}" in str(err)


def huge_broadcast(x):
    return ops.broadcast_to(x, (100000, 100000, 1000, 3)).sum()  # LINE: huge


def huge_zeros(x):
    return x + ops.zeros((1 << 20, 1 << 20, 64), ms.float64)  # LINE: huge_zeros


@pytest.mark.parametrize("fn,tag", [(huge_broadcast, "huge"), (huge_zeros, "huge_zeros")])
def test_impossible_allocation_fails_before_allocating(fn, tag):
    for call in (fn, ms.jit(fn)):
        err = _raised(call, X)
        assert isinstance(err, ValueError), err
        assert "more than this machine's memory" in str(err)
        if call is not fn:
            assert f"{HERE}:{_line(tag)}" in str(err)
        else:
            tb = traceback.extract_tb(err.__traceback__)
            assert any(f.filename == HERE and f.lineno == _line(tag) for f in tb)
