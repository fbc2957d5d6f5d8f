"""Backward hooks that return the wrong gradients fail with errors that say what is
wrong; a Tensor hook registered before the gradient applies to it."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn, ops

X = ms.Tensor(np.array([1.0, 2.0], np.float32))


def _grad_through(hook_fn):
    hook = ops.HookBackward(hook_fn)
    return ms.grad(lambda x: (hook(x * 2) * 3).sum())(X)


def test_a_hook_returning_new_gradients_replaces_them():
    np.testing.assert_allclose(_grad_through(lambda g: (g[0] * 10,)).asnumpy(), [60.0, 60.0])
    np.testing.assert_allclose(_grad_through(lambda g: None).asnumpy(), [6.0, 6.0])


def test_a_hook_returning_too_many_gradients_is_a_type_error():
    with pytest.raises(TypeError, match="should return None or 1 gradient"):
        _grad_through(lambda g: (g[0], g[0]))


def test_a_hook_returning_a_gradient_of_another_shape_is_a_value_error():
    with pytest.raises(ValueError, match=r"gradient of shape \[3\]"):
        _grad_through(lambda g: ms.Tensor(np.ones(3, np.float32)))


def test_hooks_must_be_functions():
    with pytest.raises(TypeError, match="hook_fn"):
        nn.ReLU().register_forward_hook(3)
    with pytest.raises(TypeError, match="hook_fn"):
        ops.HookBackward(None)(X)


def test_register_hook_on_an_input_outside_the_function_applies_to_later_gradients():
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))  # (MindSpore keeps the hook on x too)
    x.register_hook(lambda g: g * 10)
    np.testing.assert_allclose(ms.grad(lambda u: (u * 2).sum())(x).asnumpy(), [20.0, 20.0])
