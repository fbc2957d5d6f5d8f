"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for the primitives of the "opswide" round (``ops/defs/randperm.py``, ...)."""
import numpy as np

from graphkiln import Tensor
from graphkiln.common import dtype as mstype

NON_DIFFERENTIABLE = {
    "RandpermV2": "random draws: integers of a permutation (MindSpore has no backward rule)",
    "TensorToScalar": "a Python number (a slice bound): run-time scalars carry no gradient",
    "Eig": "MindSpore defines no backward for it (RuntimeError there)",
    "SparseAddmm": "MindSpore defines no backward for it",
    "SparseReshape": "integer indices and shapes",
    "TraceV2Grad": "MindSpore 2.10 defines no gradient for it",
    "CombinedNonMaxSuppression": "a selection of boxes (MindSpore defines no backward for it)",
    "SparseAdd": "graphkiln defines no backward for it (MindSpore's SparseAddGrad is not "
                 "ported): the stored positions are a data-dependent selection",
    "SparseMatrixAdd": "MindSpore defines no backward for it",
    "ConcatOffsetV1": "integer offsets computed from shapes",
}
_LABELS = np.array([1, 0, 3], np.int32)
_EIG = np.array([[[2., 1.], [1., 3.]], [[0., -1.], [1., 0.]]], np.float32)
_SAMPLES2 = np.array([[[0.3, 0.8], [0.05, 0.5]], [[0.9, 0.1], [0.6, 0.6]]], np.float32)
_SAMPLES3 = np.array([[[0.3, 0.8, 0.1], [0.05, 0.5, 0.7]], [[0.9, 0.1, 0.4], [0.6, 0.6, 0.2]]],
                     np.float32)
_SP_IDX = np.array([[2, 1], [0, 3], [2, 0], [0, 1]], np.int64)
_SP_SHAPE = np.array([3, 4], np.int64)
_SEG_IDX = np.array([0, 2, 1, 3, 3], np.int32)
_SEG_IDS = np.array([0, 0, 1, 2, 2], np.int64)
# SparseSegmentMean*: ids of the indices' dtype; a gap (segment 1 has no rows)
_MEAN_IDS = np.array([0, 0, 2, 2, 3], np.int32)
# SparseSegmentSqrtNWithNumSegments: sorted ids with a gap, 6 segments
_SEG_GAPS = np.array([0, 0, 2, 2, 4], np.int32)
_NMS_BOXES = np.concatenate([np.linspace(0, 0.5, 48).reshape(2, 4, 3, 2),
                             np.linspace(0.4, 1.1, 48).reshape(2, 4, 3, 2)], -1).astype(np.float32)
_NMS_SCORES = np.linspace(0.05, 0.95, 24).reshape(2, 4, 3).astype(np.float32)
_LOGITS = np.linspace(-2.0, -0.1, 12).reshape(3, 4)
_WEIGHT = np.array([0.2, 0.5, 1.0, 0.3])
_BATCH_LABELS = np.array([[1, 0, 3], [2, 2, 0], [3, 1, 1]], np.int32)
CHECKED_ELSEWHERE: dict = {
    "PSROIPooling": "float16/float32 only (no float64 sample here): checked against finite "
                    "differences in float32 by tests/ops/test_api_ps_roi_pooling.py"}
# MindSpore's LayerNorm rule passes nothing back from the mean and variance outputs
# (recorded in fixtures/opswide.json: layer_norm_statistics_grad)
IGNORED_OUTPUTS = {"LayerNorm": (1, 2)}
# (the gradient ops' other inputs must share the differentiated input's dtype)
NO_FLOAT16 = {"GridSampler3D", "GridSampler3DGrad", "GridSamplerGridTangent",
              "GridSampler2DGrad"}  # float32/float64 only, as MindSpore's kernel
# MindSpore gives NLLLoss's weight a zero gradient (recorded in fixtures/opswide.json)
ZERO_BY_DEFINITION = {"NLLLoss": (1,)}  # (positions among the float inputs)


