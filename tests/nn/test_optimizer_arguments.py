"""Argument checks of the optimizers, with MindSpore's error types."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn


def _params():
    return [ms.Parameter(ms.Tensor(np.ones((2, 2), np.float32)), name="w")]


class _Decay(nn.Cell):
    def construct(self, global_step):
        return ms.ops.cast(global_step, ms.float32) * 0.1


def test_sgd_rejects_a_weight_decay_schedule():
    with pytest.raises(TypeError, match="dynamic weight decay"):
        nn.SGD(_params(), weight_decay=_Decay())


def test_weight_decay_of_another_type_is_a_type_error():
    with pytest.raises(TypeError, match="weight_decay"):
        nn.Momentum(_params(), 0.1, 0.9, weight_decay="0.1")


def test_weight_decay_schedule_is_read_at_the_global_step():
    opt = nn.Momentum(_params(), 0.1, 0.9, weight_decay=_Decay())
    assert opt.dynamic_weight_decay
    opt.global_step.set_data(ms.Tensor(np.array([3], np.int32)))
    np.testing.assert_allclose(opt.get_weight_decay().asnumpy(), 0.3, rtol=1e-6)


@pytest.mark.parametrize("make, error", [
    (lambda p: nn.ASGD(p, lambd=1), TypeError),
    (lambda p: nn.Rprop(p, etas=[0.5, 1.2]), TypeError),
    (lambda p: nn.Rprop(p, etas=(0.5, 1.2, 2.0)), ValueError),
    (lambda p: nn.Rprop(p, etas=(0.5, 1.0)), ValueError),
    (lambda p: nn.Rprop(p, step_sizes=(1.0, 0.5)), ValueError),
    (lambda p: nn.AdaMax(p, beta1=1.0), ValueError),
])
def test_new_optimizers_check_their_arguments(make, error):
    with pytest.raises(error):
        make(_params())
