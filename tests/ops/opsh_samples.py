"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for the ``tests/st/ops`` slice every 15th file from the 6th: ``UniformCandidateSampler`` and
``LogUniformCandidateSampler`` (``ops/defs/candidate_sampler.py``, random class draws: not
differentiable; their vmap samples draw from one class, so a batched call and a loop of
calls agree)."""
import numpy as np

from graphkiln import Tensor

NON_DIFFERENTIABLE = {
    "UniformCandidateSampler": "random integer class draws and their expected counts",
    "LogUniformCandidateSampler": "random integer class draws and their expected counts",
}

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
    }
