"""vmap over some of the breadth layers and losses (composites of primitives with batching
rules) equals a stacked loop over the examples."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn


@pytest.mark.parametrize("make,shape", [
    (lambda: nn.GLU(0), (4, 3)),
    (lambda: nn.LRN(1, 1.0, 0.5, 0.75), (1, 4, 2, 2)),
    (lambda: nn.Softmin(), (3, 5)),
    (lambda: nn.ConstantPad2d((1, 0, -1, 2), 0.5), (2, 3, 3)),
    (lambda: nn.MatrixSetDiag(), None),
    (lambda: nn.AdaptiveAvgPool3d((1, 2, 2)), (2, 3, 4, 5)),
], ids=["glu", "lrn", "softmin", "constant_pad", "matrix_set_diag", "adaptive_avg3d"])
def test_vmap_equals_a_loop(make, shape):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    cell = make()
    r = np.random.default_rng(0)
    if shape is None:  # MatrixSetDiag: (matrix, diagonal) pairs
        xs = (r.standard_normal((3, 2, 3)).astype(np.float32),
              r.standard_normal((3, 2)).astype(np.float32))
    else:
        xs = (r.standard_normal((3,) + shape).astype(np.float32),)
    got = ms.vmap(cell)(*[Tensor(x) for x in xs]).asnumpy()
    want = np.stack([cell(*[Tensor(x[i]) for x in xs]).asnumpy() for i in range(3)])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_vmap_of_a_loss_over_examples():
    loss = nn.MultiMarginLoss(reduction="none")
    r = np.random.default_rng(1)
    x = r.standard_normal((3, 2, 4)).astype(np.float32)
    t = r.integers(0, 4, (3, 2)).astype(np.int64)
    got = ms.vmap(loss)(Tensor(x), Tensor(t)).asnumpy()
    want = np.stack([loss(Tensor(x[i]), Tensor(t[i])).asnumpy() for i in range(3)])
    np.testing.assert_allclose(got, want, rtol=1e-6)
