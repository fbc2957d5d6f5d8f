"""ResizeNearestNeighbor, BoundingBoxDecode and NMSWithMask against real MindSpore 2.10
(fixtures/census_image.npz, recorded by fixtures/record_census_image.py): outputs in PYNATIVE
and GRAPH mode, and ResizeNearestNeighbor's input gradient for a fixed output cotangent."""
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "fixtures"))
from apply_cell import apply_cell_class  # noqa: E402
from census_image_cases import cases, sens  # noqa: E402

REF = np.load(os.path.join(HERE, "fixtures", "census_image.npz"))
CASES = cases()


Apply = apply_cell_class(nn)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("case", sorted(CASES))
def test_matches_mindspore(case, mode):
    ms.set_context(mode=mode)
    name, kwargs, inputs = CASES[case]
    net = Apply(getattr(ops.operations, name)(**kwargs))
    xs = [Tensor(a) for a in inputs]
    out = net(*xs)
    for i, o in enumerate(out if isinstance(out, tuple) else (out,)):
        ref = REF[f"{case}/out{i}"]
        assert o.dtype.np_dtype == ref.dtype and o.shape == ref.shape
        np.testing.assert_allclose(o.asnumpy(), ref, rtol=1e-6, atol=1e-5)
    if name == "ResizeNearestNeighbor" and mode == ms.PYNATIVE_MODE:
        (g,) = ops.GradOperation(get_all=True, sens_param=True)(net)(
            *xs, Tensor(sens(out.shape)))
        np.testing.assert_allclose(g.asnumpy(), REF[f"{case}/grad0"], rtol=1e-6, atol=1e-6)


def test_input_checks():
    x = Tensor(np.ones((1, 1, 2, 2), np.float32))
    with pytest.raises(TypeError, match="'size' must be a tuple or list of two positive ints"):
        ops.ResizeNearestNeighbor(size=3)(x)
    with pytest.raises(ValueError, match="must be a 4-D"):
        ops.ResizeNearestNeighbor(size=(2, 2))(Tensor(np.ones((2, 2), np.float32)))
    with pytest.raises(ValueError, match=r"must have shape \[n, 5\]"):
        ops.NMSWithMask()(Tensor(np.ones((3, 4), np.float32)))
    boxes = Tensor(np.ones((2, 4), np.float32))
    with pytest.raises(TypeError, match="'max_shape' must be a tuple of 2 ints"):
        ops.BoundingBoxDecode(max_shape=None)(boxes, boxes)
