"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for the primitives of ``mindspore.scipy``: SolveTriangular, Eigh, LU, LinearSumAssignment,
DCTN."""
import numpy as np

from graphkiln import Tensor
from graphkiln.common import dtype as mstype

NON_DIFFERENTIABLE = {
    "LU": "MindSpore defines no backward for it",
    "LinearSumAssignment": "integer indices of a matching (MindSpore has no backward rule)",
}
NO_FLOAT16 = {"Eigh", "LstsqV2"}  # float32/float64/complex only, as MindSpore's
_TRI = np.array([[2.0, 0.5, -1.0], [0.3, 1.5, 0.7], [-0.4, 0.2, 3.0]], np.float32)
_COST = np.array([[2, 3, 3], [3, 2, 3], [3, 3, 2]], np.float32)


def _well_conditioned(*shape):
    """A maker: normal values plus 3 on the diagonal (the triangles stay invertible)."""
    return lambda r: r.standard_normal(shape) + 3 * np.eye(shape[-2], shape[-1])


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    return {
        "SolveTriangular": [((Tensor(_TRI), f32(3)), {}),
                            ((Tensor(_TRI), f32(3, 2)), {"trans": 1, "lower": True}),
                            ((Tensor(np.stack([_TRI, _TRI.T])), f32(2, 3, 4)),
                             {"trans": 2, "unit_diagonal": True}),
                            ((Tensor(_TRI.astype(np.int32)), Tensor(np.ones(3, np.int32))), {})],
        "Eigh": [((Tensor(_TRI),), {}), ((Tensor(_TRI.astype(np.float64)),),
                                         {"compute_eigenvectors": False, "lower": False}),
                 ((Tensor((_TRI + 1j * _TRI.T).astype(np.complex64)),), {})],
        "LU": [((Tensor(_TRI),), {}), ((f32(2, 3, 4),), {}), ((f32(4, 2).astype(mstype.float64),),
                                                            {})],
        "DCTN": [((f32(3, 4),), {"sizes": (4,), "axes": (1,)}),
                 ((f32(2, 3, 4).astype(mstype.float64),), {"sizes": (5, 2), "axes": (0, 2),
                                                          "inverse": True}),
                 ((f32(3, 4), (2,), (0,)), {})],
        "LstsqV2": [((f32(4, 3) + Tensor(np.eye(4, 3, dtype=np.float32)), f32(4, 2)), {}),
                    ((f32(2, 4, 3), f32(4)), {"driver": "gelsd"}),
                    ((f32(3, 4).astype(mstype.float64), f32(3, 2).astype(mstype.float64)),
                     {"driver": "gels"})],
        "LinearSumAssignment": [((Tensor(_COST), Tensor(np.int64(2)), False), {}),
                                ((f32(4, 3), Tensor(np.int64(9)), True), {})],
    }


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - test_batching_rules' class names
    """Samples for test_batching_rules.py, built with its input markers."""
    return {
        "SolveTriangular": [lambda r: ((B(f32(r, 3, 3, 3) + 3 * np.eye(3, dtype=np.float32)),
                                        B(f32(r, 3, 3))), {"lower": True}),
                            lambda r: ((U(_TRI), B(f32(r, 3, 3, 2))), {"trans": 1})],
        "Eigh": [lambda r: ((B(f32(r, 3, 3, 3)),), {}),
                 lambda r: ((B(f32(r, 3, 2, 2)),), {"compute_eigenvectors": False})],
        "LU": [lambda r: ((B(f32(r, 3, 3, 4)),), {})],
        "LstsqV2": [lambda r: ((B(f32(r, 3, 4, 2)), B(f32(r, 3, 4, 2))), {"driver": "gelsd"}),
                    lambda r: ((U(f32(r, 4, 2)), B(f32(r, 3, 4))), {})],
        "DCTN": [lambda r: ((B(f32(r, 3, 2, 4)),), {"sizes": (3,), "axes": (1,)})],
        "LinearSumAssignment": [lambda r: ((B(f32(r, 3, 3, 4)), U(np.int64(3)), False), {})],
    }


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers."""
    return {
        "SolveTriangular": [s(_well_conditioned(3, 3), n(3)),
                            s(_well_conditioned(3, 3), n(3, 2), trans=1, lower=True),
                            s(_well_conditioned(2, 3, 3), n(2, 3, 2), trans=2,
                              unit_diagonal=True)],
        "DCTN": [s(n(2, 3), sizes=(4,), axes=(1,)),
                 s(n(3, 4), sizes=(2, 5), axes=(0, 1), inverse=True)],
        "LstsqV2": [s(_well_conditioned(4, 3), n(4, 2)), s(_well_conditioned(4, 3), n(4)),
                    s(_well_conditioned(2, 5, 3), n(2, 5, 2), driver="gelsd")],
        "Eigh": [s(n(3, 3)), s(n(4, 4), lower=False),
                 s(n(3, 3), compute_eigenvectors=False)],
    }