# PSROIPooling(Grad)'s rois: (batch 2, [image, x1, y1, x2, y2], 1 roi each)
_PS_ROIS = np.array([[[0.], [15.], [20.], [58.], [60.]],
                     [[1.], [6.5], [3.1], [76.2], [56.8]]], np.float32)


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    return {
        "RandpermV2": [((5,), {"seed": 3}),
                       ((Tensor(np.array([4], np.int32)),), {"dtype": mstype.float16})],
        "KeepReducedDims": [((f32(2, 3), f32(2, 4, 3), Tensor(np.array([1]))), {}),
                            ((f32(4), f32(2, 4, 1), Tensor(np.array([-3, 2]))), {}),
                            ((f32(), f32(2, 1), Tensor(np.zeros(0, np.int64))), {})],
        "ConcatOffsetV1": [((Tensor(np.int32(1)), tuple(Tensor(np.array(v, np.int32)) for v in (
            [2, 3, 4], [2, 1, 4], [2, 5, 4]))), {})],
        "PSROIPooling": [((f32(2, 8, 5, 4), Tensor(_PS_ROIS)),
                          {"spatial_scale": 0.0625, "group_size": 2, "output_dim": 2})],
        "PSROIPoolingGrad": [((f32(2, 2, 2, 2), Tensor(_PS_ROIS)),
                              {"input_size": (5, 4), "spatial_scale": 0.0625, "group_size": 2,
                               "output_dim": 2})],
        "SparseReshape": [((Tensor(np.array([[0, 1, 2], [1, 2, 5]], np.int64)),
                            Tensor(np.array([2, 3, 6], np.int64)),
                            Tensor(np.array([-1, 4], np.int64))), {})],
        "TraceV2Grad": [((f32(2), Tensor(np.array([5, 4, 2], np.int64)), 1, 0, 1), {}),
                        ((f32(), Tensor(np.array([3, 4], np.int32)), -1, 1, 0), {})],
        "UniqueWithPad": [((Tensor(np.array([3, 1, 3, 7], np.int32)), 0), {}),
                          ((Tensor(np.array([2.5, -1., 2.5], np.float32)), 0.5), {})],
        "TensorToScalar": [((Tensor(np.int32(3)),), {}), ((Tensor(np.array([2.5])),), {})],
        "Eig": [((Tensor(_EIG),), {}), ((Tensor(_EIG.astype(np.complex128)),),
                                         {"compute_v": True})],
        "FractionalMaxPoolWithFixedKsize": [
            ((f32(2, 2, 7, 9), Tensor(_SAMPLES2)), {"ksize": 3, "output_shape": (3, 4)}),
            ((Tensor(np.arange(63, dtype=np.int32).reshape(1, 1, 7, 9)), Tensor(_SAMPLES2[:1, :1])),
             {"ksize": (2, 3), "output_shape": 2})],
        "FractionalMaxPool3DWithFixedKsize": [
            ((f32(2, 2, 5, 6, 7), Tensor(_SAMPLES3)), {"ksize": 2, "output_shape": (2, 3, 4)}),
            ((f32(2, 5, 6, 7), Tensor(_SAMPLES3[:1].transpose(1, 0, 2))),
             {"ksize": (1, 2, 3), "output_shape": 3})],
        "FractionalMaxPoolGradWithFixedKsize": [
            ((f32(2, 2, 7, 9), f32(2, 2, 3, 4), Tensor(np.full((2, 2, 3, 4), 5, np.int64))), {})],
        "FractionalMaxPool3DGradWithFixedKsize": [
            ((f32(1, 2, 3, 4, 5), f32(1, 2, 1, 2, 2), Tensor(np.ones((1, 2, 1, 2, 2), np.int64))),
             {})],
        "SparseReorder": [((Tensor(_SP_IDX), f32(4), Tensor(_SP_SHAPE)), {}),
                          ((Tensor(_SP_IDX.astype(np.int32)), Tensor(np.arange(4)),
                            Tensor(_SP_SHAPE.astype(np.int32))), {})],
        "SparseAddmm": [((Tensor(_SP_IDX), f32(4), Tensor(_SP_SHAPE), f32(4, 2), f32(3, 2),
                          f32(1), f32(1)), {})],
        "SparseAdd": [((Tensor(_SP_IDX[[3, 1, 2]]), f32(3), Tensor(_SP_SHAPE),
                        Tensor(_SP_IDX[[1, 0]]), f32(2), Tensor(_SP_SHAPE),
                        Tensor(np.float32(0.5))), {})],
        "SparseMatrixAdd": [(tuple(Tensor(np.array(a, np.int32)) for a in (
            [3, 4], [0, 3], [0, 1, 1, 3], [2, 0, 3])) + (f32(3),) +
            tuple(Tensor(np.array(a, np.int32)) for a in ([3, 4], [0, 2], [0, 0, 1, 2], [1, 3]))
            + (f32(2), Tensor(np.float32(2)), Tensor(np.float32(-1))), {})],
        "SparseSegmentSqrtN": [((f32(4, 3), Tensor(_SEG_IDX), Tensor(_SEG_IDS)), {}),
                               ((Tensor(np.ones(4, np.float16)), Tensor(_SEG_IDX),
                                 Tensor(_SEG_IDS)), {})],
        "SparseSegmentSqrtNWithNumSegments": [
            ((f32(4, 3), Tensor(_SEG_IDX), Tensor(_SEG_GAPS), Tensor(np.array([6], np.int32))),
             {})],
        "SparseSegmentMean": [((f32(4, 3), Tensor(_SEG_IDX), Tensor(_MEAN_IDS)), {}),
                              ((Tensor(np.ones(4, np.float16)), Tensor(_SEG_IDX),
                                Tensor(_MEAN_IDS)), {})],
        "SparseSegmentMeanWithNumSegments": [
            ((f32(4, 3), Tensor(_SEG_IDX), Tensor(_SEG_GAPS), Tensor(np.array([6], np.int32))),
             {})],
        "SparseSegmentMeanGrad": [((f32(4, 2), Tensor(_SEG_IDX), Tensor(_MEAN_IDS), 4), {})],
        "SparseSegmentSqrtNGrad": [((f32(3, 2), Tensor(_SEG_IDX), Tensor(_SEG_IDS), 4), {}),
                                   ((f32(3), Tensor(_SEG_IDX), Tensor(_SEG_IDS),
                                     Tensor(np.int32(5))), {})],
        "CombinedNonMaxSuppression": [
            ((Tensor(_NMS_BOXES), Tensor(_NMS_SCORES), Tensor(np.int32(2)), Tensor(np.int32(3)),
              Tensor(np.float32(0.5)), Tensor(np.float32(0.1))), {}),
            ((Tensor(_NMS_BOXES[:, :, :1]), Tensor(_NMS_SCORES), Tensor(np.int32(2)),
              Tensor(np.int32(9)), Tensor(np.float32(0.5)), Tensor(np.float32(0.1))),
             {"pad_per_class": True, "clip_boxes": False})],
        "NLLLoss": [((f32(3, 4), Tensor(_LABELS), f32(4)), {}),
                    ((f32(3, 4), Tensor(_LABELS.astype(np.int64)), f32(4)),
                     {"reduction": "none", "ignore_index": 0})],
        "GridSampler2D": [((f32(2, 3, 4, 5), f32(2, 3, 2, 2) * 0.6), {}),
                          ((f32(1, 2, 3, 3), f32(1, 2, 2, 2)),
                           {"interpolation_mode": "nearest", "padding_mode": "border"})],
        "GridSampler3D": [((f32(2, 2, 3, 4, 3), f32(2, 2, 1, 2, 3) * 0.6),
                           {"padding_mode": "reflection", "align_corners": True})],
        "GridSampler2DGrad": [((f32(2, 3, 3, 2), f32(2, 3, 4, 5), f32(2, 3, 2, 2) * 0.6), {})],
        "GridSamplerGridTangent": [((f32(2, 3, 4, 5), f32(2, 3, 2, 2) * 0.6, f32(2, 3, 2, 2)),
                                    {}),
                                   ((f32(1, 2, 2, 3, 3), f32(1, 2, 1, 2, 3) * 0.5,
                                     f32(1, 2, 1, 2, 3)), {"padding_mode": "border"})],
        "GridSampler3DGrad": [((f32(2, 2, 2, 1, 2), f32(2, 2, 3, 4, 3),
                                f32(2, 2, 1, 2, 3) * 0.6), {"output_mask": (1, 0)})],
        "NLLLossGrad": [((f32(3, 4), f32(3), Tensor(_LABELS), f32(4), f32(1)),
                         {"reduction": "none"}),
                        ((f32(3, 4), f32(), Tensor(_LABELS), f32(4), f32()), {})],
    }


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - test_batching_rules' class names
    """Samples for test_batching_rules.py, built with its input markers."""
    axis = np.array([0, 2])
    return {
        "KeepReducedDims": [lambda r: ((B(f32(r, 3, 5)), U(f32(r, 2, 5, 4)), U(axis)), {}),
                            lambda r: ((B(f32(r, 3, 5)), B(f32(r, 3, 2, 5, 4)), U(axis)),
                                       {})],
        "NLLLoss": [lambda r: ((B(f32(r, 3, 3, 4)), B(_BATCH_LABELS), U(f32(r, 4))), {}),
                    lambda r: ((B(f32(r, 3, 3, 4)), U(_LABELS), U(f32(r, 4))),
                               {"reduction": "none"})],
        **{f"GridSampler{k}D": [lambda r, k=k: ((B(f32(r, 3, 2, 2, *(3,) * k)),
                                                 B(f32(r, 3, 2, *(2,) * k, k) * 0.6)), {})]
           for k in (2, 3)},
        "GridSamplerGridTangent": [lambda r: ((B(f32(r, 3, 2, 2, 3, 3)),
                                               B(f32(r, 3, 2, 2, 2, 2) * 0.6),
                                               B(f32(r, 3, 2, 2, 2, 2))), {})],
        **{f"GridSampler{k}DGrad": [lambda r, k=k: (
            (B(f32(r, 3, 2, 2, *(2,) * k)), B(f32(r, 3, 2, 2, *(3,) * k)),
             B(f32(r, 3, 2, *(2,) * k, k) * 0.6)), {})] for k in (2, 3)},
        "Eig": [lambda r: ((B(f32(r, 3, 2, 2)),), {})],
        "SparseReorder": [lambda r: ((U(_SP_IDX), B(f32(r, 3, 4)), U(_SP_SHAPE)), {})],
        "CombinedNonMaxSuppression": [lambda r: (
            (B(r.uniform(0, 1, (3, 2, 4, 1, 4)).astype(np.float32)),
             B(r.uniform(0, 1, (3, 2, 4, 3)).astype(np.float32)), U(np.int32(2)),
             U(np.int32(4)), U(np.float32(0.5)), U(np.float32(0.1))), {})],
        "SparseSegmentSqrtN": [lambda r: ((B(f32(r, 3, 4, 2)), U(_SEG_IDX), U(_SEG_IDS)), {})],
        "TraceV2Grad": [lambda r: ((B(f32(r, 3, 2)), U(np.array([5, 4, 2], np.int64)), 1, 0, 1),
                                   {})],
        "SparseSegmentSqrtNWithNumSegments": [
            lambda r: ((B(f32(r, 3, 4, 2)), U(_SEG_IDX), U(_SEG_GAPS), U(np.array([6], np.int32))),
                       {})],
        "SparseSegmentSqrtNGrad": [lambda r: ((B(f32(r, 3, 3, 2)), U(_SEG_IDX), U(_SEG_IDS), 4),
                                              {})],
        "SparseSegmentMean": [lambda r: ((B(f32(r, 3, 4, 2)), U(_SEG_IDX), U(_MEAN_IDS)), {})],
        "SparseSegmentMeanWithNumSegments": [
            lambda r: ((B(f32(r, 3, 4, 2)), U(_SEG_IDX), U(_SEG_GAPS), U(np.array([6], np.int32))),
                       {})],
        "SparseSegmentMeanGrad": [lambda r: ((B(f32(r, 3, 4, 2)), U(_SEG_IDX), U(_MEAN_IDS), 4),
                                             {})],
        "SparseAddmm": [lambda r: ((U(_SP_IDX), B(f32(r, 3, 4)), U(_SP_SHAPE), B(f32(r, 3, 4, 2)),
                                    U(f32(r, 3, 2)), U(f32(r, 1)), U(f32(r, 1))), {})],
        "FractionalMaxPoolWithFixedKsize": [lambda r: (
            (B(f32(r, 3, 2, 2, 7, 9)), U(_SAMPLES2)), {"ksize": 3, "output_shape": (3, 4)})],
        "FractionalMaxPool3DWithFixedKsize": [lambda r: (
            (B(f32(r, 3, 2, 2, 5, 6, 7)), U(_SAMPLES3)), {"ksize": 2, "output_shape": 3})],
        "FractionalMaxPoolGradWithFixedKsize": [lambda r: (
            (U(f32(r, 1, 2, 3, 4)), B(f32(r, 3, 1, 2, 2, 2)),
             B(r.integers(0, 12, (3, 1, 2, 2, 2)))), {})],
        "FractionalMaxPool3DGradWithFixedKsize": [lambda r: (
            (U(f32(r, 1, 2, 2, 3, 4)), B(f32(r, 3, 1, 2, 1, 2, 2)),
             B(r.integers(0, 24, (3, 1, 2, 1, 2, 2)))), {})],
        "NLLLossGrad": [lambda r: ((B(f32(r, 3, 3, 4)), B(f32(r, 3, 3)), B(_BATCH_LABELS),
                                    U(f32(r, 4)), U(f32(r, 1))), {"reduction": "none"})],
    }


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers."""
    return {"KeepReducedDims": [s(n(2, 3), n(2, 4, 3), Tensor(np.array([1])))],
            "NLLLoss": [s(n(3, 4), Tensor(_LABELS), u(0.5, 1.0, 4), reduction=r)
                        for r in ("none", "mean", "sum")],
            "GridSampler2D": [s(n(2, 3, 4, 5), u(-0.9, 0.9, 2, 3, 2, 2)),
                              s(n(1, 2, 3, 4), u(-1.4, 1.4, 1, 2, 3, 2),
                                padding_mode="reflection", align_corners=True)],
            "GridSampler3D": [s(n(1, 2, 3, 4, 3), u(-0.9, 0.9, 1, 2, 1, 2, 3),
                                padding_mode="border")],
            **{f"GridSampler{k}DGrad": [s(n(1, 2, *(2,) * k), Tensor(np.ones((1, 2) + (3,) * k)),
                                          Tensor(np.linspace(-0.8, 0.7, 2 ** k * k)
                                                 .reshape((1,) + (2,) * k + (k,))))]
               for k in (2, 3)},
            "GridSamplerGridTangent": [s(Tensor(np.linspace(-1, 1, 18).reshape(1, 2, 3, 3)),
                                         Tensor(np.linspace(-0.8, 0.7, 8).reshape(1, 2, 2, 2)),
                                         n(1, 2, 2, 2))],
            "SparseReorder": [s(Tensor(_SP_IDX), n(4), Tensor(_SP_SHAPE))],
            "SparseSegmentSqrtN": [s(n(4, 3), Tensor(_SEG_IDX), Tensor(_SEG_IDS))],
            "SparseSegmentSqrtNWithNumSegments": [s(n(4, 3), Tensor(_SEG_IDX), Tensor(_SEG_GAPS),
                                                    Tensor(np.array([6], np.int32)))],
            "SparseSegmentSqrtNGrad": [s(n(3, 2), Tensor(_SEG_IDX), Tensor(_SEG_IDS), 4)],
            "SparseSegmentMean": [s(n(4, 3), Tensor(_SEG_IDX), Tensor(_MEAN_IDS))],
            "SparseSegmentMeanWithNumSegments": [s(n(4, 3), Tensor(_SEG_IDX), Tensor(_SEG_GAPS),
                                                   Tensor(np.array([6], np.int32)))],
            "SparseSegmentMeanGrad": [s(n(4, 2), Tensor(_SEG_IDX), Tensor(_MEAN_IDS), 4)],
            # (the gradient ops are linear in their cotangent input, the others constants)
            "NLLLossGrad": [s(Tensor(_LOGITS), n(3), Tensor(_LABELS), Tensor(_WEIGHT),
                              Tensor(np.ones(1)), reduction="none"),
                            s(Tensor(_LOGITS), n(), Tensor(_LABELS), Tensor(_WEIGHT),
                              Tensor(np.float64(2.0)), reduction="mean")],
            "FractionalMaxPoolGradWithFixedKsize": [
                s(Tensor(np.zeros((1, 2, 3, 4))), n(1, 2, 2, 2),
                  Tensor(np.array([[[[0, 5], [5, 11]], [[3, 3], [7, 2]]]], np.int64)))],
            "FractionalMaxPool3DGradWithFixedKsize": [
                s(Tensor(np.zeros((1, 1, 2, 2, 3))), n(1, 1, 1, 2, 2),
                  Tensor(np.array([[[[[0, 5], [5, 11]]]]], np.int64)))],
            "FractionalMaxPoolWithFixedKsize": [s(n(2, 2, 7, 9), Tensor(_SAMPLES2), ksize=3,
                                                  output_shape=(3, 4))],
            "FractionalMaxPool3DWithFixedKsize": [s(n(2, 2, 5, 6, 7), Tensor(_SAMPLES3), ksize=2,
                                                    output_shape=(2, 3, 4))]}
