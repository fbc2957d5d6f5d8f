"""Census APIs (ranked by use in real programs): ``ops.Sort``/``sort``/``argsort``,
``ops.Unstack``/``unstack``, ``ops.Identity``/``identity``, ``Tensor.swapaxes``/``value``,
``C.ones_like``, ``nn.IGamma``. Written against the ``mindspore`` API:
``fixtures/record.py census`` runs them on real MindSpore, ``test_census_recorded.py`` on
graphkiln (``ms`` is either package; GRAPH mode runs each through ``ms.jit`` too)."""
import numpy as np


def mat(ms):
    return ms.Tensor(np.array([[3.0, 1.0, 2.0, 1.0], [0.0, 5.0, -1.0, 5.0],
                               [2.5, 2.5, 7.0, -3.0]], np.float32))


def ints(ms):
    return ms.Tensor(np.array([[4, -2, 9], [1, 1, 0]], np.int32))


def _both(ms, fn, *args):
    """``fn(*args)`` eagerly and compiled."""
    return fn(*args), ms.jit(fn)(*args)




def sort_default(ms):
    return _both(ms, ms.ops.Sort(), mat(ms))


def sort_axis0_descending(ms):
    return _both(ms, ms.ops.Sort(axis=0, descending=True), mat(ms))


def sort_ints_functional(ms):
    return ms.ops.sort(ints(ms), 1, True), ms.ops.argsort(ints(ms)), ints(ms).argsort(0)


def sort_grad(ms):
    sort = ms.ops.Sort(axis=-1)
    weights = ms.Tensor(np.arange(4, dtype=np.float32))

    def weighted_sorted_sum(x):
        return (sort(x)[0] * weights).sum()
    return ms.grad(weighted_sorted_sum)(mat(ms)), ms.jit(ms.grad(weighted_sorted_sum))(mat(ms))


def unstack_axes(ms):
    return (ms.ops.Unstack()(mat(ms)), ms.ops.Unstack(axis=-1)(mat(ms)),
            ms.ops.unstack(ints(ms), 1))


def unstack_grad(ms):
    unstack = ms.ops.Unstack(axis=0)

    def weighted(x):
        a, b, c = unstack(x)
        return (a * 2 + b * b - c).sum()
    return ms.grad(weighted)(mat(ms)), ms.jit(ms.grad(weighted))(mat(ms))


def identity_and_value(ms):
    x = mat(ms)
    return ms.ops.Identity()(x), ms.ops.functional.identity(x), x.value(), x.swapaxes(0, 1)


def fill_like_nested(ms):
    from mindspore.ops import composite as C
    nested = (mat(ms), [ints(ms), (ms.Tensor(np.ones(2, np.float16)),)])
    return C.ones_like(nested), C.ones_like(mat(ms)), C.ones_like(3)


def igamma_cell(ms):
    a = ms.Tensor(np.array([0.5, 2.29, 6.0], np.float32))
    x = ms.Tensor(np.array([1.5, 4.22, 3.0], np.float32))
    return ms.nn.IGamma()(a, x), ms.ops.lgamma(x), ms.ops.digamma(x)


CASES = [sort_default, sort_axis0_descending, sort_ints_functional, sort_grad, unstack_axes,
         unstack_grad, identity_and_value, fill_like_nested, igamma_cell]
