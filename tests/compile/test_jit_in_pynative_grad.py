"""A jit function called inside a PyNative gradient takes arguments holding differentiated
tensors as ``mutable``; MindSpore 2.10 refuses ones that cannot be (checked by hand on it:
RuntimeError in PYNATIVE, the same gradients in GRAPH mode)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, context, jit, ops


@jit
def _first_twice_plus(x, y):
    return 2 * x[0] + y


def _with_none(x, y):
    return _first_twice_plus((x * 3, None), y)


def _with_number(x, y):
    return _first_twice_plus((x * 3, 1.5), y)


def _with_mutable(x, y):
    return _first_twice_plus(ms.mutable((x * 3, 2)), y)


A = Tensor(np.array([1.0, 2.0], np.float32))
B = Tensor(np.array([1.0, 1.0], np.float32))


def test_non_mutable_container_with_grad_tensor_is_refused():
    context.set_context(mode=context.PYNATIVE_MODE)  # conftest resets the context
    with pytest.raises(RuntimeError, match="contains tensor with gradient but can not mutable"):
        ops.GradOperation(get_all=True)(_with_none)(A, B)
    with pytest.raises(RuntimeError, match="contains tensor with gradient but can not mutable"):
        ops.GradOperation()(lambda x, y: _first_twice_plus({"x": (x * 3, "a")}["x"], y))(A, B)


@pytest.mark.parametrize("fn", [_with_number, _with_mutable])
def test_mutable_able_containers_differentiate(fn):
    context.set_context(mode=context.PYNATIVE_MODE)
    gx, gy = ops.GradOperation(get_all=True)(fn)(A, B)
    np.testing.assert_allclose(gx.asnumpy(), [6.0, 6.0])
    np.testing.assert_allclose(gy.asnumpy(), [1.0, 1.0])


def test_graph_mode_and_plain_calls_accept_any_container():
    context.set_context(mode=context.GRAPH_MODE)
    gx, _ = ops.GradOperation(get_all=True)(_with_none)(A, B)
    np.testing.assert_allclose(gx.asnumpy(), [6.0, 6.0])
    np.testing.assert_allclose(_first_twice_plus((A, "s"), B).asnumpy(), [3.0, 5.0])
