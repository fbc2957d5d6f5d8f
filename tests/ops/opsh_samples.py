"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for the ``tests/st/ops`` slice every 15th file from the 6th: ``UniformCandidateSampler`` and
``LogUniformCandidateSampler`` (``ops/defs/candidate_sampler.py``, random class draws: not
differentiable; their vmap samples draw from one class, so a batched call and a loop of
calls agree); ``DeformableOffsets`` and ``DeformableOffsetsGrad``
(``ops/defs/deformable_offsets.py``; float16/float32 only, so the gradient is checked
against finite differences in float32 by tests/ops/test_wide_s15o6.py and against
MindSpore's recorded gradients by the ``api_ops_s15o6`` family; MindSpore 2.10 has no
gradient of the gradient op)."""
import numpy as np

from graphkiln import Tensor

NON_DIFFERENTIABLE = {
    "UniformCandidateSampler": "random integer class draws and their expected counts",
    "LogUniformCandidateSampler": "random integer class draws and their expected counts",
    "DeformableOffsetsGrad": "MindSpore 2.10 defines no gradient for it (no bprop is "
                             "registered for DeformableOffsetsGrad)",
}
CHECKED_ELSEWHERE = {"DeformableOffsets": "float16/float32 only (no float64 sample here): "
                                          "checked against finite differences in float32 by "
                                          "tests/ops/test_wide_s15o6.py"}
_DO = {"strides": (1, 1, 1, 1), "pads": (0, 1, 1, 0), "ksize": (2, 2)}
_DO_GRAD = {"strides": (1, 1, 1, 1), "pads": (0, 1, 1, 0), "kernel_size": (2, 2)}


def _offsets(r, *shape):
    return (r.standard_normal(shape) * 1.5).astype(np.float32)

_CLASSES = np.array([[1, 3], [0, 2], [4, 4]], np.int64)


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    return {
        "UniformCandidateSampler": [
            ((Tensor(_CLASSES),), {"num_true": 2, "num_sampled": 3, "unique": True,
                                   "range_max": 6, "seed": 2}),
            ((Tensor(_CLASSES.astype(np.int32)),),
             {"num_true": 2, "num_sampled": 4, "unique": False, "range_max": 9, "seed": 0,
              "remove_accidental_hits": True})],
        "LogUniformCandidateSampler": [
            ((Tensor(_CLASSES),), {"num_true": 2, "num_sampled": 3, "range_max": 6,
                                   "seed": 1}),
            ((Tensor(_CLASSES[:, :1]),), {"unique": False})],
        "DeformableOffsets": [((f32(2, 3, 4, 5), f32(2, 12, 4, 5)), dict(_DO))],
        "DeformableOffsetsGrad": [((f32(2, 3, 8, 10), f32(2, 3, 4, 5), f32(2, 12, 4, 5)),
                                   dict(_DO_GRAD))],
    }


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - the harness's maker names
    """Samples for test_batching_rules.py, built with its makers."""
    classes = np.array([[[0], [0]], [[0], [0]], [[0], [0]]], np.int32)
    return {
        "UniformCandidateSampler": [
            lambda r: ((B(classes),), {"num_true": 1, "num_sampled": 3, "unique": False,
                                       "range_max": 1, "seed": 3}),
            lambda r: ((B(np.zeros((3, 2, 1), np.int64)),),
                       {"num_true": 1, "num_sampled": 1, "unique": True, "range_max": 1})],
        "LogUniformCandidateSampler": [
            lambda r: ((B(classes.astype(np.int64)),), {"num_true": 1, "num_sampled": 4,
                                                        "unique": False, "range_max": 1}),
            lambda r: ((B(r.integers(0, 9, (3, 4, 2))),),
                       {"num_true": 2, "num_sampled": 3, "range_max": 7, "seed": 5})],
        "DeformableOffsets": [
            lambda r: ((B(f32(r, 3, 1, 2, 4, 5)), B(_offsets(r, 3, 1, 12, 4, 5))), dict(_DO)),
            lambda r: ((U(f32(r, 2, 2, 4, 5)), B(_offsets(r, 3, 2, 12, 4, 5))), dict(_DO))],
        "DeformableOffsetsGrad": [
            lambda r: ((B(f32(r, 3, 1, 2, 8, 10)), B(f32(r, 3, 1, 2, 4, 5)),
                        U(_offsets(r, 1, 12, 4, 5))), dict(_DO_GRAD))],
    }
