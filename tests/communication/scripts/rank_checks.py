"""Shared by the multi-rank scripts: each rank's input tensor and the check that records
the names of the checks a rank passed."""
import numpy as np


def base(r):
    return np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * r + 1


class Checks:
    """``check(name, got, want[, atol])``: compare with NumPy, remember ``name`` in
    ``passed``."""

    def __init__(self, rank):
        self.rank = rank
        self.passed = []

    def __call__(self, name, got, want, atol=0.0):
        np.testing.assert_allclose(np.asarray(got.asnumpy() if hasattr(got, "asnumpy") else got),
                                   want, rtol=1e-6, atol=atol, err_msg=f"rank {self.rank}: {name}")
        self.passed.append(name)
