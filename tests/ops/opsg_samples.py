"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for the ``tests/st/ops`` slice every 15th file from the 4th: ``RandomCategorical``
(``ops/defs/random_categorical.py``, not differentiable, refused by vmap),
``MaxPoolGradGradWithArgmax`` (``ops/defs/pool_argmax.py``; float16/float32 only, its
gradient checked in float32 by tests/ops/test_wide_s15o4.py), ``EmbeddingLookup``
(``ops/defs/embedding_cache.py``), ``ResizeLinear1D``/``ResizeLinear1DGrad``
(``ops/defs/resize_linear_1d.py``) and ``SparseTensorDenseAdd`` (``ops/defs/sparse_coo.py``).
``ApplyAdagradDA`` is among the recorded optimizer updates
(fixtures/optimizer_update_cases.py)."""
import numpy as np

import graphkiln as ms
from graphkiln import Tensor

NON_DIFFERENTIABLE = {"RandomCategorical": "random integer category draws",
                      "ApplyAdagradDA": "an optimizer step: updates weights in place (a "
                                        "memory effect, like Assign)"}
CHECKED_ELSEWHERE = {"MaxPoolGradGradWithArgmax": "float16/float32 only (no float64 sample "
                                                  "here): checked against finite differences "
                                                  "in float32 by tests/ops/test_wide_s15o4.py"}

# flat indices into each batch entry's C*H*W elements, some outside (-1, 40): they read 0
_ARGMAX = np.array([[[[0, 5], [17, -1]], [[9, 35], [40, 20]]]], np.int32)
_ROWS = np.array([[3, 0], [7, 3], [-1, 1]], np.int32)  # indices - 1 outside [0, 4) give 0
_COO = np.array([[0, 2], [1, 0], [0, 2]], np.int64)  # a repeated entry adds up


def _size(w: int):
    return Tensor(np.array([w], np.int64))


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    return {
        "RandomCategorical": [((f32(2, 5), 6, 5), {}),
                              ((f32(3, 4), 2, Tensor(np.int64(0))), {"dtype": ms.int16})],
        "MaxPoolGradGradWithArgmax": [((f32(1, 2, 4, 5), f32(1, 2, 4, 5), Tensor(_ARGMAX)),
                                       {"kernel_size": 2, "strides": 2})],
        "EmbeddingLookup": [((f32(4, 3), Tensor(_ROWS), 1), {}),
                            ((f32(5), Tensor(np.array([4, 0, 9], np.int64)), 0), {})],
        "ResizeLinear1D": [((f32(2, 3, 4), _size(7)), {}),
                           ((f32(1, 2, 6), (4,)), {"coordinate_transformation_mode":
                                                   "half_pixel"})],
        "ResizeLinear1DGrad": [((f32(2, 3, 7), f32(2, 3, 4)), {}),
                               ((f32(1, 2, 4), f32(1, 2, 6)),
                                {"coordinate_transformation_mode": "half_pixel"})],
        "SparseTensorDenseAdd": [((Tensor(_COO), f32(3), Tensor(np.array([2, 3], np.int64)),
                                   f32(2, 3)), {})],
    }


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - the harness's maker names
    """Samples for test_batching_rules.py, built with its makers."""
    argmax = np.array([[[[0, 5], [17, -1]]], [[[3, 19], [20, 8]]], [[[2, 2], [0, 11]]]],
                      np.int32)
    return {
        "MaxPoolGradGradWithArgmax": [
            lambda r: ((B(f32(r, 3, 1, 1, 4, 5)), B(f32(r, 3, 1, 1, 4, 5)), B(argmax[:, None])),
                       {"kernel_size": 2, "strides": 2}),
            lambda r: ((B(f32(r, 3, 1, 1, 4, 5)), B(f32(r, 3, 1, 1, 4, 5)), U(argmax[0:1])), {})],
        "EmbeddingLookup": [
            lambda r: ((U(f32(r, 4, 3)), B(np.array([[3, 0], [7, 3], [-1, 1]], np.int32)), 1),
                       {}),
            lambda r: ((B(f32(r, 3, 4, 2)), B(np.array([[3, 0], [4, 2], [-1, 1]], np.int32)),
                        0), {}),
            lambda r: ((B(f32(r, 3, 4)), U(np.array([1, 5, 2], np.int64)), 2), {})],
        "ResizeLinear1D": [
            lambda r: ((B(f32(r, 3, 2, 2, 4)), U(np.array([7], np.int64))), {}),
            lambda r: ((B(f32(r, 3, 1, 2, 6)), (4,)),
                       {"coordinate_transformation_mode": "half_pixel"})],
        "ResizeLinear1DGrad": [
            lambda r: ((B(f32(r, 3, 2, 2, 7)), B(f32(r, 3, 2, 2, 4))), {}),
            lambda r: ((B(f32(r, 3, 1, 2, 4)), U(f32(r, 1, 2, 6))),
                       {"coordinate_transformation_mode": "half_pixel"})],
        "SparseTensorDenseAdd": [
            lambda r: ((U(_COO), B(f32(r, 3, 3)), U(np.array([2, 3], np.int64)),
                        B(f32(r, 3, 2, 3))), {}),
            lambda r: ((U(_COO), U(f32(r, 3)), U(np.array([2, 3], np.int64)),
                        B(f32(r, 3, 2, 3))), {})],
    }


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers."""
    return {
        "EmbeddingLookup": [s(n(4, 3), _ROWS, 1), s(n(5), np.array([4, 0, 9], np.int64), 0)],
        "ResizeLinear1D": [s(n(2, 3, 4), _size(7)), s(n(1, 2, 4), _size(4)),
                           s(n(1, 2, 6), (4,), coordinate_transformation_mode="half_pixel")],
        "SparseTensorDenseAdd": [s(Tensor(_COO), n(3), Tensor(np.array([2, 3], np.int64)),
                                   n(2, 3))],
        "ResizeLinear1DGrad": [s(n(2, 3, 7), n(2, 3, 4)),
                               s(n(1, 2, 4), n(1, 2, 6),
                                 coordinate_transformation_mode="half_pixel")],
    }
