"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for the ``tests/st/ops`` slice every 15th file from the 12th: ``MaxPoolGradWithArgmaxV2``
(``ops/defs/pool_argmax.py``), ``SpaceToBatchND`` (``ops/defs/space_rearrange.py``) and
``TanhGrad`` (``ops/defs/elementwise.py``), ``ScalarLog`` and ``ScalarUadd``
(``ops/defs/scalar.py``: Python numbers, not differentiable as the other scalar ops).
(``LRNGrad`` is composed of primitives, not one.)"""
import numpy as np

from graphkiln import Tensor

NON_DIFFERENTIABLE = {name: "scalar: computes on Python numbers, as the other scalar ops"
                      for name in ("ScalarLog", "ScalarUadd")}

# flat indices into each 5x5 plane for a 3x3 output (kernel 3, stride 2, pads 1): a repeat
# in one window adds up, -1, 25 and an index outside its window's span add nothing
_ARGMAX = np.array([[[[0, 2, 4], [10, 12, 14], [20, 22, 24]],
                     [[6, 6, 9], [16, 25, 19], [-1, 23, 0]]],
                    [[[1, 3, 3], [15, 5, 11], [21, 24, 24]],
                     [[6, 7, 8], [11, 12, 13], [16, 17, 18]]]], np.int64)
_ATTRS = {"kernel_size": 3, "strides": 2, "pads": 1}


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    return {"MaxPoolGradWithArgmaxV2": [
        ((f32(2, 2, 5, 5), f32(2, 2, 3, 3), Tensor(_ARGMAX)), _ATTRS),
        ((f32(2, 2, 5, 5), f32(2, 2, 3, 3).astype(np.float16),
          Tensor(_ARGMAX.astype(np.int32))), {"kernel_size": (2, 2), "dilation": (2, 2)})],
        "SpaceToBatchND": [
            ((f32(2, 3, 4, 6),), {"block_shape": [2, 3], "paddings": [[1, 1], [0, 3]]}),
            ((f32(2, 3, 4, 6),), {"block_shape": 2, "paddings": [[0, 0], [0, 0]]})],
        "ScalarLog": [((8,), {}), ((0.5,), {})],
        "ScalarUadd": [((3,), {}), ((-2.5,), {}), ((True,), {})],
        "TanhGrad": [((f32(2, 3), f32(2, 3)), {}),
                     ((Tensor(np.array([0.5 + 0.1j, -0.3j])), Tensor(np.array([1 - 1j, 2.0]))),
                      {})]}


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - the harness's maker names
    """Samples for test_batching_rules.py, built with its makers."""
    return {"MaxPoolGradWithArgmaxV2": [
        lambda r: ((B(f32(r, 3, 2, 2, 5, 5)), B(f32(r, 3, 2, 2, 3, 3)),
                    B(np.stack([_ARGMAX, _ARGMAX[::-1], _ARGMAX % 7]))), _ATTRS),
        lambda r: ((U(f32(r, 2, 2, 5, 5)), B(f32(r, 3, 2, 2, 3, 3)), U(_ARGMAX)), _ATTRS)],
        "SpaceToBatchND": [
            lambda r: ((B(f32(r, 3, 2, 3, 4, 6)),),
                       {"block_shape": [2, 3], "paddings": [[1, 1], [0, 3]]})],
        "TanhGrad": [lambda r: ((B(f32(r, 3, 2, 4)), B(f32(r, 3, 2, 4))), {}),
                     lambda r: ((U(f32(r, 2, 4)), B(f32(r, 3, 2, 4))), {})]}


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers."""
    return {"MaxPoolGradWithArgmaxV2": [
        s(n(2, 2, 5, 5), n(2, 2, 3, 3), _ARGMAX, **_ATTRS),
        s(n(2, 2, 5, 5), n(2, 2, 3, 3), _ARGMAX % 5, kernel_size=2, strides=2)],
        "SpaceToBatchND": [s(n(2, 3, 4, 6), block_shape=[2, 3], paddings=[[1, 1], [0, 3]]),
                           s(n(1, 2, 2, 3), block_shape=[3], paddings=[[0, 0]])],
        "TanhGrad": [s(n(2, 3), n(2, 3))]}
