"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for the primitives of the "opswide" round (``ops/defs/randperm.py``, ...)."""
import numpy as np

from graphkiln import Tensor
from graphkiln.common import dtype as mstype

NON_DIFFERENTIABLE = {
    "RandpermV2": "random draws: integers of a permutation (MindSpore has no backward rule)",
}
CHECKED_ELSEWHERE: dict = {}
ZERO_BY_DEFINITION: dict = {}


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    return {
        "RandpermV2": [((5,), {"seed": 3}),
                       ((Tensor(np.array([4], np.int32)),), {"dtype": mstype.float16})],
    }


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - test_batching_rules' class names
    """Samples for test_batching_rules.py, built with its input markers."""
    return {}


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers."""
    return {}
