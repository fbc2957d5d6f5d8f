"""``ops.interpolate`` in every mode gives what MindSpore 2.10 gives, values, gradients and
errors (fixtures/interpolate.json, recorded by ``fixtures/record.py interpolate``)."""
import pytest
from recorded import MODES, check, load

CASES, RECORDED = load("interpolate")


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("case", CASES.CASES, ids=lambda c: c.__name__)
def test_matches_mindspore(case, mode):
    check(case, RECORDED[case.__name__][mode], mode)
