"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for the ``tests/st/ops`` slice every 15th file from the 13th: ``DropoutGrad``
(``ops/defs/grad_ops.py``) and ``ApproximateEqual`` (``ops/defs/elementwise.py``)."""
import numpy as np

from graphkiln import Tensor

NON_DIFFERENTIABLE = {"ApproximateEqual": "a bool output (MindSpore's gradient is zeros)"}

_MASK = np.array([[1, 0, 1], [0, 1, 1]], np.float32)


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    return {"DropoutGrad": [((f32(2, 3), Tensor(_MASK)), {"keep_prob": 0.25}),
                            ((f32(2, 3).astype(np.float16), Tensor(_MASK)), {})],
            "ApproximateEqual": [((f32(2, 3), f32(2, 3)), {"tolerance": 0.5}),
                                 ((f32(4).astype(np.float16), f32(4)), {})]}


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - the harness's maker names
    """Samples for test_batching_rules.py, built with its makers."""
    return {"DropoutGrad": [
        lambda r: ((B(f32(r, 3, 2, 3)), B(np.stack([_MASK, 1 - _MASK, _MASK]))),
                   {"keep_prob": 0.8}),
        lambda r: ((U(f32(r, 2, 3)), B(np.stack([_MASK, 1 - _MASK, _MASK]))), {}),
        lambda r: ((B(f32(r, 3, 2, 3)), U(_MASK)), {"keep_prob": 0.4})],
        "ApproximateEqual": [
            lambda r: ((B(f32(r, 3, 2, 4)), B(f32(r, 3, 2, 4))), {"tolerance": 0.5}),
            lambda r: ((U(f32(r, 4)), B(f32(r, 3, 4))), {"tolerance": 1.0})]}


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers."""
    return {"DropoutGrad": [s(n(2, 3), _MASK, keep_prob=0.25), s(n(2, 3), 1 - _MASK)]}
