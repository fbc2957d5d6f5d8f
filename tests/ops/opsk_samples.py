"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for ``AddV2`` (``ops/defs/math.py``), ``RGBToHSV`` (``ops/defs/image.py``) and
``SparseCountSparseOutput`` (``ops/defs/sparse_count.py``) , ``ExtractVolumePatches``
(``ops/defs/volume_patches.py``) and ``NoRepeatNGram`` (``ops/defs/no_repeat_ngram.py``)."""
import numpy as np

from graphkiln import Tensor

NON_DIFFERENTIABLE = {"RGBToHSV": "MindSpore 2.10 defines no backward for it",
                      "NoRepeatNGram": "a mask of banned tokens over log-probabilities "
                                       "(MindSpore defines no backward for it)",
                      "SparseCountSparseOutput": "counts of integer values (MindSpore defines "
                                                 "no backward for it)"}

_RGB = np.array([[0.25, 0.5, 0.5], [1, 0, 0], [0, 0, 0], [0.9, 0.1, 0.5], [0.1, 0.9, 0.3],
                 [0.3, 0.1, 0.9]], np.float32)


_SEQ = np.array([[[1, 2, 1, 2, 5, 1, 2], [9, 3, 9, 5, 4, 1, 5]],
                 [[7, 7, 2, 7, 9, 9, 4], [4, 8, 8, 4, 3, 4, 8]]], np.int32)
_PATCHES_SAME = {"kernel_size": (1, 1, 2, 1, 2), "strides": (1, 1, 2, 1, 1), "padding": "SAME"}
_PATCHES_VALID = {"kernel_size": 2, "strides": 1, "padding": "VALID"}


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    ints = Tensor(np.array([[1, -2, 3]], np.int8))
    vol = Tensor(np.arange(54, dtype=np.int32).reshape(1, 2, 3, 3, 3))
    return {"NoRepeatNGram": [((Tensor(_SEQ), f32(2, 2, 10)), {"ngram_size": 3}),
                              ((Tensor(_SEQ[:1]), Tensor(np.zeros((1, 2, 10), np.float16))),
                               {"ngram_size": 1})],
            "ExtractVolumePatches": [((f32(2, 2, 3, 3, 3),), _PATCHES_SAME),
                                     ((vol,), _PATCHES_VALID)],
            "AddV2": [((f32(2, 3), f32(2, 3)), {}), ((ints, Tensor(np.ones((1, 3), np.int32))),
                                                     {})],
            "RGBToHSV": [((Tensor(_RGB),), {}), ((Tensor(_RGB.astype(np.float16)),), {}),
                         ((Tensor(_RGB.reshape(2, 3, 3).astype(np.float64)),), {})],
            "SparseCountSparseOutput": [
                ((Tensor(np.array([[0, 1], [2, 0], [0, 0]], np.int64)),
                  Tensor(np.array([3, 1, 3], np.int64)), Tensor(np.array([3, 2], np.int64)),
                  Tensor(np.array([0.5, 2.0, 1.0], np.float32))), {}),
                ((Tensor(np.array([[0], [2]], np.int64)), Tensor(np.array([3, 1], np.int32)),
                  Tensor(np.array([3], np.int64)), Tensor(np.zeros(0, np.int64))),
                 {"binary_output": True, "maxlength": 2})]}


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - the harness's maker names
    """Samples for test_batching_rules.py, built with its makers."""
    return {"ExtractVolumePatches": [lambda r: ((B(f32(r, 3, 1, 2, 3, 3, 2)),), _PATCHES_SAME)],
            "NoRepeatNGram": [lambda r: ((B(Tensor(np.stack([_SEQ, _SEQ[::-1], _SEQ % 3]))),
                                          B(f32(r, 3, 2, 2, 10))), {"ngram_size": 2}),
                              lambda r: ((U(Tensor(_SEQ)), B(f32(r, 3, 2, 2, 10))),
                                         {"ngram_size": 3})],
            "AddV2": [lambda r: ((B(f32(r, 3, 4)), B(f32(r, 3, 4))), {}),
                      lambda r: ((U(f32(r, 4)), B(f32(r, 3, 4))), {}),
                      lambda r: ((B(f32(r, 3, 4)), U(f32(r, 4))), {})],
            "RGBToHSV": [lambda r: ((B(f32(r, 3, 2, 3, lo=-1.0, hi=2.0)),), {})]}


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers."""
    return {"AddV2": [s(n(2, 3), n(2, 3))],
            "ExtractVolumePatches": [s(n(1, 2, 3, 3, 3), **_PATCHES_SAME),
                                     s(n(2, 1, 3, 2, 3), **_PATCHES_VALID)]}
