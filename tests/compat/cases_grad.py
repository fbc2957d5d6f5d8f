"""Autodiff front ends MindSpore users call: ``ops.vjp``/``ops.jvp``, ``nn.grad.Jvp/Vjp``,
``grad(..., return_ids=True)`` with ``get_grad``, ``has_aux`` packaging, a weight returned as
an output. Written against the ``mindspore`` API: ``fixtures/record_grad.py`` runs them on
real MindSpore, ``test_grad_api.py`` on graphkiln (``ms`` is either package)."""
import numpy as np


def x2(ms):
    return ms.Tensor(np.array([[1, 2], [3, 4]], np.float32))


def vec(ms, *v):
    return ms.Tensor(np.array(v, np.float32))


def cube(x):
    return x * x * x


def mul_add(x, y):
    return x * y, x + y


def mul_add_square(x, y):
    return x * y, x + y * y


def vjp_single(ms):
    out, fn = ms.ops.vjp(cube, x2(ms))
    return out, fn(x2(ms))


def vjp_two_outputs(ms):
    out, fn = ms.ops.vjp(mul_add, vec(ms, 1, 2), vec(ms, 3, 4))
    return out, fn((vec(ms, 1, 1), vec(ms, 2, 0.5)))


def jvp_single(ms):
    return ms.ops.jvp(cube, x2(ms), x2(ms))


def jvp_two_in_two_out(ms):
    return ms.ops.jvp(mul_add_square, (vec(ms, 1, 2), vec(ms, 3, 4)),
                      (vec(ms, 1, 1), vec(ms, 2, 0.5)))


def jvp_cell(ms):
    from mindspore.nn.grad import Jvp

    class Net(ms.nn.Cell):
        def construct(self, x, y):
            return 2 * x, y ** 3
    return Jvp(Net())(x2(ms), x2(ms), (x2(ms), x2(ms)))


def vjp_cell(ms):
    from mindspore.nn.grad import Vjp

    class Net(ms.nn.Cell):
        def construct(self, x, y):
            return x ** 3 + y
    return Vjp(Net())(x2(ms), x2(ms), x2(ms))


class _WeightNet:
    """A cell returning its weight as an output (built per ``ms``)."""

    @staticmethod
    def make(ms):
        class Net(ms.nn.Cell):
            def __init__(self):
                super().__init__()
                self.w = ms.Parameter(ms.Tensor([2., 2.], ms.float32), name="w")

            def construct(self, x, y):
                return x * y * self.w, x, self.w
        return Net()


def grad_weight_output(ms):
    net = _WeightNet.make(ms)
    return ms.grad(net, 0, net.trainable_params())(vec(ms, 1, 2), vec(ms, 3, 3))


def grad_return_ids(ms):
    net = _WeightNet.make(ms)
    res = ms.grad(net, (0, 1), net.trainable_params(), return_ids=True)(vec(ms, 1, 2),
                                                                         vec(ms, 3, 3))
    from mindspore.ops.functional import get_grad
    return res, get_grad(res, 1), get_grad(res, net.w)


def grad_has_aux(ms):
    def f(x, y):
        return x * y, x, y
    return ms.grad(f, 0, has_aux=True)(vec(ms, 1, 2), vec(ms, 3, 3))


def value_and_grad_has_aux(ms):
    def f(x, y):
        return x * y, x
    return ms.value_and_grad(f, (0, 1), has_aux=True)(vec(ms, 1, 2), vec(ms, 3, 3))


def ints(ms, *v):
    return ms.Tensor(np.array(v, np.int32))


def jvp_int_inputs(ms):
    """An int32 function has an int32 tangent (not zeros)."""
    return ms.ops.jvp(mul_add_square, (ints(ms, 1, 2), ints(ms, 3, 4)),
                      (ints(ms, 1, 1), ints(ms, 2, -1)))


def scaled_float(x):
    return ms_cast_float(x) * 1.5 + x * x


def ms_cast_float(x):
    return x.astype(np.float32)


def jvp_int_input_float_output(ms):
    return ms.ops.jvp(scaled_float, ints(ms, 1, 2, 3), ints(ms, 1, 0, 2))


def vjp_in_graph_runs_the_forward_once(ms):
    """Two ``vjp_fn`` calls in a graph: the forward's weight write happens once."""
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = ms.Parameter(ms.Tensor(np.ones([2], np.float32)), name="p")

        def construct(self, x):
            ms.ops.assign(self.p, self.p * 0.5)
            return x * self.p

    class Grad(ms.nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def construct(self, x):
            out, vjp_fn = ms.ops.vjp(self.net, x)
            return out, vjp_fn(ms.ops.ones_like(out)), vjp_fn(out)

    net = Net()
    res = ms.jit(Grad(net).construct)(vec(ms, 1, 2))
    return res, net.p.value()


CASES = [vjp_single, vjp_two_outputs, jvp_single, jvp_two_in_two_out, jvp_cell, vjp_cell,
         grad_weight_output, grad_return_ids, grad_has_aux, value_and_grad_has_aux,
         jvp_int_inputs, jvp_int_input_float_output, vjp_in_graph_runs_the_forward_once]
