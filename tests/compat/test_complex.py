"""Complex tensors give what MindSpore 2.10 gives (fixtures/complex.json, recorded by
``fixtures/record.py complex``), in both modes: values, printed text, dtypes, gradients."""
import pytest
from recorded import MODES, check, load

CASES, RECORDED = load("complex")


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("case", CASES.CASES, ids=lambda c: c.__name__)
def test_matches_mindspore(case, mode):
    check(case, RECORDED[case.__name__][mode], mode)
