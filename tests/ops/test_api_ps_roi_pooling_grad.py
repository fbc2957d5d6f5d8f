"""``_grad_ops.PSROIPoolingGrad`` against MindSpore 2.10 (fixtures/api_ps_roi_pooling_grad.json
by fixtures/record_api_cases.py); GRAPH == PYNATIVE; MindSpore's constructor checks."""
import sys
from pathlib import Path

import pytest

from graphkiln.ops.operations import _grad_ops as G

sys.path.insert(0, str(Path(__file__).resolve().parent))



@pytest.mark.parametrize("attr, value, error", [
    ("input_size", 1.5, TypeError), ("input_size", [2, 2], TypeError),
    ("input_size", (3, 0), ValueError), ("spatial_scale", -0.5, ValueError),
    ("group_size", 2.0, TypeError), ("output_dim", 0, ValueError)])
def test_bad_constructor_arguments(attr, value, error):
    kwargs = {"input_size": 10, "spatial_scale": 0.0625, "group_size": 3, "output_dim": 2}
    kwargs[attr] = value
    with pytest.raises(error, match=attr):
        G.PSROIPoolingGrad(**kwargs)


def test_mindir_round_trip(tmp_path):
    """Exported as MindSpore's plain primitive with its four attributes and read back."""
    import numpy as np

    import graphkiln as ms
    from graphkiln import Tensor, nn

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.grad = G.PSROIPoolingGrad((5, 4), 0.0625, 2, 2)

        def construct(self, dy, rois):
            return self.grad(dy, rois)

    rois = Tensor(np.array([[[0.0], [15.0], [20.0], [57.9], [60.2]],
                            [[1.0], [6.5], [3.1], [76.2], [56.8]]], np.float32))
    dy = Tensor(np.random.default_rng(2).standard_normal((2, 2, 2, 2)).astype(np.float32))
    net, path = Net(), str(tmp_path / "ps_roi_grad")
    ms.export(net, dy, rois, file_name=path, file_format="MINDIR")
    loaded = nn.GraphCell(ms.load(path + ".mindir"))
    np.testing.assert_array_equal(loaded(dy, rois).asnumpy(), net(dy, rois).asnumpy())
