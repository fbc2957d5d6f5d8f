"""Dataset.save against MindSpore 2.10 (fixtures/record_save.py): the same schema, index and
rows as MindSpore's own save, and MindSpore reads graphkiln's files back the same."""
import json
import os

import numpy as np
import pytest

import graphkiln.dataset as ds

from .fixtures.save_cases import describe, pipelines

with open(os.path.join(os.path.dirname(__file__), "fixtures", "save_reference.json")) as _f:
    REFERENCE = json.load(_f)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_save_matches_mindspore(name, tmp_path):
    data, num_files = pipelines(ds)[name]
    path = str(tmp_path / "out.mindrecord")
    data.save(path, num_files)
    assert describe(ds, path, num_files) == REFERENCE[name]["mindspore"]
    # recorded: MindSpore read graphkiln's file and saw what it saw in its own
    assert REFERENCE[name]["graphkiln"] == REFERENCE[name]["mindspore"]


def test_save_errors(tmp_path):
    data = ds.NumpySlicesDataset({"x": np.arange(3)}, shuffle=False)
    path = str(tmp_path / "x.mindrecord")
    data.save(path)
    with pytest.raises(RuntimeError, match="already exist"):
        data.save(path)
    with pytest.raises(ValueError, match="num_files"):
        data.save(str(tmp_path / "y.mindrecord"), num_files=0)
    with pytest.raises(ValueError, match="tfrecord dataset format is not supported"):
        data.save(str(tmp_path / "z.mindrecord"), file_type="tfrecord")
    strings = ds.NumpySlicesDataset({"s": np.array([["a", "b"], ["c", "d"]])}, shuffle=False)
    with pytest.raises(RuntimeError, match="multi-dimensional string"):
        strings.save(str(tmp_path / "s.mindrecord"))
    assert not os.path.exists(tmp_path / "s.mindrecord")
