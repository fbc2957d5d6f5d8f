"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for fractional max and average pooling and their gradients
(``ops/defs/fractional_max_pool.py``).
Fixed seeds, or sizes the pooling divides evenly, keep the drawn regions the same from call
to call."""
import numpy as np

from graphkiln import Tensor

NON_DIFFERENTIABLE = {
    "FractionalMaxPoolArgmax": "integer positions (of the maxima)",
}
NO_FLOAT16 = {"FractionalMaxPool", "FractionalMaxPoolGrad", "FractionalAvgPool",
              "FractionalAvgPoolGrad"}  # (no float16 kernels)
_SEQ3 = Tensor(np.array([0, 2, 4, 6], np.int64))
_SEQ2 = Tensor(np.array([0, 3, 6], np.int64))
_SHAPE = Tensor(np.array([1, 6, 6, 2], np.int64))


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    return {
        "FractionalMaxPool": [
            ((f32(2, 7, 6, 3),), {"pooling_ratio": [1.0, 1.5, 2.0, 1.0], "seed": 4}),
            ((Tensor(np.arange(40, dtype=np.int32).reshape(1, 5, 8, 1)),),
             {"pooling_ratio": [1.0, 1.2, 1.7, 1.0], "pseudo_random": True,
              "overlapping": True, "seed2": 9})],
        "FractionalMaxPoolGrad": [
            ((f32(2, 6, 6, 3), f32(2, 3, 2, 3), f32(2, 3, 2, 3), _SEQ3, _SEQ2), {}),
            ((f32(1, 6, 6, 2), f32(1, 3, 2, 2), f32(1, 3, 2, 2), _SEQ3, _SEQ2),
             {"overlapping": True})],
        "FractionalAvgPool": [
            ((f32(2, 7, 6, 3),), {"pooling_ratio": [1.0, 1.5, 2.0, 1.0], "seed": 4}),
            ((Tensor(np.arange(40, dtype=np.int64).reshape(1, 5, 8, 1)),),
             {"pooling_ratio": [1.0, 1.2, 1.7, 1.0], "pseudo_random": True,
              "overlapping": True, "seed2": 9})],
        "FractionalAvgPoolGrad": [((_SHAPE, f32(1, 3, 2, 2), _SEQ3, _SEQ2), {}),
                                  ((_SHAPE, f32(1, 3, 2, 2), _SEQ3, _SEQ2),
                                   {"overlapping": True})],
        "FractionalMaxPoolArgmax": [((f32(2, 6, 6, 3), _SEQ3, _SEQ2), {}),
                                    ((f32(1, 6, 6, 1), _SEQ3, _SEQ2), {"overlapping": True})],
    }


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - test_batching_rules' class names
    """Samples for test_batching_rules.py, built with its input markers."""
    return {
        "FractionalMaxPool": [lambda r: ((B(f32(r, 3, 2, 6, 4, 2)),),
                                         {"pooling_ratio": [1.0, 2.0, 2.0, 1.0]}),
                              lambda r: ((B(f32(r, 3, 1, 7, 5, 2)),),
                                         {"pooling_ratio": [1.0, 1.5, 1.5, 1.0],
                                          "pseudo_random": True, "seed": 7})],
        "FractionalMaxPoolGrad": [lambda r: ((B(f32(r, 3, 2, 6, 6, 2)), U(f32(r, 2, 3, 2, 2)),
                                              B(f32(r, 3, 2, 3, 2, 2)), U(_SEQ3), U(_SEQ2)),
                                             {"overlapping": True})],
        "FractionalMaxPoolArgmax": [lambda r: ((B(f32(r, 3, 2, 6, 6, 2)), U(_SEQ3), U(_SEQ2)),
                                               {})],
        "FractionalAvgPool": [lambda r: ((B(f32(r, 3, 2, 6, 4, 2)),),
                                         {"pooling_ratio": [1.0, 2.0, 2.0, 1.0],
                                          "overlapping": True})],
        "FractionalAvgPoolGrad": [lambda r: ((U(_SHAPE), B(f32(r, 3, 1, 3, 2, 2)), U(_SEQ3),
                                              U(_SEQ2)), {"overlapping": True})],
    }


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers."""
    # (the gradient is linear in its cotangent input, the others constants: distinct values
    # keep the maxima apart)
    x = Tensor(np.random.default_rng(0).permutation(72).reshape(1, 6, 6, 2).astype(np.float64))
    return {"FractionalMaxPool": [s(n(2, 7, 6, 2), pooling_ratio=[1.0, 1.5, 2.0, 1.0], seed=3),
                                  s(n(1, 6, 5, 3), pooling_ratio=[1.0, 1.4, 1.6, 1.0],
                                    pseudo_random=True, overlapping=True, seed2=5)],
            "FractionalMaxPoolGrad": [s(x, Tensor(np.zeros((1, 3, 2, 2))), n(1, 3, 2, 2),
                                        _SEQ3, _SEQ2, overlapping=o) for o in (False, True)],
            "FractionalAvgPool": [s(n(2, 7, 6, 2), pooling_ratio=[1.0, 1.5, 2.0, 1.0], seed=3),
                                  s(n(1, 6, 5, 3), pooling_ratio=[1.0, 1.4, 1.6, 1.0],
                                    pseudo_random=True, overlapping=True, seed2=5)],
            "FractionalAvgPoolGrad": [s(_SHAPE, n(1, 3, 2, 2), _SEQ3, _SEQ2, overlapping=o)
                                      for o in (False, True)]}
