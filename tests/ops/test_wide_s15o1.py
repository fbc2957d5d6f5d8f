"""Fixes from the ``tests/st/ops`` every-15th-from-the-1st slice that need no recorded
fixture: ``ops.inplace_index_add`` (against NumPy's ``np.add.at``) and the ``F`` that
MindSpore's topic modules (``ops.function.math_func``) export."""
import importlib

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, ops


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_inplace_index_add_matches_numpy(dtype, axis):
    r = np.random.default_rng(1)
    x = r.integers(-5, 5, (3, 4)).astype(dtype)
    idx = np.array([2, 0, 2], np.int32)
    shape = list(x.shape)
    shape[axis] = 3
    upd = r.integers(-5, 5, shape).astype(dtype)
    want = x.copy()
    np.add.at(np.moveaxis(want, axis, 0), idx, np.moveaxis(upd, axis, 0))
    for var in (Tensor(x.copy()), Parameter(Tensor(x.copy()), name="w")):
        out = ops.inplace_index_add(var, Tensor(idx), Tensor(upd), axis)
        np.testing.assert_array_equal(out.asnumpy(), want)
        np.testing.assert_array_equal(var.asnumpy(), want)


def test_inplace_index_add_bad_index():
    w = Parameter(Tensor(np.zeros((3, 2), np.float32)), name="w")
    with pytest.raises(RuntimeError, match=r"'indices' must be in the range \[0, 3\)"):
        ops.inplace_index_add(w, Tensor(np.array([0, 5], np.int32)),
                              Tensor(np.ones((2, 2), np.float32)), 0)


def test_topic_modules_export_the_function_package():
    math_func = importlib.import_module("graphkiln.ops.function.math_func")
    assert math_func.F is importlib.import_module("graphkiln.ops.function")
    assert math_func.F.inplace_index_add is ops.inplace_index_add
    assert ms.ops.function.math_func.F.abs is ops.abs


@pytest.mark.parametrize("paddings, error", [
    ((0, 2), TypeError), (((0, 1), 2), TypeError), (((0, 1, 2),), ValueError),
    (((0, 0),) * 5, ValueError), ([(0, 1)], TypeError)])
def test_nn_pad_bad_paddings(paddings, error):
    # MindSpore 2.10: items without a length are TypeError, wrong pairs ValueError
    with pytest.raises(error, match="paddings"):
        ms.nn.Pad(paddings)


@pytest.mark.parametrize("input_lengths, target_lengths, which", [
    ((4, 4), (2.0, 1.0), "target_lengths"), ((4.0, 4.0), (2, 1), "input_lengths")])
def test_ctc_loss_float_lengths(input_lengths, target_lengths, which):
    # MindSpore 2.10: "... the input argument[target_lengths] must be a type of {Int32,
    # Int64}, but got Float32."
    log_probs = Tensor(np.log(np.full((4, 2, 3), 1 / 3, np.float32)))
    targets = Tensor(np.array([[1, 2], [1, 1]], np.int32))
    with pytest.raises(TypeError, match=f"'{which}'.*but got Float32"):
        ops.ctc_loss(log_probs, targets, input_lengths, target_lengths)


@pytest.mark.parametrize("name, attrs", [("SparseApplyAdagrad", {"lr": 0.1}),
                                         ("SparseApplyAdagradV2", {"lr": 0.1, "epsilon": 1e-6})])
def test_sparse_adagrad_refuses_float64(name, attrs):
    # MindSpore 2.10: "... must be a type of {Tensor[Float16], Tensor[Float32]}, but got
    # Ref[Tensor[Float64]]."
    var, accum = (Parameter(Tensor(np.array([0.2, 0.1])), name=n) for n in ("v", "a"))
    with pytest.raises(TypeError, match="Float16, Float32"):
        getattr(ops, name)(**attrs)(var, accum, Tensor(np.array([0.7])),
                                    Tensor(np.array([0], np.int32)))


@pytest.mark.parametrize("values", [(1, 2, 3, 4, 5, 6), (0.5, -2.0, 4.25)])
def test_sequence_addn_of_numbers(values):
    # MindSpore 2.10: SequenceAddN of a dynamic length tuple of numbers is their sum
    from graphkiln.ops.operations._sequence_ops import SequenceAddN

    @ms.jit
    def total(seq):
        return SequenceAddN()(seq)

    got = total(ms.mutable(values, True))
    assert got == sum(values) and type(got) is type(sum(values))
