"""``Dropout2D``/``Dropout3D`` and ``ops.dropout2d``/``dropout3d``: whole channels kept or
zeroed, kept ones scaled by ``1 / keep_prob``, the boolean mask; the same seed gives the same
mask (GRAPH == PYNATIVE); the gradient is ``mask / keep_prob``. Error types as MindSpore 2.10
CPU raises them (keep_prob out of [0, 1] and a wrong rank: ValueError; uint8: TypeError)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.ops import operations as P


def _channels(a: np.ndarray) -> np.ndarray:
    return a.reshape(a.shape[0] * a.shape[1], -1)


@pytest.mark.parametrize("op,shape", [(P.Dropout2D, (4, 5, 2, 3)), (P.Dropout3D, (3, 4, 2, 2, 2))])
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.float16, np.float64])
@pytest.mark.parametrize("keep_prob", [0.0, 0.5, 1.0])
def test_whole_channels_are_kept_or_zeroed(op, shape, dtype, keep_prob):
    x = (np.arange(np.prod(shape)).reshape(shape) % 7 + 1).astype(dtype)
    out, mask = op(keep_prob)(Tensor(x), 3)
    assert out.dtype == Tensor(x).dtype and mask.dtype == ms.bool_
    out, mask = out.asnumpy(), mask.asnumpy()
    rows = _channels(mask)
    assert (rows.all(axis=1) | ~rows.any(axis=1)).all()  # each channel all or nothing
    scaled = (x * (1.0 / keep_prob if keep_prob else 0.0)).astype(dtype)
    np.testing.assert_array_equal(out, np.where(mask, scaled, 0))
    if keep_prob in (0.0, 1.0):
        assert rows.all() == (keep_prob == 1.0) and rows.any() == (keep_prob == 1.0)


def test_same_seed_same_mask_in_graph_and_pynative():
    x = Tensor(np.ones((2, 8, 3, 3), np.float32))
    eager = P.Dropout2D(0.5)(x, 42)[1].asnumpy()
    graph = ms.jit(lambda t: P.Dropout2D(0.5)(t, 42)[1])(x).asnumpy()
    np.testing.assert_array_equal(eager, graph)
    assert 0 < eager.sum() < eager.size


def test_gradient_is_the_scaled_mask():
    x = Tensor(np.random.default_rng(0).standard_normal((2, 6, 2, 2)).astype(np.float32))
    _, mask = P.Dropout2D(0.25)(x, 9)
    grad = ms.grad(lambda t: P.Dropout2D(0.25)(t, 9)[0].sum())(x)
    np.testing.assert_allclose(grad.asnumpy(), mask.asnumpy() * 4.0)


def test_functions():
    x = Tensor(np.ones((2, 16, 2, 2, 2), np.float32))
    out = ops.dropout3d(x, p=0.5).asnumpy()
    assert set(np.unique(out)) <= {0.0, 2.0}
    assert ops.dropout2d(x[:, :, 0], p=0.5, training=False) is not None
    np.testing.assert_array_equal(ops.dropout2d(x[:, :, 0], training=False).asnumpy(),
                                  x[:, :, 0].asnumpy())
    assert ops.dropout3d(Tensor(np.zeros((0, 1, 2, 1, 2), np.float32))).shape == (0, 1, 2, 1, 2)


def test_errors():
    x = Tensor(np.ones((2, 3, 2, 2), np.float32))
    with pytest.raises(ValueError, match="keep_prob"):
        P.Dropout2D(1.5)(x)
    with pytest.raises(ValueError, match="rank"):
        P.Dropout3D(0.5)(x)
    with pytest.raises(TypeError, match="Dropout2D"):
        P.Dropout2D(0.5)(Tensor(np.ones((2, 3, 2, 2), np.uint8)))
    with pytest.raises(ValueError, match="dropout2d"):
        ops.dropout2d(x, p=2.0)
