"""The pipeline: stage records, IR dumps with save_graphs, and the printer's format."""
import os

import numpy as np

import graphkiln as ms


@ms.jit
def small(x, y):
    return x * y + x * y


def test_every_stage_is_recorded_with_counts():
    small(ms.Tensor(np.array([1.0])), ms.Tensor(np.array([2.0])))
    info = ms.compile_info(small)
    names = [r.name for r in info.records]
    assert names[0] == "parse" and "cse" in names
    assert names[-4:] == ["load_elim", "sibling_merge", "fusion", "validate"]
    assert info.stage("parse").cnodes > info.stage("cse").cnodes
    assert all(r.seconds >= 0 for r in info.records)


def test_save_graphs_writes_one_file_per_stage(tmp_path):
    ms.set_context(save_graphs=True, save_graphs_path=str(tmp_path))

    @ms.jit
    def f(x):
        return x + 1

    f(ms.Tensor(np.array([1.0])))
    files = sorted(os.listdir(tmp_path))
    assert files[0] == "00_parse_0000.ir" and any("_cse_" in n for n in files)
    # the last file is the graph code generation gets, under MindSpore's name for it
    assert files[-1].endswith("_validate_0000.ir")
    assert (tmp_path / files[-1]).read_text() == (tmp_path / files[-2]).read_text()
    text = (tmp_path / files[0]).read_text()
    assert text.startswith("# IR entry: @f\n# Total subgraphs: 1\n# Total params: 1\n")
    assert "%para1_x : <Tensor[Float64], (1)>" in text
    assert "Return(" in text and "# In file " in text
    assert "Total number of cnodes: " in text


def test_environment_variable_turns_dumps_on(tmp_path, monkeypatch):
    monkeypatch.setenv("MS_DEV_SAVE_GRAPHS", "1")
    ms.set_context(save_graphs_path=str(tmp_path))

    @ms.jit
    def g(x):
        return x * 2

    g(ms.Tensor(np.array([1.0])))
    assert any(n.endswith(".ir") for n in os.listdir(tmp_path))


def test_ir_text_of_a_branch_lists_subgraphs_with_parameters():
    @ms.jit
    def f(x):
        if x.sum() > 0:
            x = x * 2
        return x

    f(ms.Tensor(np.array([1.0])))
    ir = ms.compile_info(f).ir()
    assert "# Total subgraphs: 3" in ir
    assert "Switch(" in ir and "subgraph @\u2713f(%para2_x)" in ir
