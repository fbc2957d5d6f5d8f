"""Vision ops on PIL images give what MindSpore 2.10 gave (``fixtures/pil_input_cases.py``,
recorded by ``fixtures/record_pil_input.py``): a PIL image from MindSpore's Python
implementations (MindSpore's eager-mode data tutorial pads a PIL image)."""
import json
import os

import pytest
from PIL import Image

import graphkiln.dataset.vision as vision

from .fixtures.pil_input_cases import run_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "pil_input_reference.json")) as f:
    RECORDED = json.load(f)
OUTCOMES = run_cases(vision, Image)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_as_mindspore(name):
    assert OUTCOMES[name] == RECORDED[name]
