"""``vmap`` over a ``CellList`` (model ensembling): cell ``k`` gets example ``k`` with its own
weights; results stack; weight writes land in each cell; ``grad`` goes through it. In both
modes, against values worked out by hand (and MindSpore's own ensembling tests)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops


class Scale(nn.Cell):
    def __init__(self, k: float):
        super().__init__()
        self.w = Parameter(Tensor(np.full(3, k, np.float32)), name="w")
        self.seen = Parameter(Tensor(np.zeros(3, np.float32)), name="seen")
        self.assign = ops.Assign()

    def construct(self, x, bias):
        self.assign(self.seen, x)
        return x * self.w + bias


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_each_cell_gets_its_example(mode):
    ms.set_context(mode=mode)
    cells = [Scale(1.0), Scale(2.0), Scale(3.0)]
    x = Tensor(np.arange(9, dtype=np.float32).reshape(3, 3))
    bias = Tensor(np.ones(3, np.float32))
    out = ms.vmap(nn.CellList(cells), in_axes=(0, None))(x, bias)
    np.testing.assert_allclose(out.asnumpy(), x.asnumpy() * [[1], [2], [3]] + 1)
    for k, cell in enumerate(cells):
        np.testing.assert_allclose(cell.seen.asnumpy(), x.asnumpy()[k])
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_out_axes_and_grad():
    ms.set_context(mode=ms.GRAPH_MODE)
    cells = nn.CellList([Scale(1.0), Scale(2.0)])
    x = Tensor(np.ones((3, 2), np.float32))  # the examples on axis 1
    mapped = ms.vmap(cells, in_axes=(1, None), out_axes=1)
    bias = Tensor(np.zeros(3, np.float32))
    assert mapped(x, bias).shape == (3, 2)
    g = ms.grad(mapped)(x, bias)
    np.testing.assert_allclose(g.asnumpy(), np.tile([1.0, 2.0], (3, 1)))
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_batch_must_match_the_number_of_cells():
    cells = nn.CellList([Scale(1.0), Scale(2.0)])
    with pytest.raises(ValueError, match="CellList of 2 cells"):
        ms.vmap(cells)(Tensor(np.ones((3, 3), np.float32)), Tensor(np.ones((2, 3), np.float32)))
