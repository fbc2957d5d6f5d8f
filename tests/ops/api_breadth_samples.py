"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for the primitives behind the functional APIs of the ``test_api_*`` modules (``CumProd``,
the FFTs...)."""
import numpy as np

from graphkiln import Tensor

_INT_BINARY = ("Gcd", "Lcm", "LeftShift", "RightShift")
NON_DIFFERENTIABLE = {**{n: "integer operands" for n in _INT_BINARY},
                      "PopulationCount": "counts the bits of integers"}
NO_FLOAT16 = {"NextAfter"}  # float32/float64 only, as MindSpore's
CHECKED_ELSEWHERE = {n: "complex-valued: its gradient (df/da + i df/db) is checked against "
                        "finite differences of both parts in tests/ops/test_api_fft.py"
                     for n in ("FFTN", "RFFTN", "IRFFTN")}
CHECKED_ELSEWHERE["FFTAdjoint"] = ("complex-valued: the gradient of its rule checked against "
                                   "finite differences of both parts in "
                                   "tests/ops/test_fft_runtime.py")
CHECKED_ELSEWHERE["Zeta"] = ("MindSpore's rule gives the exponent no gradient (zeros), so only "
                             "the q gradient is a derivative: checked against finite "
                             "differences in tests/ops/test_api_grads.py and against "
                             "MindSpore's recorded gradients in tests/ops/test_api_special.py")
_FFT = {"sizes": (3, 4), "axes": (0, 1)}
_BESSEL = ("BesselJ0", "BesselJ1", "BesselY0", "BesselY1", "BesselK0", "BesselK1", "BesselK0e",
           "BesselK1e", "BesselI0e", "BesselI1e")


def _complex(r, *shape):
    return (r.standard_normal(shape) + 1j * r.standard_normal(shape)).astype(np.complex64)


def _ints(r, *shape):
    return r.integers(0, 9, shape).astype(np.int32)


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    ints = Tensor(np.array([[1, 2, -3], [4, 0, 2]], np.int32))
    shifts = Tensor(np.array([0, 1, 3], np.int32))
    return {
        "CumProd": [((f32(2, 3), 1), {}), ((ints, -2), {"exclusive": True, "reverse": True})],
        "LogWeightedCumSum": [((f32(2, 3), f32(2, 3), f32(2, 3) + 2.0, 1), {}),
                              ((f32(3, 2), f32(3, 2), f32(3, 2), 0),
                               {"exclusive": True, "reverse": True})],
        "CumulativeLogsumexp": [((f32(2, 3), 1), {}),
                                ((Tensor(np.array([[0.0, -300.0], [9.0, 1.0]], np.float16)), 0),
                                 {"exclusive": True, "reverse": True})],
        **{n: [((ints, shifts), {})] for n in _INT_BINARY},
        **{n: [((Tensor(np.array([0.3, 1.5, 4.0, 11.0], np.float32)),), {}),
               ((Tensor(np.array([0.5, 2.0], np.float16)),), {})] for n in _BESSEL},
        "Zeta": [((Tensor(np.array([1.5, 3.0], np.float32)),
                   Tensor(np.array([0.5, 2.0], np.float32))), {})],
        "NextAfter": [((f32(2, 3), f32(2, 3)), {})],
        "PopulationCount": [((Tensor(np.array([0, 7, -1], np.int16)),), {}),
                            ((Tensor(np.array([3, 255], np.uint8)),), {})],
        "MatrixExp": [((f32(3, 3),), {}), ((Tensor(np.eye(2, dtype=np.float16)),), {})],
        "FFTN": [((f32(2, 3),), _FFT), ((f32(2, 3), (4, -1), (1, 0)), {"inverse": True}),
                 ((Tensor(_complex(np.random.default_rng(0), 3, 4)),),
                  {"sizes": (5,), "axes": (1,), "norm": "ortho", "inverse": True})],
        "RFFTN": [((f32(2, 3),), _FFT), ((f32(2, 3), None, (-1,)), {"norm": "forward"})],
        "IRFFTN": [((Tensor(_complex(np.random.default_rng(1), 3, 3)),), _FFT),
                   ((Tensor(_complex(np.random.default_rng(1), 3, 3)), (4, -1), (1, 0)), {})],
        "FFTAdjoint": [((Tensor(_complex(np.random.default_rng(2), 3, 4)), f32(2, 3)), _FFT),
                       ((Tensor(_complex(np.random.default_rng(3), 3, 3)), f32(3, 4), (5,),
                         (-1,)), {"kind": "RFFTN", "norm": "ortho"}),
                       ((f32(4, 3), Tensor(_complex(np.random.default_rng(4), 3, 3))),
                        {**_FFT, "kind": "IRFFTN"})],
    }


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - the test module's makers
    """Samples for test_batching_rules.py, built with its makers."""
    return {
        "CumProd": [lambda r: ((B(f32(r, 3, 4, 5)), 0), {"exclusive": True}),
                    lambda r: ((B(f32(r, 3, 4)), -1), {"reverse": True})],
        "LogWeightedCumSum": [
            lambda r: ((B(f32(r, 3, 4, 5)), U(f32(r, 4, 5)), B(f32(r, 3, 4, 5)), 1), {}),
            lambda r: ((U(f32(r, 4)), B(f32(r, 3, 4)), U(f32(r, 4)), -1),
                       {"exclusive": True, "reverse": True})],
        "CumulativeLogsumexp": [lambda r: ((B(f32(r, 3, 4, 5)), 1), {"exclusive": True}),
                                lambda r: ((B(f32(r, 3, 4)), -1), {"reverse": True})],
        **{n: [lambda r: ((B(_ints(r, 3, 4)), U(_ints(r, 4))), {})] for n in _INT_BINARY},
        **{n: [lambda r: ((B(np.abs(f32(r, 3, 4)) + 0.2),), {})] for n in _BESSEL},
        "Zeta": [lambda r: ((B(np.abs(f32(r, 3, 4)) + 1.5), B(np.abs(f32(r, 3, 4)) + 0.5)), {})],
        "NextAfter": [lambda r: ((B(f32(r, 3, 4)), U(f32(r, 4))), {})],
        "PopulationCount": [lambda r: ((B(r.integers(-9, 9, (3, 4)).astype(np.int8)),), {})],
        "MatrixExp": [lambda r: ((B(f32(r, 3, 2, 3, 3)),), {})],
        "FFTN": [lambda r: ((B(_complex(r, 3, 2, 3)),), {**_FFT, "norm": "forward"})],
        "RFFTN": [lambda r: ((B(f32(r, 3, 2, 3)),), _FFT),
                  lambda r: ((B(f32(r, 3, 2, 3)), (4,), (-2,)), {})],
        "IRFFTN": [lambda r: ((B(_complex(r, 3, 3, 3)),), _FFT),
                   lambda r: ((B(_complex(r, 3, 3, 3)), None, (0, -1)), {"norm": "ortho"})],
        "FFTAdjoint": [lambda r: ((B(_complex(r, 3, 3, 4)), U(f32(r, 2, 3))), _FFT),
                       lambda r: ((U(_complex(r, 3, 3)), B(f32(r, 3, 3, 4)), (5,), (-1,)),
                                  {"kind": "RFFTN"}),
                       lambda r: ((B(f32(r, 3, 4, 3)), B(_complex(r, 3, 3, 3))),
                                  {**_FFT, "kind": "IRFFTN", "norm": "forward"})],
    }


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers."""
    return {
        "MatrixExp": [s(n(3, 3)), s(n(2, 2, 2))],
        "NextAfter": [s(n(2, 3), n(2, 3)), s(n(2, 3), n(3))],
        **{k: [s(u(0.3, 6.0, 2, 3))] for k in _BESSEL},
        "CumProd": [s(u(0.5, 2.0, 2, 3), 1),
                    s(u(-2.0, -0.5, 3, 2), 0, exclusive=True, reverse=True)],
        # (exclusive: its first output is -inf, which finite differences cannot take)
        "CumulativeLogsumexp": [s(n(2, 3), 1), s(u(-30.0, 5.0, 3, 2), 0, reverse=True)],
        "LogWeightedCumSum": [s(n(2, 3), n(2, 3), n(2, 3), 1),
                              s(n(3, 2), n(3, 2), n(3, 2), 0, exclusive=True, reverse=True),
                              s(n(4), n(4), n(4), 0, reverse=True)],
    }
