"""``mindspore.mint`` functions and layers, eagerly and inside a Cell, give what MindSpore
2.10 gives (fixtures/mint.json, recorded by ``fixtures/record.py mint``)."""
import pytest
from recorded import MODES, check, load

CASES, RECORDED = load("mint")


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("case", CASES.CASES, ids=lambda c: c.__name__)
def test_matches_mindspore(case, mode):
    check(case, RECORDED[case.__name__][mode], mode)
