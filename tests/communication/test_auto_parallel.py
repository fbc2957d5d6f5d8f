"""``parallel.Layout`` tensor maps, ``AutoParallel`` settings and its single-process run,
``RowTensor`` and ``ops.composite.add_flags``."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn
from graphkiln.ops import composite as C
from graphkiln.parallel import Layout
from graphkiln.parallel.auto_parallel import AutoParallel


def test_layout_maps_aliases_to_device_axes():
    layout = Layout((2, 2, 2), ("dp", "sp", "mp"))
    got = layout("dp", ("sp", "mp")).to_dict()
    assert got == {"device_matrix": (2, 2, 2), "tensor_map": (2, (1, 0)),
                   "interleaved_parallel": False, "alias_name": ("dp", "sp", "mp"),
                   "rank_list": list(range(8))}
    assert layout("dp", "None").to_dict()["tensor_map"] == (2, -1)
    with pytest.raises(ValueError, match="has been set more than one"):
        layout("dp", "dp")
    with pytest.raises(ValueError, match="not found"):
        layout("tp")
    with pytest.raises(ValueError, match="tensor_map of layout is None"):
        layout.to_dict()
    with pytest.raises(ValueError, match="length should be equal"):
        Layout((2, 2), ("dp",))
    with pytest.raises(ValueError, match="can not set 'None'"):
        Layout((2,), ("None",))


def test_auto_parallel_settings_are_checked_and_kept():
    net = AutoParallel(nn.Dense(2, 2), parallel_mode="sharding_propagation")
    net.dataset_strategy(((1, 2), (1,)))
    net.hsdp(shard_size=2, threshold=8)
    net.pipeline(stages=1, scheduler="gpipe")
    net.enable_gradients_mean()
    assert net.settings["dataset_strategy"] == ((1, 2), (1,))
    assert net.settings["gradients_mean"] and net.settings["enable_parallel_optimizer"]
    assert net.get_pipeline_stages() == 1
    with pytest.raises(ValueError, match="parallel_mode"):
        AutoParallel(nn.Dense(2, 2), parallel_mode="auto")
    with pytest.raises(ValueError, match="'full_batch' or 'data_parallel'"):
        net.dataset_strategy("half")
    with pytest.raises(TypeError, match="must be str"):
        net.save_param_strategy_file(3)
    with pytest.raises(ValueError, match="larger than zero"):
        net.pipeline(stages=0)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_auto_parallel_on_one_process_is_the_network(mode):
    ms.set_context(mode=mode)
    try:
        dense = nn.Dense(3, 2)
        step = nn.TrainOneStepCell(nn.WithLossCell(dense, nn.MSELoss()),
                                   nn.SGD(dense.trainable_params(), 0.1))
        wrapped = AutoParallel(step)
        x = ms.Tensor(np.ones((4, 3), np.float32))
        y = ms.Tensor(np.zeros((4, 2), np.float32))
        before = dense.weight.asnumpy().copy()
        loss = wrapped(x, y)
        assert float(loss.asnumpy()) > 0
        assert not step.reducer_flag
        assert not np.array_equal(dense.weight.asnumpy(), before)
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)


def test_row_tensor_holds_rows_and_densifies():
    rows = ms.RowTensor(ms.Tensor([2, 0, 2]), ms.Tensor(np.ones((3, 2), np.float32)), (4, 2))
    assert rows.dense_shape == (4, 2) and isinstance(rows, ms.RowTensorInner)
    np.testing.assert_array_equal(rows.to_dense().asnumpy(),
                                  [[1, 1], [0, 0], [2, 2], [0, 0]])
    assert ms.RowTensor(row_tensor=rows).values.shape == (3, 2)
    with pytest.raises(TypeError, match="should all be `None`"):
        ms.RowTensor(ms.Tensor([0]), row_tensor=rows)


def test_add_flags_decorates_functions_and_cells():
    @C.add_flags(loop_can_unroll=True)
    def double(x):
        return x * 2

    assert double._func_graph_flags == {"loop_can_unroll": True}
    assert float(ms.jit(double)(ms.Tensor(3.0)).asnumpy()) == 6.0
    cell = C.add_flags(nn.Dense(2, 2), defer_inline=True)
    assert cell._func_graph_flags == {"defer_inline": True}
