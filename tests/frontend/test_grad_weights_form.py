"""``GradOperation(get_by_list=True)`` packs the weight gradients as MindSpore 2.10 does
(``fixtures/grad_weights_programs.py``, recorded into ``ms_grad_weights.json``): a list
only for a list built in graph code; a Cell's list attribute (read as a tuple by graph
code), a ParameterTuple or a list given from Python gives a tuple; and the gradients of a
Parameter that is both an input and a weight (apart in GRAPH_MODE, summed in
PYNATIVE_MODE, as MindSpore)."""
import json
from pathlib import Path

import pytest

from graphkiln import compat

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "ms_grad_weights.json").read_text())
PROGRAMS = compat.import_mindspore_module(FIXTURES / "grad_weights_programs.py")


@pytest.mark.parametrize("mode", ["GRAPH_MODE", "PYNATIVE_MODE"], indirect=True)
@pytest.mark.parametrize("name", sorted(PROGRAMS.PROGRAMS))
def test_weight_gradients_as_in_mindspore(mode, name):
    assert PROGRAMS.run(name) == EXPECTED[mode][name]
