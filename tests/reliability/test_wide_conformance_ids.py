"""bench/wide_conformance.py matches a baseline recorded under NumPy 1 (MindSpore's venv)
with a run under NumPy 2: only the spelling of ``numpy.bool_`` in parameter ids differs."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))

from wide_conformance import canonical  # noqa: E402


def test_numpy_1_bool_parameter_ids_match_numpy_2():
    assert canonical("t.py::test_cast[bool_-float32]") == "t.py::test_cast[bool-float32]"
    assert canonical("t.py::test_x[dtype2-bool_]") == "t.py::test_x[dtype2-bool]"
    assert canonical("t.py::test_bool_tensor[bool_]") == "t.py::test_bool_tensor[bool]"
    assert canonical("t.py::test_bool_[int32]") == "t.py::test_bool_[int32]"  # a name
