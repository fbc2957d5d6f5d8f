"""jacfwd/jacrev/jet/derivative/linearize give what MindSpore 2.10 gives
(fixtures/grad_transforms.json, recorded by ``fixtures/record.py grad_transforms``), in both
modes: results, structures (tuples, nested tuples, lists) and errors."""
import pytest
from recorded import MODES, check, load

CASES, RECORDED = load("grad_transforms")


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("case", CASES.CASES, ids=lambda c: c.__name__)
def test_matches_mindspore(case, mode):
    check(case, RECORDED[case.__name__][mode], mode)
