"""Every optimizer checkpoints the same state, under the same names and shapes, as MindSpore
2.10 (recorded by fixtures/record_optimizer_state_names.py), so a training checkpoint resumes
on either side. Hyper-parameters (Adam's betas, RMSProp's decay) are constants, not state."""
import json
import sys
from pathlib import Path

import pytest

from graphkiln import nn

FIXTURES = Path(__file__).with_name("fixtures")
sys.path.insert(0, str(FIXTURES))
import record_optimizer_state_names as recorder  # noqa: E402

EXPECTED = json.loads((FIXTURES / "optimizer_state_names.json").read_text())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_state_names_match_mindspore(name):
    assert recorder.names(nn)[name] == EXPECTED[name]
