"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for ``ListDiff`` (``ops/defs/data_dependent.py``), ``SparseTensorToCSRSparseMatrix``
(``ops/defs/sparse_coo.py``), ``TruncatedNormal``/``ParameterizedTruncatedNormal``
(``ops/defs/random.py``) and ``MatrixDiagV3``/``MatrixDiagPartV3``/``MatrixSetDiagV3``
(``ops/defs/matrix_diag.py``)."""
import numpy as np

from graphkiln import Tensor, float16, int64

NON_DIFFERENTIABLE = {"ListDiff": "a selection of values and integer positions (MindSpore has "
                                  "no backward rule either)",
                      **{name: "random draws (nothing to differentiate)"
                         for name in ("TruncatedNormal", "ParameterizedTruncatedNormal")}}
# padding_value: MindSpore's backward rules give it a zero cotangent (tests/ops/fixtures/
# api_leftover_prims_cases.py records that)
ZERO_BY_DEFINITION = {"MatrixDiagV3": (1,), "MatrixDiagPartV3": (1,)}  # (leaf positions)
NO_FLOAT16 = {"SparseTensorToCSRSparseMatrix"}  # (float32/64 and complex values only)


def _i32(*values):
    return Tensor(np.array(values if len(values) > 1 else values[0], np.int32))


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    ints = Tensor(np.array([4, 1, 3, 1, 7], np.int32))
    return {
        "ListDiff": [((ints, Tensor(np.array([1, 5], np.int32))), {}),
                     ((f32(4), f32(2)), {"out_idx": int64})],
        "SparseTensorToCSRSparseMatrix": [
            ((Tensor(np.array([[0, 1], [1, 0], [1, 2]], np.int64)), f32(3),
              Tensor(np.array([2, 3], np.int64))), {}),
            ((Tensor(np.array([[0, 0, 1], [1, 2, 0]], np.int32)), f32(2),
              Tensor(np.array([2, 3, 3], np.int32))), {})],
        "MatrixDiagV3": [
            ((f32(2, 3), _i32(-1, 0), _i32(-1), _i32(-1), Tensor(np.float32(0))), {}),
            ((f32(3), _i32(1), _i32(5), _i32(4), Tensor(np.float32(9))),
             {"align": "LEFT_RIGHT"})],
        "MatrixDiagPartV3": [
            ((f32(3, 4), _i32(-1, 2), Tensor(np.float32(0.5))), {}),
            ((f32(2, 3, 4), _i32(1), Tensor(np.float32(0))), {"align": "LEFT_LEFT"})],
        "MatrixSetDiagV3": [
            ((f32(3, 4), f32(3, 3), _i32(-1, 1)), {"align": "LEFT_RIGHT"}),
            ((f32(2, 3, 4), f32(2, 3), _i32(0)), {})],
    }


def _shape(*dims):
    return Tensor(np.array(dims, np.int64))


def random_registry_samples(f32) -> dict:
    """Samples of the truncated normals (``ops/defs/random.py``) for test_registry.py."""
    one = Tensor(np.float32(1))
    return {
        "TruncatedNormal": [((_shape(2, 3),), {"seed": 1, "seed2": 2}),
                            ((_shape(4, 1, 2),), {"dtype": float16})],
        "ParameterizedTruncatedNormal": [
            ((_shape(2, 3), Tensor(np.float32([0, 1])), one, Tensor(np.float32([-1, 0])),
              Tensor(np.float32([1, 3]))), {"seed": 3}),
            ((_shape(1, 4), Tensor(np.float64(0)), Tensor(np.float64(1)),
              Tensor(np.float64(2.5)), Tensor(np.float64(6))), {})],
    }


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - the harness's maker names
    """Samples for test_batching_rules.py, built with its makers (``k`` and the sizes
    unbatched, or batched: example by example)."""
    k2, k1 = U(np.array([-1, 1], np.int32)), U(np.array(0, np.int32))
    pad, neg = U(np.float32(0.5)), U(np.int32(-1))
    return {
        "MatrixDiagV3": [
            lambda r: ((B(f32(r, 3, 3, 2)), k2, neg, neg, pad), {"align": "LEFT_RIGHT"}),
            lambda r: ((B(f32(r, 3, 2, 3)), k1, U(np.int32(4)), neg, B(f32(r, 3))), {})],
        "MatrixDiagPartV3": [
            lambda r: ((B(f32(r, 3, 3, 4)), k2, pad), {}),
            lambda r: ((U(f32(r, 2, 3, 4)), k1, B(f32(r, 3))), {"align": "LEFT_LEFT"})],
        "MatrixSetDiagV3": [
            lambda r: ((B(f32(r, 3, 3, 4)), B(f32(r, 3, 3, 3)), k2), {}),
            lambda r: ((U(f32(r, 2, 3, 4)), B(f32(r, 3, 2, 3)), k1), {"align": "RIGHT_RIGHT"}),
            lambda r: ((B(f32(r, 3, 3, 4)), U(f32(r, 3)), k1), {})],
    }


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers (int inputs are constants)."""
    def i32(*values):
        return lambda r: np.array(values if len(values) > 1 else values[0], np.int32)
    return {
        "SparseTensorToCSRSparseMatrix": [
            s(lambda r: np.array([[0, 1], [1, 0], [1, 2]], np.int64), n(3),
              lambda r: np.array([2, 3], np.int64))],
        "MatrixDiagV3": [s(n(2, 3), i32(-1, 0), i32(-1), i32(-1), n()),
                         s(n(3), i32(1), i32(5), i32(4), n(), align="LEFT_RIGHT")],
        "MatrixDiagPartV3": [s(n(3, 4), i32(-1, 2), n()),
                             s(n(2, 3, 4), i32(1), n(), align="LEFT_LEFT")],
        "MatrixSetDiagV3": [s(n(3, 4), n(3, 3), i32(-1, 1), align="LEFT_RIGHT"),
                            s(n(2, 3, 4), n(2, 3), i32(0))],
    }
