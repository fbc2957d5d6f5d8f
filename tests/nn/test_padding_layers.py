"""ReflectionPad1d/2d/3d and ReplicationPad1d/2d/3d against ``np.pad`` ('reflect' and
'edge', which MindSpore 2.10 matches), in PYNATIVE and GRAPH mode, their gradient (each
output element sends its cotangent back to the element it copies) and their errors."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn

X = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
CASES = [
    (nn.ReflectionPad1d, (3, 1), "reflect", X),
    (nn.ReflectionPad1d, 2, "reflect", X[0, 0]),
    (nn.ReflectionPad2d, (2, 1, 3, 0), "reflect", X),
    (nn.ReflectionPad3d, (1, 0, 2, 1, 0, 2), "reflect", X),
    (nn.ReplicationPad1d, 3, "edge", X[0]),
    (nn.ReplicationPad2d, (1, 0, 2, 1), "edge", X[0]),
    (nn.ReplicationPad3d, (1, 0, 2, 1, 0, 2), "edge", X),
]
MODES = {"pynative": ms.PYNATIVE_MODE, "graph": ms.GRAPH_MODE}


def _np_widths(padding, ndim):
    pairs = [(padding[2 * i], padding[2 * i + 1]) for i in range(len(padding) // 2)][::-1]
    return [(0, 0)] * (ndim - len(pairs)) + pairs


def _full(padding, rank):
    return (padding,) * (2 * rank) if isinstance(padding, int) else padding


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", range(len(CASES)))
def test_padding_matches_numpy(case, mode):
    ms.set_context(mode=MODES[mode])
    cls, padding, np_mode, x = CASES[case]
    rank = int(cls.__name__[-2])
    out = cls(padding)(Tensor(x)).asnumpy()
    np.testing.assert_array_equal(out, np.pad(x, _np_widths(_full(padding, rank), x.ndim),
                                              mode=np_mode))


@pytest.mark.parametrize("case", [0, 2, 6])
def test_padding_gradient_sums_the_copies(case):
    ms.set_context(mode=ms.GRAPH_MODE)
    cls, padding, np_mode, x = CASES[case]
    widths = _np_widths(_full(padding, int(cls.__name__[-2])), x.ndim)
    cot = np.random.default_rng(0).standard_normal(np.pad(x, widths).shape).astype(np.float32)
    net = cls(padding)
    grad = ms.grad(lambda t: (net(t) * Tensor(cot)).sum())(Tensor(x)).asnumpy()
    # the padded copy of an index array says where each output element comes from
    source = np.pad(np.arange(x.size).reshape(x.shape), widths, mode=np_mode)
    expected = np.bincount(source.ravel(), cot.ravel(), x.size).reshape(x.shape)
    np.testing.assert_allclose(grad, expected, rtol=1e-5, atol=1e-5)


def test_replication_negative_padding_crops():
    out = nn.ReplicationPad1d((1, -1))(Tensor(X[0])).asnumpy()
    np.testing.assert_array_equal(out, np.concatenate([X[0][..., :1], X[0][..., :-1]], -1))


@pytest.mark.parametrize("make, error", [
    (lambda: nn.ReflectionPad1d([1, 2]), TypeError),
    (lambda: nn.ReflectionPad1d((1, -1)), ValueError),
    (lambda: nn.ReplicationPad1d((1, 2, 3)), ValueError),
    (lambda: nn.ReplicationPad1d(1)(Tensor(X)), ValueError),
    (lambda: nn.ReflectionPad1d(5)(Tensor(X)), ValueError),
    (lambda: nn.ReflectionPad2d(1)(Tensor(X[0, 0, 0])), ValueError),
])
def test_padding_errors(make, error):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    with pytest.raises(error):
        make()
