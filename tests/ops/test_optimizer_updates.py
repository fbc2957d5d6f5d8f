"""The optimizer update primitives against real MindSpore 2.10 (fixtures/optimizer_updates.npz,
recorded by fixtures/record_optimizer_updates.py): the written slots and the outputs after one
step, in GRAPH and PYNATIVE mode; plus the in-place write of plain Tensor slots."""
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "fixtures"))
from optimizer_update_cases import cases, make_input, op_name  # noqa: E402

REF = np.load(os.path.join(HERE, "fixtures", "optimizer_updates.npz"))
CASES = cases()


class Step(nn.Cell):
    def __init__(self, op, slots):
        super().__init__()
        self.op = op
        self.slots = ms.ParameterTuple([Parameter(Tensor(s.copy()), name=f"s{i}")
                                        for i, s in enumerate(slots)])

    def construct(self, *inputs):
        return self.op(*self.slots, *inputs)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
@pytest.mark.parametrize("case", sorted(CASES))
def test_update_matches_mindspore(case, mode):
    ms.set_context(mode=mode)
    kwargs, slots, inputs = CASES[case]
    net = Step(getattr(ops, op_name(case))(**kwargs), slots)
    out = net(*[make_input(x, Tensor) for x in inputs])
    out = out if isinstance(out, tuple) else (out,)
    for i, p in enumerate(net.slots):
        np.testing.assert_allclose(p.asnumpy(), REF[f"{case}/slot{i}"], rtol=2e-6, atol=1e-6,
                                   err_msg=f"{case} slot {i}")
    if not op_name(case).startswith("Fused"):  # MindSpore leaves the Fused outputs unspecified
        for i, o in enumerate(out):
            np.testing.assert_allclose(o.asnumpy(), REF[f"{case}/out{i}"], rtol=2e-6,
                                       atol=1e-6, err_msg=f"{case} output {i}")


def test_plain_tensor_slots_are_updated_in_place():
    """MindSpore accepts Tensors where it writes (ApplyRMSProp's mean_square and moment)
    and updates them in place, in both modes."""
    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        ms.set_context(mode=mode)

        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.op = ops.ApplyRMSProp()
                self.var = Parameter(Tensor(np.ones(3, np.float32)), name="var")

            def construct(self, mean_square, moment, grad):
                self.op(self.var, mean_square, moment, 0.9, grad, 0.5, 0.1, 1e-6)
                return self.var

        mean_square = Tensor(np.full(3, 2.0, np.float32))
        moment = Tensor(np.ones(3, np.float32))
        var = Net()(mean_square, moment, Tensor(np.full(3, 2.0, np.float32)))
        # recorded on MindSpore 2.10: mean_square 3, moment 1.1392303, var -0.13923025
        np.testing.assert_allclose(mean_square.asnumpy(), 3.0)
        np.testing.assert_allclose(moment.asnumpy(), 1.1392303, rtol=1e-6)
        np.testing.assert_allclose(var.asnumpy(), -0.13923025, rtol=1e-5)


def test_sparse_update_rejects_bad_indices():
    var = Parameter(Tensor(np.ones((3, 2), np.float32)), name="var")
    accum = Parameter(Tensor(np.ones((3, 2), np.float32)), name="accum")
    op = ops.SparseApplyAdagrad(lr=0.1)
    with pytest.raises(TypeError, match="'indices' must be a 1-D Tensor of int32"):
        op(var, accum, Tensor(np.ones((2, 2), np.float32)), Tensor(np.array([0, 1], np.int64)))
    with pytest.raises(ValueError, match="one row of 'var' per index"):
        op(var, accum, Tensor(np.ones((2, 3), np.float32)), Tensor(np.array([0, 1], np.int32)))
