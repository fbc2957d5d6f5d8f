"""MindSpore's module layout, ``mindspore.numpy``, HyperMap, jit of a Cell and op errors give
what MindSpore 2.10 gives (fixtures/api.json, recorded by ``fixtures/record.py api``)."""
import pytest
from recorded import MODES, check, load

CASES, RECORDED = load("api")

# MindSpore's PyNative HyperMap zips mismatched sequences silently; graphkiln raises the
# error MindSpore raises in graph mode, in both modes (a deliberate difference)
GRAPH_ERROR_IN_BOTH = {"hyper_map_tuple_and_list", "hyper_map_tuple_lengths",
                       "hyper_map_list_lengths"}


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("case", CASES.CASES, ids=lambda c: c.__name__)
def test_matches_mindspore(case, mode):
    recorded = RECORDED[case.__name__]
    want = recorded["graph"] if case.__name__ in GRAPH_ERROR_IN_BOTH else recorded[mode]
    check(case, want, mode)
