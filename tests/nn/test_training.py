"""Losses, optimizers and TrainOneStepCell: NumPy references, GRAPH == PYNATIVE."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn


def f32(a):
    return Tensor(np.asarray(a, np.float32))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_regression_losses(reduction):
    a, b = np.array([[1.0, -2.0], [0.5, 3.0]]), np.array([[0.0, -1.0], [1.5, 2.0]])
    reduce = {"mean": np.mean, "sum": np.sum, "none": lambda v: v}[reduction]
    np.testing.assert_allclose(nn.MSELoss(reduction)(f32(a), f32(b)).asnumpy(),
                               reduce((a - b) ** 2), rtol=1e-6)
    np.testing.assert_allclose(nn.L1Loss(reduction)(f32(a), f32(b)).asnumpy(),
                               reduce(np.abs(a - b)), rtol=1e-6)


def test_cross_entropy_with_indices_and_probabilities():
    logits = np.array([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3]])
    labels = np.array([0, 2])
    logp = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    expected = -logp[np.arange(2), labels].mean()
    loss = nn.CrossEntropyLoss()
    np.testing.assert_allclose(loss(f32(logits), Tensor(labels, ms.int32)).asnumpy(),
                               expected, rtol=1e-5)
    np.testing.assert_allclose(loss(f32(logits), f32(np.eye(3)[labels])).asnumpy(),
                               expected, rtol=1e-5)
    with pytest.raises(ValueError, match="reduction"):
        nn.MSELoss("average")


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_sgd_with_momentum(mode):
    ms.set_context(mode=mode)
    p = Parameter(f32([1.0, 2.0]), name="p")
    opt = nn.SGD([p], learning_rate=0.5, momentum=0.9)
    opt((f32([1.0, -1.0]),))
    opt((f32([1.0, -1.0]),))
    # m1 = g, p1 = p - .5 g; m2 = .9 g + g, p2 = p1 - .5 * 1.9 g
    np.testing.assert_allclose(p.asnumpy(), [1 - 0.5 - 0.95, 2 + 0.5 + 0.95], rtol=1e-6)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_adam_matches_numpy(mode):
    ms.set_context(mode=mode)
    p = Parameter(f32([1.0, -2.0]), name="p")
    opt = nn.Adam([p], learning_rate=0.1)
    ref, m, v = np.array([1.0, -2.0]), np.zeros(2), np.zeros(2)
    for t, g in enumerate([np.array([0.5, -1.0]), np.array([0.2, 0.3])], 1):
        opt((f32(g),))
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        lr_t = 0.1 * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
        ref = ref - lr_t * m / (np.sqrt(v) + 1e-8)
    np.testing.assert_allclose(p.asnumpy(), ref, rtol=1e-5)


def _train(mode, steps=30):
    ms.set_context(mode=mode)
    ms.set_seed(3)
    net = nn.SequentialCell([nn.Dense(3, 8, activation="relu"), nn.Dense(8, 1)])
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.SGD(net.trainable_params(), learning_rate=0.05))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 3)).astype(np.float32)
    y = x.sum(1, keepdims=True).astype(np.float32)
    losses = [float(step(Tensor(x), Tensor(y)).asnumpy()) for _ in range(steps)]
    return losses, [p.asnumpy().copy() for p in net.trainable_params()]


def test_train_one_step_learns_and_graph_equals_pynative():
    graph_losses, graph_w = _train(ms.GRAPH_MODE)
    eager_losses, eager_w = _train(ms.PYNATIVE_MODE)
    assert graph_losses[-1] < 0.5 * graph_losses[0]
    np.testing.assert_allclose(graph_losses, eager_losses, rtol=1e-4)
    for a, b in zip(graph_w, eager_w):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_train_one_step_cell_returns_named_gradients(mode, seeded):
    ms.set_context(mode=mode)
    net = nn.Dense(3, 2)
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = Tensor(np.ones((2, 2), np.float32))
    with_loss = nn.WithLossCell(net, nn.MSELoss())
    expected = [g.asnumpy() for g in ms.grad(with_loss, None, net.trainable_params())(x, y)]
    step = nn.TrainOneStepCell(with_loss, nn.SGD(net.trainable_params(), 0.1), return_grad=True)
    loss, grads = step(x, y)
    assert loss.shape == () and isinstance(grads, dict)
    assert list(grads) == [p.name for p in net.trainable_params()]
    for got, want in zip(grads.values(), expected):  # (atol: a gradient may round to ~0)
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6, atol=1e-7)


def test_train_one_step_cell_rejects_zero_sens():
    net = nn.Dense(3, 2)
    with pytest.raises(ValueError, match="sens"):
        nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                            nn.SGD(net.trainable_params()), sens=0)
