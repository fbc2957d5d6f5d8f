"""Tensor methods (``x.log2()``, ``x.tril()``, ``x.narrow()``, ``x.max(dim=0)``...), eagerly
and inside a Cell, give what MindSpore 2.10 gives (fixtures/tensor_methods.json, recorded by
``fixtures/record.py tensor_methods``)."""
import pytest
from recorded import MODES, check, load

CASES, RECORDED = load("tensor_methods")


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("case", CASES.CASES, ids=lambda c: c.__name__)
def test_matches_mindspore(case, mode):
    check(case, RECORDED[case.__name__][mode], mode)
