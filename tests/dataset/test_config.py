"""``dataset.config`` settings: MindSpore 2.10's defaults, values and errors
(fixtures/record_config.py)."""
import json
import os

import pytest

import graphkiln.dataset as ds

from .fixtures.config_cases import run_cases

with open(os.path.join(os.path.dirname(__file__), "fixtures", "config_reference.json")) as _f:
    REFERENCE = json.load(_f)

RESULTS = run_cases(ds)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_config_matches_mindspore(name):
    assert RESULTS[name] == REFERENCE[name]


def test_autotune_file_needs_an_existing_folder(tmp_path):
    """MindSpore 2.10 refuses (RuntimeError, the text of its pipeline error) a
    ``filepath_prefix`` in a missing folder or naming a folder (its autotune tutorial's
    "/path/to/autotune_out"); ``enable=False`` checks nothing."""
    with pytest.raises(RuntimeError, match="Directory <.*missing> does not exist"):
        ds.config.set_enable_autotune(True, str(tmp_path / "missing" / "out"))
    with pytest.raises(RuntimeError, match="is a directory, not filename"):
        ds.config.set_enable_autotune(True, str(tmp_path))
    ds.config.set_enable_autotune(False, str(tmp_path / "missing" / "out"))
    ds.config.set_enable_autotune(True, str(tmp_path / "out"))
    assert ds.config.get_enable_autotune()
    ds.config.set_enable_autotune(False)
