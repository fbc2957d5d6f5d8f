"""Central finite differences of a scalar graphkiln function, the gradient oracle shared by
tests that build their own losses (import with ``tests`` on ``sys.path``)."""
import numpy as np

from graphkiln import Tensor


def numeric_grad(loss, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """d loss / d x at ``x`` (float64), one central difference per element; ``loss`` maps
    a Tensor to a scalar Tensor."""
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[i] = eps
        grad[i] = (float(loss(Tensor(x + step)).asnumpy()) -
                   float(loss(Tensor(x - step)).asnumpy())) / (2 * eps)
    return grad
