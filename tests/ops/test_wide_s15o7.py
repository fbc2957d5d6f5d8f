"""Fixes from the ``tests/st/ops`` every-15th-from-the-7th slice beyond the recorded family
(fixtures/api_ops_s15o7.json, collected by test_api_families.py): primitive classes written
in Python (``PrimitiveWithInfer``/``PrimitiveWithCheck`` with ``@prim_attr_register``) in a
GRAPH_MODE cell, their attributes, and ``Shift`` on negative axes (MindSpore 2.10's CPU
kernel fails on them: graphkiln counts them from the end, checked against NumPy)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops
from graphkiln.ops import PrimitiveWithCheck, PrimitiveWithInfer, prim_attr_register


class Shift(PrimitiveWithInfer):
    @prim_attr_register
    def __init__(self, periods=1, axis=-1):
        self.init_prim_io_names(inputs=["x", "fill_value"], outputs=["output"])


class _ShiftNet(nn.Cell):
    def __init__(self, periods, axis):
        super().__init__()
        self.shift = Shift(periods, axis)

    def construct(self, x, fill_value):
        return self.shift(x, fill_value) * 2


def _numpy_shift(x, periods, axis, fill):
    out = np.full_like(x, fill)
    src = np.moveaxis(x, axis, 0)
    dst = np.moveaxis(out, axis, 0)
    n = src.shape[0]
    if periods >= 0:
        dst[min(periods, n):] = src[:max(n - periods, 0)]
    else:
        dst[:max(n + periods, 0)] = src[min(-periods, n):]
    return out


def test_attributes_and_repr():
    s = Shift(3, axis=0)
    assert (s.name, s.periods, s.axis, s.init_attrs) == ("Shift", 3, 0, {"periods": 3, "axis": 0})
    assert (s.input_names, s.output_names) == (["x", "fill_value"], ["output"])
    assert repr(s) == "Prim[Shift]<periods=3, axis=0>"


@pytest.mark.parametrize("periods, axis", [(2, 1), (-3, 0), (7, 2), (0, 1)])
def test_graph_cell_equals_numpy(periods, axis):
    x = np.random.default_rng(0).standard_normal((4, 3, 5)).astype(np.float32)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        got = _ShiftNet(periods, axis)(Tensor(x), 1.5).asnumpy()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(got, 2 * _numpy_shift(x, periods, axis, 1.5))


@pytest.mark.parametrize("periods, axis", [(1, -1), (-2, -3), (4, -2)])
def test_negative_axis_counts_from_the_end(periods, axis):
    x = np.arange(60, dtype=np.int64).reshape(3, 4, 5)
    got = Shift(periods, axis)(Tensor(x), -7).asnumpy()
    np.testing.assert_array_equal(got, _numpy_shift(x, periods, axis, -7))


def test_axis_below_rank_is_an_error():
    with pytest.raises(RuntimeError, match="'axis' must be less than the dimension"):
        Shift(1, -4)(Tensor(np.ones((2, 3, 4), np.float32)), 0.0)


def test_tensor_fill_gradient_sums_the_vacated_places():
    x = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    fill = Tensor(np.array([0.5], np.float32))
    dout = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    gx, gf = ops.grad(lambda a, f: (Shift(-1, 1)(a, f) * Tensor(dout)).sum(),
                      grad_position=(0, 1))(x, fill)
    np.testing.assert_array_equal(gx.asnumpy(), _numpy_shift(dout, 1, 1, 0))
    np.testing.assert_array_equal(gf.asnumpy(), [dout[:, -1].sum()])


def test_primitive_with_check_runs_its_registered_primitive():
    class Shift(PrimitiveWithCheck):  # noqa: N801 - the primitive's name
        @prim_attr_register
        def __init__(self, periods=1, axis=-1):
            """A MindSpore-style declaration."""

    got = Shift(1, 0)(Tensor(np.array([True, False, True])), False).asnumpy()
    np.testing.assert_array_equal(got, [False, True, False])


def test_unregistered_name_fails_when_called():
    class NoSuchKernel(PrimitiveWithInfer):
        @prim_attr_register
        def __init__(self):
            """No primitive has this name."""

    prim = NoSuchKernel()
    assert prim.name == "NoSuchKernel"
    with pytest.raises(RuntimeError, match=r"Unsupported op \[NoSuchKernel\] on CPU"):
        prim(Tensor(np.ones(2, np.float32)))


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_sparse_apply_rms_prop_vmap_equals_per_example_loop(mode):
    rng = np.random.default_rng(3)
    weights = [rng.uniform(0.1, 1.0, (3, 4, 2)).astype(np.float32) for _ in range(3)]
    grad = rng.standard_normal((3, 4, 2)).astype(np.float32)
    idx = np.array([[0, 3, 1, 2], [2, 2, 0, 1], [3, 2, 1, 0]], np.int32)
    attrs = {"rho": 0.8, "momentum": 0.1, "epsilon": 1e-6}
    want = []
    for k in range(3):
        params = [Parameter(Tensor(w[k]), name=f"w{i}") for i, w in enumerate(weights)]
        ops.SparseApplyRMSProp(**attrs)(*params, 0.05, Tensor(grad[k]), Tensor(idx[k]))
        want.append([p.asnumpy() for p in params])
    params = [Parameter(Tensor(w), name=f"w{i}") for i, w in enumerate(weights)]
    ms.set_context(mode=mode)
    try:
        ops.vmap(ops.SparseApplyRMSProp(**attrs), in_axes=(0, 0, 0, None, 0, 0))(
            *params, 0.05, Tensor(grad), Tensor(idx))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for i, p in enumerate(params):
        np.testing.assert_allclose(p.asnumpy(), np.stack([w[i] for w in want]), rtol=1e-6)
