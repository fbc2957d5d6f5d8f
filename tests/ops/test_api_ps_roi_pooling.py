"""``nn_ops.PSROIPooling`` against MindSpore 2.10 (fixtures/api_ps_roi_pooling.json by
fixtures/record_api_cases.py); GRAPH == PYNATIVE; its gradient against finite differences;
MindSpore's constructor checks; export to MINDIR and back."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops
from graphkiln.ops.operations import nn_ops as P

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from numeric_grad import numeric_grad  # noqa: E402

ROIS = np.array([[[0.], [15.], [20.], [58.], [60.]],
                 [[1.], [6.5], [3.1], [76.2], [56.8]]], np.float32)


def test_gradient_matches_finite_differences():
    op = P.PSROIPooling(0.0625, 2, 2)
    x = np.random.default_rng(3).standard_normal((2, 8, 5, 4))
    w = Tensor(np.random.default_rng(4).standard_normal((2, 2, 2, 2)).astype(np.float32))

    def loss(t):
        return (op(ops.cast(t, ms.float32), Tensor(ROIS)) * w).sum()

    got = ms.grad(loss)(Tensor(x.astype(np.float32))).asnumpy()
    np.testing.assert_allclose(got, numeric_grad(loss, x, eps=1e-2), rtol=1e-4, atol=1e-4)


def test_image_index_outside_the_batch_raises():
    # (MindSpore's CPU kernel reads past the features instead)
    rois = ROIS.copy()
    rois[1, 0, 0] = 2
    with pytest.raises(ValueError, match="image index"):
        P.PSROIPooling(0.0625, 2, 2)(Tensor(np.ones((2, 8, 5, 4), np.float32)), Tensor(rois))


@pytest.mark.parametrize("attr, value, error", [
    ("spatial_scale", object(), TypeError), ("spatial_scale", -0.15, ValueError),
    ("group_size", 7.1, TypeError), ("group_size", -1, ValueError),
    ("output_dim", 7.1, TypeError), ("output_dim", 0, ValueError)])
def test_bad_constructor_arguments(attr, value, error):
    kwargs = {"spatial_scale": 0.0625, "group_size": 7, "output_dim": 3}
    kwargs[attr] = value
    with pytest.raises(error, match=attr):
        P.PSROIPooling(**kwargs)


@pytest.mark.parametrize("args", [(1.0, ROIS), (np.ones((2, 8, 5, 4)), 1.0),
                                  (np.ones((2, 8, 5, 4)), ROIS, np.ones(2))])
def test_bad_inputs_raise_type_error(args):
    op = P.PSROIPooling(0.0625, 2, 2)
    with pytest.raises(TypeError):
        op(*[Tensor(a.astype(np.float32)) if isinstance(a, np.ndarray) else a for a in args])


def test_mindir_round_trip(tmp_path):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.pool = P.PSROIPooling(0.0625, 2, 2)

        def construct(self, x, rois):
            return self.pool(x, rois)

    x = Tensor(np.random.default_rng(5).standard_normal((2, 8, 5, 4)).astype(np.float32))
    net, path = Net(), str(tmp_path / "ps_roi")
    ms.export(net, x, Tensor(ROIS), file_name=path, file_format="MINDIR")
    loaded = nn.GraphCell(ms.load(path + ".mindir"))
    np.testing.assert_array_equal(loaded(x, Tensor(ROIS)).asnumpy(),
                                  net(x, Tensor(ROIS)).asnumpy())
