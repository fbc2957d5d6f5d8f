"""EmbeddingLookup: rows of the table, zeros for indices outside it on the 'CPU' target
(as MindSpore 2.10's CPU kernel gives), a plain gather on 'DEVICE', PYNATIVE == GRAPH,
the table's gradient, and MindSpore's argument errors."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn

TABLE = np.arange(12, dtype=np.float32).reshape(4, 3) - 5
INDICES = np.array([[1, 0], [5, -1], [3, 2]], np.int32)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_lookup_rows_and_zeros_outside_the_table(mode):
    ms.set_context(mode=mode)
    net = nn.EmbeddingLookup(4, 3, param_init=Tensor(TABLE))
    want = np.where(((INDICES >= 0) & (INDICES < 4))[..., None], TABLE[INDICES % 4], 0)
    np.testing.assert_array_equal(net(Tensor(INDICES)).asnumpy(), want)
    device = nn.EmbeddingLookup(4, 3, param_init=Tensor(TABLE), target="DEVICE", sparse=False)
    np.testing.assert_array_equal(device(Tensor(INDICES % 4)).asnumpy(), TABLE[INDICES % 4])


def test_table_gradient_counts_the_lookups():
    net = nn.EmbeddingLookup(4, 3, param_init=Tensor(TABLE))
    grad = ms.grad(lambda i: net(i).sum(), None, net.trainable_params())(Tensor(INDICES))[0]
    counts = np.bincount(INDICES[(INDICES >= 0) & (INDICES < 4)], minlength=4)
    np.testing.assert_array_equal(grad.asnumpy(), np.repeat(counts[:, None], 3, 1))


def test_table_default_and_errors():
    net = nn.EmbeddingLookup(4, 2, dtype=ms.float16)
    assert net.embedding_table.name == "embedding_table"
    assert net.embedding_table.shape == (4, 2) and net.embedding_table.dtype == ms.float16
    with pytest.raises(ValueError, match="target"):
        nn.EmbeddingLookup(4, 2, target="GPU")
    with pytest.raises(ValueError, match="sparse"):
        nn.EmbeddingLookup(4, 2, sparse=False)
    with pytest.raises(ValueError, match="slice_mode"):
        nn.EmbeddingLookup(4, 2, slice_mode="rows")
