"""Tril, Triu, MatrixDiag, MatrixDiagPart, MatrixSetDiag, Moments, MatDet, MatInverse,
ReduceLogSumExp and LBeta against MindSpore 2.10 (fixtures/record_layer_breadth.py; the
ones MindSpore's CPU build cannot run against NumPy), in PYNATIVE and GRAPH mode,
gradients against MindSpore's and finite differences, and argument errors."""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures"))
from breadth_check import MODES, Family  # noqa: E402
from layer_breadth_cases import math, matrix  # noqa: E402

MATRIX = Family("layer_breadth", matrix)
MATH = Family("layer_breadth", math)


def _set_diag(x, d):
    out = x.copy()
    k = min(x.shape[-2:])
    out[..., range(k), range(k)] = d
    return out


REFS = {
    "matrix_diag": lambda x: x[..., None] * np.eye(x.shape[-1], dtype=x.dtype),
    "matrix_diag_1d": lambda x: np.diag(x),
    "matrix_diag_part": lambda x: np.diagonal(x, 0, -2, -1),
    "matrix_set_diag": _set_diag,
    "matdet": lambda a: np.linalg.det(a.astype(np.float64)),
    "matinverse": lambda a: np.linalg.inv(a.astype(np.float64)),
}
CASES = [(MATRIX, n) for n in sorted(MATRIX.cases)] + [(MATH, n) for n in sorted(MATH.cases)]
IDS = [n for _, n in CASES]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("family,name", CASES, ids=IDS)
def test_value_matches_mindspore(family, name, mode):
    family.check_value(name, mode, REFS, rtol=2e-5)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["tril", "tril_k", "triu_k"])
def test_matrix_gradient_matches_mindspore(name, mode):
    MATRIX.check_grad(name, mode)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["moments_all", "moments_axis", "logsumexp", "lbeta"])
def test_math_gradient_matches_mindspore(name, mode):
    MATH.check_grad(name, mode)


@pytest.mark.parametrize("name,position", [
    ("matrix_set_diag", 0), ("matrix_set_diag", 1), ("matrix_diag_part", 0)])
def test_matrix_gradient_matches_finite_differences(name, position):
    MATRIX.check_finite_differences(name, position)


@pytest.mark.parametrize("name,position", [
    ("matdet", 0), ("matinverse", 0), ("moments_tuple", 0), ("lbeta", 1)])
def test_math_gradient_matches_finite_differences(name, position):
    MATH.check_finite_differences(name, position, float32=True)


@pytest.mark.parametrize("family,name", [(MATRIX, n) for n in MATRIX.error_names()] +
                         [(MATH, n) for n in MATH.error_names()],
                         ids=MATRIX.error_names() + MATH.error_names())
def test_errors_have_mindspore_types(family, name):
    family.check_error(name)
