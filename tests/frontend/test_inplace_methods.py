"""Tensor in-place methods and ``P.InplaceIndexAdd`` on graph inputs and Parameters, at the
top of a graph and in tensor branches and loops.

Methods MindSpore 2.10 runs on CPU are compared with its GRAPH_MODE results
(``fixtures/inplace_method_programs.py``, ``ms_inplace_methods.json``; MindSpore's CPU
PYNATIVE_MODE leaves the Tensor unchanged, its GRAPH_MODE and Ascend write it: graphkiln
writes it in both modes). The others have no CPU kernel in MindSpore 2.10
(``InplaceFillScalar``, ``InplaceZero``, ``InplaceMaskedFillScalar``, ``InplaceClampScalar``,
``InplaceIndexAddExt``, ``InplaceExp``: "Unsupported op ... on CPU"): checked against NumPy.
"""
import json
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
import graphkiln.ops.operations as P
from graphkiln import Parameter, Tensor, compat, nn

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "ms_inplace_methods.json").read_text())["GRAPH_MODE"]
PROGRAMS = compat.import_mindspore_module(FIXTURES / "inplace_method_programs.py")

# a write inside a branch or loop reaches the caller's Tensor (MindSpore 2.10's GRAPH_MODE
# keeps it in the graph only): the caller holds the graph's last read of it
WRITES_IN_BODIES = {"methods_in_branches", "method_in_loop"}


@pytest.fixture(params=["GRAPH_MODE", "PYNATIVE_MODE"])
def mode(request):
    before = ms.get_context("mode")
    ms.set_context(mode=getattr(ms, request.param))
    yield request.param
    ms.set_context(mode=before)


@pytest.mark.parametrize("name", sorted(PROGRAMS.PROGRAMS))
def test_matches_mindspore(mode, name):
    got = PROGRAMS.run(name)
    want = EXPECTED[name]
    np.testing.assert_equal([c["out"] for c in got], [c["out"] for c in want])
    if name in WRITES_IN_BODIES:
        np.testing.assert_equal([c["caller"] for c in got], [c["out"][-1:] for c in got])
    elif name == "setitem" and mode == "PYNATIVE_MODE":  # eager item assignment writes
        np.testing.assert_equal([c["caller"] for c in got], [c["out"] for c in want])
    else:
        np.testing.assert_equal([c["caller"] for c in got], [c["caller"] for c in want])


def _f32(x):
    return Tensor(np.asarray(x, np.float32))


class _Apply(nn.Cell):
    """``fn(y, *args)`` where ``y`` is written in place; returns reads after each step."""

    def __init__(self, steps):
        super().__init__()
        self.steps = steps

    def construct(self, y, x):
        reads = []
        for step in self.steps:
            step(y, x)
            reads.append(y * 1)
        return tuple(reads)


Y = np.array([[-3.0, 2.0, 0.5], [4.0, -9.0, 1.0]], np.float32)
X = np.array([[1.0, -1.0, 1.0], [-1.0, 1.0, -1.0]], np.float32)


def _numpy_steps():
    y = Y.copy()
    reads = []
    for step in (lambda: y.fill(3.0), lambda: y.__setitem__(Ellipsis, 0.0),
                 lambda: y.__setitem__(Ellipsis, Y),
                 lambda: y.__setitem__(X > 0, 7.0), lambda: np.clip(y, -1.0, 5.0, out=y),
                 lambda: np.exp(y, out=y)):
        step()
        reads.append(y.copy())
    return reads


def _steps():
    return [lambda y, x: y.fill_(3.0), lambda y, x: y.zero_(),
            lambda y, x: y.copy_(Tensor(Y)), lambda y, x: y.masked_fill_(x > 0, 7.0),
            lambda y, x: y.clamp_(-1.0, 5.0), lambda y, x: y.exp_()]


def test_methods_without_a_mindspore_cpu_kernel(mode):
    net = _Apply(_steps())
    want = _numpy_steps()
    for _ in range(2):  # the second call hits the compile cache
        y = _f32(Y)
        reads = net(y, _f32(X))
        for got, expected in zip(reads, want):
            np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-6)
        np.testing.assert_allclose(y.asnumpy(), want[-1], rtol=1e-6)


class _IndexAddInBranch(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.zeros((3, 2), np.float32)), name="w")
        self.op = P.InplaceIndexAdd(axis=0)

    def construct(self, y, index, source):
        if source.sum() > 0:
            y.index_add_(1, index, source.T, alpha=2)
            self.op(self.w, index, source)
        return y * 1, self.w * 1


def test_index_add_in_a_branch(mode):
    """``index_add_`` of an input and ``InplaceIndexAdd`` of a Parameter in a branch,
    with a repeated index (the additions accumulate)."""
    net = _IndexAddInBranch()
    index = Tensor(np.array([0, 2, 0], np.int32))
    source = np.arange(6, dtype=np.float32).reshape(3, 2)
    w = np.zeros((3, 2), np.float32)
    for _ in range(2):
        y0 = np.arange(6, dtype=np.float32).reshape(2, 3)
        y = _f32(y0)
        got_y, got_w = net(y, index, Tensor(source))
        want_y = y0.copy()
        np.add.at(want_y.T, [0, 2, 0], 2 * source)
        np.add.at(w, [0, 2, 0], source)
        np.testing.assert_array_equal(got_y.asnumpy(), want_y)
        np.testing.assert_array_equal(y.asnumpy(), want_y)
        np.testing.assert_array_equal(got_w.asnumpy(), w)
    np.testing.assert_array_equal(net.w.asnumpy(), w)


def test_bad_mask_and_index():
    with pytest.raises(TypeError, match="'mask' must be a bool Tensor"):
        _f32([1.0]).masked_fill_(_f32([1.0]), 0.0)
    with pytest.raises(ValueError, match="'indices' must be 1-D"):
        _f32([[1.0]]).index_add_(0, Tensor(np.zeros((1, 1), np.int32)), _f32([[1.0]]))
