"""``mindspore.mint`` functions and layers (PyTorch-style signatures), eagerly and inside a
Cell. Written against the ``mindspore`` API: ``fixtures/record.py mint`` runs them on real
MindSpore, ``test_mint_recorded.py`` on graphkiln."""
import numpy as np


def _in_cell(ms, fn, *args):
    class Apply(ms.nn.Cell):
        def construct(self, *xs):
            return fn(*xs)
    return Apply()(*args)


def _t(ms, v, dtype=np.float32):
    return ms.Tensor(np.array(v, dtype))


_X = np.array([[1.0, -2.5, 3.0], [4.0, 0.5, -6.0]], np.float32)


def reductions(ms):
    from mindspore import mint

    def apply(x):
        return (mint.sum(x), mint.sum(x, 1, True), mint.mean(x, 0), mint.prod(x, 1),
                mint.max(x), mint.max(x, 1), mint.min(x, 0, True),
                mint.all(x), mint.any(x, 1))
    return _in_cell(ms, apply, _t(ms, _X))


def arithmetic(ms):
    from mindspore import mint

    def apply(x, y):
        return (mint.add(x, y, alpha=2), mint.sub(x, y), mint.div(x, y, rounding_mode="floor"),
                mint.div(x, y, rounding_mode="trunc"), mint.remainder(x, y),
                mint.clamp(x, -1.0, 2.0), mint.clamp(x, min=0.0), mint.where(x > 0, x, y))
    return _in_cell(ms, apply, _t(ms, _X), _t(ms, [[2.0, 2.0, -4.0], [3.0, -0.25, 5.0]]))


def shapes(ms):
    from mindspore import mint

    def apply(x):
        return (mint.cat((x, x), 1), mint.transpose(x, 0, 1),
                mint.permute(x, (1, 0)), mint.flatten(x), mint.reshape(x, (3, 2)),
                mint.unsqueeze(x, 0), mint.split(x, 1), mint.narrow(x, 1, 0, 2),
                mint.flip(x, (1,)))
    return _in_cell(ms, apply, _t(ms, _X))


def cdist_norms(ms):
    from mindspore import mint
    a = _t(ms, [[0.0, 0.0], [1.0, 2.0], [3.0, -1.0]])
    b = _t(ms, [[1.0, 1.0], [-2.0, 0.5]])

    def apply(x, y):
        return mint.cdist(x, y), mint.cdist(x, y, 1.0), mint.cdist(x, y, 3.0)
    return _in_cell(ms, apply, a, b)


def creation(ms):
    from mindspore import mint
    return (mint.zeros((2, 3)), mint.ones(2, dtype=ms.int32),
            mint.eye(2, 3))


def nan_to_num_atanh_tan(ms):
    from mindspore import mint
    x = _t(ms, [np.nan, np.inf, -np.inf, 0.5])

    def apply(v):
        return mint.nan_to_num(v, 1.0), mint.atanh(v), mint.tan(v)
    return _in_cell(ms, apply, x)


def nn_layers(ms):
    from mindspore import mint
    x = _t(ms, _X)
    linear = mint.nn.Linear(3, 2, weight_init="ones", bias_init="zeros")
    return (linear(x), mint.nn.Identity()(x), mint.nn.ReLU()(x), mint.nn.Softmax(1)(x),
            mint.nn.functional.relu(x),
            mint.nn.functional.silu(x))


def special_functions(ms):
    from mindspore import mint
    x = _t(ms, [-1.5, 0.0, 0.5, 2.0])
    return (mint.special.erfc(x), mint.special.sinc(x),
            mint.special.round(x), mint.special.log1p(mint.abs(x)))


def clamp_bool_error(ms):
    from mindspore import mint
    return mint.clamp(_t(ms, _X), 5, True)


clamp_bool_error.phrase = "must not be bool"

CASES = [reductions, arithmetic, shapes, cdist_norms, creation,
         nan_to_num_atanh_tan, nn_layers, special_functions, clamp_bool_error]
