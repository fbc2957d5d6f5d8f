"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for ``AsinhGrad``/``AcoshGrad`` (``ops/defs/arc_grads.py``), ``SoftplusGrad``
(``ops/defs/elementwise.py``) and ``Eps`` (``ops/defs/array.py``)."""
import numpy as np

from graphkiln import Tensor

NON_DIFFERENTIABLE = {"Eps": "its value does not depend on the input's values"}

# each backward kernel's first input and its range (AcoshGrad divides by sinh(y): y > 0)
_RANGES = {"AsinhGrad": (-2.0, 2.0), "AcoshGrad": (0.3, 2.0), "SoftplusGrad": (-2.0, 2.0)}


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    pos = Tensor(np.linspace(0.3, 2.0, 6).astype(np.float32).reshape(2, 3))
    half = Tensor(np.array([0.5, 1.0, 1.5, 2.0], np.float16))
    return {**{n: [((pos, f32(2, 3)), {}), ((half, half), {})] for n in _RANGES},
            "Eps": [((f32(2, 3),), {}), ((half,), {}),
                    ((Tensor(np.zeros((0, 2), np.float64)),), {})]}


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - the harness's maker names
    """Samples for test_batching_rules.py, built with its makers."""
    def pair(lo, hi):
        return [lambda r: ((B(f32(r, 3, 4, lo=lo, hi=hi)), B(f32(r, 3, 4))), {}),
                lambda r: ((U(f32(r, 4, lo=lo, hi=hi)), B(f32(r, 3, 4))), {})]
    return {**{n: pair(lo, hi) for n, (lo, hi) in _RANGES.items()},
            "Eps": [lambda r: ((B(f32(r, 3, 2, 4)),), {})]}


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers (SoftplusGrad takes ``dout`` first)."""
    return {"AsinhGrad": [s(u(-2.0, 2.0, 2, 3), n(2, 3))],
            "AcoshGrad": [s(u(0.3, 2.0, 2, 3), n(2, 3))],
            "SoftplusGrad": [s(n(2, 3), u(-2.0, 2.0, 2, 3))]}
