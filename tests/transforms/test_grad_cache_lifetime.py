"""The caches of the gradient front ends keep no network alive: a network differentiated
(compiled in GRAPH_MODE, its backward pass compiled in PYNATIVE_MODE after a few steps) and
then dropped is freed, weights and all."""
import gc
import weakref

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops

MODES = [ms.GRAPH_MODE, ms.PYNATIVE_MODE]
_NETS: dict = {}
_GRAD_BY_LIST = ops.GradOperation(get_by_list=True)  # long-lived, as in a training script
_GRAD_ALL = ops.GradOperation(get_all=True)


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2)

    def construct(self, x):
        return self.dense(x).sum()


def _current_net(x):
    """A module-level function (it outlives every network) reading the current network."""
    return _NETS["net"](x)


def _x():
    return Tensor(np.ones((4, 3), np.float32))


def _differentiate(kind: str):
    net = _Net()
    _NETS["net"] = net
    for _ in range(3):  # PYNATIVE_MODE compiles a backward pass seen twice
        if kind == "gradop_weights_of_a_lasting_function":
            _GRAD_BY_LIST(_current_net, net.trainable_params())(_x())
        elif kind == "gradop_cell":
            _GRAD_ALL(net)(_x())
            _GRAD_BY_LIST(net, net.trainable_params())(_x())
        elif kind == "grad_weights":
            ms.grad(net, grad_position=None, weights=net.trainable_params())(_x())
        elif kind == "value_and_grad_closure":
            ms.value_and_grad(lambda x: net(x), 0, net.trainable_params())(_x())
        elif kind == "jacrev":
            ms.jacrev(net)(_x())
        else:
            ms.jacfwd(net)(_x())
    _NETS.clear()
    return weakref.ref(net), weakref.ref(net.dense.weight)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", ["gradop_weights_of_a_lasting_function", "gradop_cell",
                                  "grad_weights", "value_and_grad_closure", "jacrev",
                                  "jacfwd"])
def test_a_dropped_network_is_freed_after_differentiation(mode, kind):
    ms.set_context(mode=mode)
    net, weight = _differentiate(kind)
    gc.collect()
    assert net() is None
    assert weight() is None


def test_gradop_still_compiles_once_per_network_and_weights():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _Net()
    weights = net.trainable_params()
    grads = [_GRAD_BY_LIST(net, weights)(_x()) for _ in range(3)]
    caches = {id(_GRAD_BY_LIST(net, weights).cache) for _ in range(2)}
    assert len(caches) == 1
    assert len(_GRAD_BY_LIST(net, weights).cache.entries) == 1
    for g in grads[1:]:
        np.testing.assert_array_equal(g[0].asnumpy(), grads[0][0].asnumpy())


def test_pynative_compiled_backward_gives_the_eager_gradients():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net = _Net()
    x = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3))
    # the first call walks the tape eagerly, the later ones run the compiled pass
    first, *later = [ms.grad(net, None, net.trainable_params())(x) for _ in range(3)]
    np.testing.assert_allclose(first[0].asnumpy(), np.tile(x.asnumpy().sum(0), (2, 1)))
    for g in later:
        for a, b in zip(g, first):
            np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
