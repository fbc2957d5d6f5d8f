"""``ms.grad``/``GradOperation`` return shapes and errors in edge cases give what MindSpore
2.10 gives (fixtures/grad_returns.json, recorded by ``fixtures/record.py grad_returns``),
in both modes."""
import pytest
from recorded import MODES, check, load

CASES, RECORDED = load("grad_returns")


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("case", CASES.CASES, ids=lambda c: c.__name__)
def test_matches_mindspore(case, mode):
    check(case, RECORDED[case.__name__][mode], mode)
