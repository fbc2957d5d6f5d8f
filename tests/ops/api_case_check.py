"""Checks shared by the ``test_api_<family>.py`` modules: each case of
``fixtures/api_<family>_cases.py`` gives MindSpore's recorded dtypes, values and error types
(``fixtures/api_<family>.json``, by ``fixtures/record_api_cases.py``), and the same results
under ``@jit`` (GRAPH) as in PyNative.

A cases module may also define ``RTOL`` (name -> relative tolerance, with the reason in a
comment), ``NUMPY`` (name -> ``fn(*arrays)``): the NumPy reference of a case MindSpore
2.10 CPU cannot run (its recording is the error that says so, checked here), and
``PYNATIVE_ONLY`` (name -> why the case has no graph form)."""
import importlib
import json
import os
import sys
from types import SimpleNamespace

import numpy as np

import graphkiln as ms

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from api_outcome import outcome, run_case  # noqa: E402

# float16 results agree to about one unit in the last place
_HALF_RTOL = 2e-3


def load(family: str) -> SimpleNamespace:
    """The family's ``cases``, ``recorded`` outcomes, ``rtol`` and ``numpy`` references."""
    module = importlib.import_module(f"api_{family}_cases")
    with open(os.path.join(FIXTURES, f"api_{family}.json")) as f:
        recorded = json.load(f)
    return SimpleNamespace(cases=module.CASES, recorded=recorded,
                           rtol=getattr(module, "RTOL", {}), numpy=getattr(module, "NUMPY", {}),
                           pynative_only=getattr(module, "PYNATIVE_ONLY", {}))


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
        tol = max(rtol, _HALF_RTOL) if w[0] in ("Float16", "Complex32") else rtol
        for gv, wv in zip(g[1:], w[1:]):
            np.testing.assert_allclose(_values(gv), _values(wv), rtol=tol, atol=max(atol, tol))


def check_recorded(fam: SimpleNamespace, name: str) -> None:
    """graphkiln (PyNative) gives what MindSpore recorded for case ``name`` (or, for a case
    MindSpore's CPU cannot run, what NumPy gives)."""
    got = run_case(ms, fam.cases[name])
    if name in fam.numpy:
        assert fam.recorded[name][0] == "error", "MindSpore can run it now"
        ref = fam.numpy[name](*fam.cases[name][1])
        refs = ref if isinstance(ref, tuple) else (ref,)
        assert got[0] != "error", got
        assert len(got) == len(refs)
        for g, r in zip(got, refs):
            np.testing.assert_allclose(_values(g[1]), r, rtol=1e-5, atol=1e-5)
        return
    assert_same(got, fam.recorded[name], rtol=fam.rtol.get(name, 1e-5))


def check_graph(fam: SimpleNamespace, name: str) -> None:
    """Case ``name`` gives the same under ``@jit`` as in PyNative."""
    fn, arrays = fam.cases[name]
    tensors = [ms.Tensor(a) for a in arrays]
    eager = outcome(lambda: fn(ms, *tensors))
    graph = outcome(lambda: ms.jit(lambda *a: fn(ms, *a))(*tensors))
    assert_same(graph, eager, rtol=1e-6, atol=1e-7)
