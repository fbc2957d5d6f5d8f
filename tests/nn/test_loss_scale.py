"""TrainOneStepWithLossScaleCell and the scale-update cells: an overflowing step changes no
state, the dynamic scale halves on overflow and doubles after scale_window good steps, and
GRAPH_MODE gives what PYNATIVE_MODE gives. (test_amp.py compares the cell with MindSpore
recordings.)"""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn

X = ms.Tensor(np.ones((4, 2), np.float32))
Y = ms.Tensor(np.zeros((4, 1), np.float32))
BAD = ms.Tensor(np.full((4, 2), np.inf, np.float32))


def dense():
    net = nn.Dense(2, 1)
    net.weight.set_data(ms.Tensor(np.array([[0.1, -0.2]], np.float32)))
    net.bias.set_data(ms.Tensor(np.array([0.05], np.float32)))
    return net


def run(mode):
    ms.set_context(mode=mode)
    try:
        net = dense()
        opt = nn.SGD(net.trainable_params(), 0.1, momentum=0.9)
        update = nn.DynamicLossScaleUpdateCell(loss_scale_value=8.0, scale_factor=2,
                                               scale_window=2)
        step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt, update)
        rows = []
        for x in (X, X, BAD, X, X):
            before = [p.asnumpy().copy() for p in opt.get_parameters()]
            loss, overflow, scale = step(x, Y)
            after = [p.asnumpy().copy() for p in opt.get_parameters()]
            unchanged = all(np.array_equal(a, b) for a, b in zip(before, after))
            rows.append((bool(overflow.asnumpy()), float(scale.asnumpy()), unchanged,
                         float(step.scale_sense.asnumpy())))
        return rows, net.weight.asnumpy()
    finally:
        ms.context.reset_context()


def test_overflow_skips_and_scale_follows_the_rule():
    rows, _ = run(ms.PYNATIVE_MODE)
    # the returned scale is the one the update cell left, as in MindSpore
    assert rows == [(False, 8.0, False, 8.0), (False, 16.0, False, 16.0),
                    (True, 8.0, True, 8.0), (False, 8.0, False, 8.0),
                    (False, 16.0, False, 16.0)]


def test_graph_equals_pynative():
    rows_p, w_p = run(ms.PYNATIVE_MODE)
    rows_g, w_g = run(ms.GRAPH_MODE)
    assert rows_g == rows_p
    np.testing.assert_allclose(w_g, w_p, rtol=1e-6)


def test_same_update_as_train_one_step_cell_without_overflow():
    a, b = dense(), dense()
    scaled = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(a, nn.MSELoss()),
                                              nn.SGD(a.trainable_params(), 0.1),
                                              ms.Tensor(np.array(1024.0, np.float32)))
    plain = nn.TrainOneStepCell(nn.WithLossCell(b, nn.MSELoss()),
                                nn.SGD(b.trainable_params(), 0.1))
    for _ in range(3):
        scaled(X, Y)
        plain(X, Y)
    np.testing.assert_allclose(a.weight.asnumpy(), b.weight.asnumpy(), rtol=1e-6)


def test_bad_scale_sense():
    net = dense()
    with pytest.raises(TypeError, match="must be Cell or Tensor"):
        nn.TrainOneStepWithLossScaleCell(net, nn.SGD(net.trainable_params()), 8.0)
    with pytest.raises(ValueError, match=r"\(1,\) or \(\)"):
        nn.TrainOneStepWithLossScaleCell(net, nn.SGD(net.trainable_params()),
                                         ms.Tensor(np.ones(2, np.float32)))
