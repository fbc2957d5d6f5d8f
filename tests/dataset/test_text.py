"""``dataset.text`` against MindSpore 2.10's results on the same cases
(fixtures/record_text.py): op outputs through ``Dataset.map`` (tokens, ids, dtypes, shapes),
vocabulary orders, queries and error types."""
import json
import os
import re

import numpy as np
import pytest

import graphkiln as ms
import graphkiln.dataset as ds
import graphkiln.dataset.text as text
import graphkiln.dataset.transforms as transforms
from graphkiln.dataset.text.patterns import engine

from .fixtures import text_cases as tc

with open(os.path.join(os.path.dirname(__file__), "fixtures", "text_reference.json"),
          encoding="utf-8") as _f:
    REFERENCE = json.load(_f)


@pytest.mark.parametrize("name", sorted(REFERENCE["ops"]))
def test_op_matches_mindspore(name):
    if name.endswith("_icu") and engine() is re:
        pytest.skip("ICU-style patterns (\\p{...}) need the optional 'regex' package")
    case = tc.op_cases(ds, text, ms)[name]
    assert tc.outcome(lambda: tc.run_case(ds, case)) == REFERENCE["ops"][name]


@pytest.mark.parametrize("max_length", sorted(REFERENCE["pair"]))
def test_truncate_sequence_pair(max_length):
    assert tc.pair_rows(ds, text, int(max_length)) == REFERENCE["pair"][max_length]


@pytest.mark.parametrize("name", sorted(REFERENCE["vocab"]))
def test_vocab_matches_mindspore(name, tmp_path):
    build = tc.vocab_cases(ds, text, str(tmp_path / "v.txt"))[name]
    assert tc.outcome(build) == REFERENCE["vocab"][name]


@pytest.mark.parametrize("name", sorted(REFERENCE["vectors"]))
def test_vectors_match_mindspore(name, tmp_path):
    build = tc.vectors_cases(ds, text, str(tmp_path / "vec.txt"))[name]
    assert tc.outcome(build) == REFERENCE["vectors"][name]


def test_vocab_queries():
    assert tc.vocab_queries(text) == REFERENCE["queries"]


@pytest.mark.parametrize("name", sorted(REFERENCE["eager"]))
def test_eager_call(name):
    assert tc.eager_results(text, ms)[name] == REFERENCE["eager"][name]


@pytest.mark.parametrize("name", sorted(REFERENCE["errors"]))
def test_error_types(name):
    assert tc.error_type(tc.ERROR_CASES[name], ds, text, ms) == REFERENCE["errors"][name]


def test_lookup_pipeline_as_mindspore():
    """The brief's program; MindSpore 2.10 printed these values."""
    sentences = ["the cat sat", "a dog ran far", "the dog sat down", "cats and dogs"]
    data = ds.NumpySlicesDataset({"text": np.array(sentences)}, shuffle=False)
    data = data.map(text.WhitespaceTokenizer(), input_columns="text")
    vocab = text.Vocab.from_list(["<pad>", "<unk>", "the", "cat", "dog", "sat", "ran", "a"],
                                 special_tokens=None, special_first=False)
    assert (len(vocab.vocab()), vocab.tokens_to_ids(["the", "dog", "zebra"])) == \
        (8, [2, 4, -1])
    data = data.map(text.Lookup(vocab, unknown_token="<unk>"), input_columns="text")
    data = data.map(transforms.PadEnd([5], pad_value=0), input_columns="text")
    rows = [r["text"].tolist() for r in data.create_dict_iterator(output_numpy=True)]
    assert rows == [[2, 3, 5, 0, 0], [7, 4, 6, 1, 0], [2, 4, 5, 1, 0], [1, 1, 1, 0, 0]]
    tokens = ds.NumpySlicesDataset({"t": np.array(sentences)}, shuffle=False).map(
        text.WhitespaceTokenizer(), input_columns="t")
    v2 = text.Vocab.from_dataset(tokens, columns=["t"], top_k=5, special_tokens=["<pad>"])
    assert sorted(v2.vocab().items()) == [("<pad>", 0), ("a", 4), ("and", 5), ("dog", 1),
                                          ("sat", 2), ("the", 3)]


def test_to_str_to_bytes_round_trip():
    words = np.array(["héllo", "cat"])
    as_bytes = text.to_bytes(words)
    assert as_bytes.dtype.kind == "S" and as_bytes.tolist() == [w.encode() for w in words]
    assert text.to_str(as_bytes).tolist() == words.tolist()
