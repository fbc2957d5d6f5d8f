"""Run a cases module on graphkiln and compare with what real MindSpore recorded."""
import importlib
import json
from pathlib import Path

from encode import assert_same, encode

import graphkiln as ms

FIXTURES = Path(__file__).parent / "fixtures"
MODES = {"pynative": ms.PYNATIVE_MODE, "graph": ms.GRAPH_MODE}


def load(name: str):
    """(cases module, recorded results) for ``cases_<name>.py``."""
    cases = importlib.import_module(f"cases_{name}")
    return cases, json.loads((FIXTURES / f"{name}.json").read_text())


def check(case, want: dict, mode: str) -> None:
    """``case`` on graphkiln in ``mode`` gives MindSpore's recorded result or error (its
    type, and the case's ``phrase`` in both messages)."""
    ms.set_context(mode=MODES[mode])
    if "error" in want:
        try:
            case(ms)
        except Exception as e:  # compared with MindSpore's type and message below
            assert type(e).__name__ == want["error"], (type(e).__name__, str(e), want)
            phrase = getattr(case, "phrase", None)
            if phrase is not None:
                assert phrase in str(e) and phrase in want["message"], (str(e), want)
            return
        raise AssertionError(f"{case.__name__} did not raise {want['error']}: {want}")
    assert_same(encode(case(ms)), want, case.__name__)
