"""Runtime memory/executor settings, set_algo_parameters, legacy primitive names and the
optimizer's parallel flags give what MindSpore 2.10 gives (fixtures/settings.json,
recorded by ``fixtures/record.py settings``)."""
import pytest
from recorded import MODES, check, load

from graphkiln.runtime import memory

CASES, RECORDED = load("settings")


@pytest.fixture(autouse=True)
def _memory_not_configured(monkeypatch):
    """``set_memory`` works once per process; every case starts unconfigured, as the
    recording did for all but the case that configures it twice."""
    monkeypatch.setattr(memory, "_configured", {})


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("case", CASES.CASES, ids=lambda c: c.__name__)
def test_matches_mindspore(case, mode):
    check(case, RECORDED[case.__name__][mode], mode)
