"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for the ``tests/st/ops`` slice every 15th file from the 7th: ``Shift``
(``ops/defs/array.py``, MindSpore's CPU kernel its tests call through a
``PrimitiveWithInfer`` class of that name): ``x`` moved along an axis, a fill where it left;
``ApplyAdamWithAmsgrad`` (``ops/defs/optim.py``: a memory effect, not differentiable; its
vmap is tests/transforms/test_vmap_weight_updates.py's); ``SparseApplyRMSProp``
(``ops/defs/optim_sparse.py``; its vmap against a loop in tests/ops/test_wide_s15o7.py);
``AsinhGrad`` and ``AcoshGrad`` (``ops/defs/arc_grads.py``, from the forward output)."""
import numpy as np

from graphkiln import Parameter, Tensor


def _weight(*shape, value=0.5):
    return Parameter(Tensor(np.full(shape, value, np.float32)), name="w")


_HYPERBOLIC_GRADS = ("AsinhGrad", "AcoshGrad")


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    half = Tensor(np.array([-1.5, 0.5, 0.25, 2.0], np.float16))
    cplx = Tensor(np.array([0.5 + 0.5j, -1.5 + 0.25j], np.complex64))
    return {
        **{n: [((f32(2, 3), f32(2, 3)), {}), ((half, half), {}), ((cplx, cplx), {})]
           for n in _HYPERBOLIC_GRADS},
        "Shift": [((f32(3, 4), 1.5), {"periods": 2, "axis": 0}),
                  ((f32(2, 5), Tensor(np.float32(-1))), {"periods": -3, "axis": -1}),
                  ((Tensor(np.arange(6, dtype=np.int64)), 7), {"periods": 9, "axis": 0})],
        "SparseApplyRMSProp": [
            ((_weight(3, 2), _weight(3, 2), _weight(3, 2), 0.01, f32(3, 2),
              Tensor(np.array([2, 0, 1], np.int32))),
             {"rho": 0.2, "momentum": 0.01, "epsilon": 1e-6}),
            ((_weight(2), _weight(2, value=2.0), _weight(2), Tensor(np.float32(0.5)), f32(2),
              Tensor(np.array([1, 1], np.int64))),
             {"rho": 0.9, "momentum": 0.0, "epsilon": 1e-3})],
        "ApplyAdamWithAmsgrad": [
            ((_weight(2, 3), _weight(2, 3), _weight(2, 3), _weight(2, 3), 0.9, 0.999, 0.01,
              f32(2, 3)), {}),
            ((_weight(4), _weight(4), _weight(4), _weight(4, value=2.0), Tensor(np.float32(0.5)),
              Tensor(np.float32(0.25)), Tensor(np.float32(0.1)), f32(4)),
             {"beta1": 0.5, "beta2": 0.75, "epsilon": 1e-4})],
    }


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - the harness's maker names
    """Samples for test_batching_rules.py, built with its makers."""
    return {
        **{n: [lambda r: ((B(f32(r, 3, 4, lo=0.5, hi=2)), B(f32(r, 3, 4))), {}),
               lambda r: ((U(f32(r, 4, lo=0.5, hi=2)), B(f32(r, 3, 4))), {})]
           for n in _HYPERBOLIC_GRADS},
        "Shift": [
            lambda r: ((B(f32(r, 3, 4, 5)), 0.5), {"periods": 2, "axis": 1}),
            lambda r: ((B(f32(r, 3, 4, 5)), U(np.float32(2))), {"periods": -1, "axis": -2}),
            lambda r: ((B(f32(r, 3, 4)), B(f32(r, 3))), {"periods": 3, "axis": 0}),
            lambda r: ((U(f32(r, 4, 2)), B(f32(r, 3, 1))), {"periods": -2, "axis": 0}),
            lambda r: ((B(r.integers(0, 9, (3, 6)).astype(np.int32)), 4),
                       {"periods": 1, "axis": 0})],
    }


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers."""
    return {
        **{name: [s(u(0.5, 2.0, 2, 3), n(2, 3)), s(u(-2.0, -0.5, 3), n(3))]
           for name in _HYPERBOLIC_GRADS},
        "Shift": [s(n(3, 4), 0.5, periods=1, axis=1), s(n(4, 2), n(1), periods=-2, axis=0),
                  s(n(2, 3), n(1), periods=5, axis=-1), s(n(5), 0.0, periods=0, axis=0)],
    }
