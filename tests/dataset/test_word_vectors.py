"""GloVe and FastText files read as MindSpore 2.10 reads them, names checked
(fixtures/record_word_vectors.py)."""
import json
import os

import pytest

import graphkiln.dataset.text as text

from .fixtures.word_vectors_cases import run_cases

with open(os.path.join(os.path.dirname(__file__), "fixtures",
                       "word_vectors_reference.json")) as _f:
    REFERENCE = json.load(_f)

RESULTS = run_cases(text)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_word_vectors_match_mindspore(name):
    assert RESULTS[name] == REFERENCE[name]
