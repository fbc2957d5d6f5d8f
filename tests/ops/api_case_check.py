"""Checks shared by the ``test_api_<family>.py`` modules: each case of
``fixtures/api_<family>_cases.py`` gives MindSpore's recorded dtypes, values and error types
(``fixtures/api_<family>.json``, by ``fixtures/record_api_cases.py``), and the same results
under ``@jit`` (GRAPH) as in PyNative."""
import importlib
import json
import os
import sys

import numpy as np

import graphkiln as ms

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from api_outcome import outcome, run_case  # noqa: E402


def load(family: str) -> tuple:
    """``(cases, recorded)`` of one family."""
    cases = importlib.import_module(f"api_{family}_cases").CASES
    with open(os.path.join(FIXTURES, f"api_{family}.json")) as f:
        return cases, json.load(f)


def _values(v) -> np.ndarray:
    return np.array(v, dtype=object).astype(np.float64)


def assert_same(got: list, want: list, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """Two outcomes agree: the same error type, or the same dtypes and close values."""
    if want[0] == "error" or got[0] == "error":
        assert got == want
        return
    assert [g[0] for g in got] == [w[0] for w in want]
    for g, w in zip(got, want):
        assert len(g) == len(w)
        for gv, wv in zip(g[1:], w[1:]):
            np.testing.assert_allclose(_values(gv), _values(wv), rtol=rtol, atol=atol)


def check_recorded(cases: dict, recorded: dict, name: str, rtol: float = 1e-5) -> None:
    """graphkiln (PyNative) gives what MindSpore recorded for case ``name``."""
    assert_same(run_case(ms, cases[name]), recorded[name], rtol=rtol)


def check_graph(cases: dict, name: str) -> None:
    """Case ``name`` gives the same under ``@jit`` as in PyNative."""
    fn, arrays = cases[name]
    tensors = [ms.Tensor(a) for a in arrays]
    eager = outcome(lambda: fn(ms, *tensors))
    graph = outcome(lambda: ms.jit(lambda *a: fn(ms, *a))(*tensors))
    assert_same(graph, eager, rtol=1e-6, atol=1e-7)
