"""``Tensor.repeat(*repeats)`` tiles like ``np.tile`` with the repeats as given (MindSpore's
Ascend meaning; MindSpore 2.10 raises on CPU), in PYNATIVE and inside graphs, with its
gradient; bad repeats raise MindSpore-style errors."""
import numpy as np
import pytest

import graphkiln as ms

X = np.arange(6, dtype=np.float32).reshape(2, 3)


@pytest.mark.parametrize("repeats", [(2, 1), ((1, 3),), (2, 1, 2), ([3, 2],), (1, 0)])
def test_repeat_is_tile(repeats):
    reps = repeats[0] if len(repeats) == 1 else repeats
    want = np.tile(X, reps)
    np.testing.assert_array_equal(ms.Tensor(X).repeat(*repeats).asnumpy(), want)
    np.testing.assert_array_equal(ms.jit(lambda t: t.repeat(*repeats))(ms.Tensor(X)).asnumpy(),
                                  want)


def test_repeat_gradient_sums_the_copies():
    w = np.random.RandomState(0).randn(4, 6).astype(np.float32)
    g = ms.grad(lambda t: (t.repeat(2, 2) * ms.Tensor(w)).sum())(ms.Tensor(X)).asnumpy()
    want = w.reshape(2, 2, 2, 3).sum(axis=(0, 2))
    np.testing.assert_allclose(g, want, rtol=1e-6)


@pytest.mark.parametrize("repeats, error", [((2,), ValueError), ((2, -1), ValueError),
                                            ((2.0, 1), TypeError), ((), TypeError)])
def test_bad_repeats(repeats, error):
    """Wrong types and no repeats: the overload check's words (``repeat(): argument
    'repeats' ...``); wrong values: Tensor.repeat's."""
    with pytest.raises(error, match=r"Tensor\.repeat|repeat\(\)"):
        ms.Tensor(X).repeat(*repeats)
