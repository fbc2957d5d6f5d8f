"""``ms.export`` and Parameters outside the cell (MindSpore's save/load tutorial): a
Parameter given as an input is exported as an input, one read as a global is refused with
MindSpore 2.10's ValueError (both checked on MindSpore 2.10 with the same nets: the loaded
file gives [5 6 4] for [5 5 5] and holds only the weight 'bias')."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn


class _Biased(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bias = Parameter(Tensor(np.array([0, 1, -1], np.int64)), name="bias")

    def construct(self, x):
        return x + self.bias


_GLOBAL = Parameter(Tensor(np.array([1, 2, 3], np.int64)), name="global_param")


class _ReadsGlobal(_Biased):
    def construct(self, x):
        return x + _GLOBAL + self.bias


class _Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = _Biased()

    def construct(self, x):
        return self.inner(x) * 2


def test_a_parameter_input_is_an_input_of_the_file(mode, tmp_path):
    path = str(tmp_path / "biased")
    ms.export(_Biased(), Parameter(Tensor(np.array([1, 2, 3], np.int64)), name="input_param"),
              file_name=path, file_format="MINDIR")
    loaded = nn.GraphCell(ms.load(path + ".mindir"))
    np.testing.assert_array_equal(loaded(Tensor(np.array([5, 5, 5], np.int64))).asnumpy(),
                                  [5, 6, 4])
    assert [p.name for p in loaded.get_parameters()] == ["bias"]


def test_a_global_parameter_is_refused(mode, tmp_path):
    with pytest.raises(ValueError, match="wasn't created in nn.Cell.*The parameter name is: "
                                         "global_param"):
        ms.export(_ReadsGlobal(), Tensor(np.array([1, 2, 3], np.int64)),
                  file_name=str(tmp_path / "g"), file_format="MINDIR")


def test_parameters_of_inner_cells_are_the_cells_own(mode, tmp_path):
    ms.export(_Outer(), Tensor(np.array([1, 2, 3], np.int64)),
              file_name=str(tmp_path / "outer"), file_format="MINDIR")
    loaded = nn.GraphCell(ms.load(str(tmp_path / "outer.mindir")))
    np.testing.assert_array_equal(loaded(Tensor(np.array([1, 1, 1], np.int64))).asnumpy(),
                                  [2, 4, 0])
