"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for the issue-27 primitives: the segment reductions, ``TensorScatterElements``,
``ROIAlign`` and ``CropAndResize`` with their gradients (more below as they come)."""
import numpy as np

from graphkiln import Tensor
from graphkiln.common import dtype as mstype

_IDS = np.array([0, 2, 0, 1], np.int32)
# (valid, padded) attributes of the 3-D pools; outputs (2, 3, 3) and ... of a (4, 5, 6) input
_MAX3D = ({"kernel_size": 2, "strides": 2, "pad_mode": "pad", "pad_list": (0, 0, 1, 0, 0, 0)},
          {"kernel_size": 3, "strides": 2, "pad_mode": "same"})
_AVG3D = ({"kernel_size": 2, "strides": 2, "pad_mode": "pad", "pad": (0, 0, 1, 0, 0, 0)},
          {"kernel_size": (2, 3, 2), "strides": 1, "pad_mode": "pad", "pad": 1,
           "ceil_mode": True, "count_include_pad": False})
_ARGMAX = ({"ksize": 2, "strides": 2, "pads": 1, "dilation": 2, "ceil_mode": True},
           {"ksize": (2, 3, 2), "strides": (1, 2, 2), "pads": (1, 0, 1)})
_ARGMAX2D = ({"kernel_size": 2, "strides": 2, "pads": 1, "dilation": 2, "ceil_mode": True},
             {"kernel_size": (3, 2), "pads": (1, 0), "argmax_type": mstype.int32})
REGISTRY_GRADS = {"MaxPool3D": "MaxPool3DGrad", "AvgPool3D": "AvgPool3DGrad"}
_SEGMENTS = ("UnsortedSegmentSum", "UnsortedSegmentMax", "UnsortedSegmentMin",
             "UnsortedSegmentProd")
_ROIS = np.array([[0, 0.5, 1.0, 3.2, 2.7], [1, 1.2, 0.3, 4.5, 3.9]], np.float32)
_BOXES = np.array([[0.13, 0.21, 0.77, 0.93], [0.31, 0.07, 0.62, 0.55]], np.float32)
_BOX_IDX = np.array([1, 0], np.int32)
_ROI_ATTRS = {"pooled_height": 2, "pooled_width": 2, "spatial_scale": 0.8, "sample_num": 2}

_LABEL_IDX = np.array([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], np.int64)
_LABELS = np.array([1, 1, 2, 0, 1], np.int32)
_SEQ = np.array([5, 4], np.int32)
_TARGETS = np.array([[1, 1, 2], [3, 1, 0]], np.int32)
_IN_LENGTHS, _TARGET_LENGTHS = np.array([5, 4], np.int32), np.array([3, 2], np.int32)

NON_DIFFERENTIABLE = {
    "Geqrf": "MindSpore defines no backward for it (RuntimeError there)",
    "CropAndResizeGradBoxes": "the box gradient of CropAndResize (MindSpore defines no "
                              "second derivative for it)",
    "CTCLossV2Grad": "the gradient rule of CTCLossV2 (MindSpore defines no second derivative "
                     "for it)"}
# float32/float64 kernels only (as MindSpore's): no float16 cotangent to check
NO_FLOAT16 = {"Svd", "MatrixInverse", "Qr", "Cholesky"}
# CTCLoss's second output is its own gradient, whose cotangent MindSpore's rule ignores
IGNORED_OUTPUTS = {"CTCLoss": (1,)}

CHECKED_ELSEWHERE = {
    **{n: "float16/float32 only (as MindSpore's kernel), so no float64 sample here: checked "
       "against float32 finite differences and MindSpore's recorded gradients by "
       "tests/ops/test_ops27.py" for n in ("ROIAlign", "ROIAlignGrad", "CropAndResize",
                                           "CropAndResizeGradImage")},
    "CTCLossV2": "its rule is PyTorch's gradient for log-probabilities that stay normalized "
                 "(as MindSpore's), not the derivative in free inputs: checked against finite "
                 "differences through log_softmax by tests/ops/test_ops27.py"}


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    x = f32(4, 3)
    ids = Tensor(_IDS)
    ints = Tensor(np.arange(12, dtype=np.int64).reshape(4, 3) % 5)
    ids2 = Tensor((_IDS[:, None] * [1, 1, 0]).astype(np.int32))
    samples = {n: [((x, ids, 3), {}), ((ints, ids2, 4), {})] for n in _SEGMENTS}
    idx = Tensor(np.array([[0, 2], [1, 0]], np.int32))
    samples["TensorScatterElements"] = [((x, idx, f32(2, 2)), {"axis": 0}),
                                        ((ints, idx, ints[:2, :2]), {"axis": 1,
                                                                    "reduction": "add"})]
    feat, rois = f32(2, 3, 5, 6), Tensor(_ROIS)
    samples["ROIAlign"] = [((feat, rois), _ROI_ATTRS),
                           ((feat.astype("float16"), rois.astype("float16")), {})]
    samples["ROIAlignGrad"] = [((f32(2, 3, 2, 2), rois, (2, 3, 5, 6)), _ROI_ATTRS)]
    image, boxes, box_idx = f32(2, 5, 6, 3), Tensor(_BOXES), Tensor(_BOX_IDX)
    samples["CropAndResize"] = [((image, boxes, box_idx, (3, 4)), {}),
                                ((ints.reshape(1, 4, 3, 1).astype("uint8"), boxes,
                                  Tensor(np.zeros(2, np.int32)), (2, 2)),
                                 {"method": "nearest"})]
    samples["CropAndResizeGradImage"] = [((f32(2, 3, 4, 3), boxes, box_idx, (2, 5, 6, 3)),
                                          {}),
                                         ((f32(2, 3, 4, 3), boxes, box_idx, (2, 5, 6, 3)),
                                          {"method": "bilinear_v2"})]
    samples["CropAndResizeGradBoxes"] = [((f32(2, 3, 4, 3), image, boxes, box_idx), {})]
    logits, labels = f32(5, 2, 4), (Tensor(_LABEL_IDX), Tensor(_LABELS), Tensor(_SEQ))
    samples["CTCLoss"] = [((logits,) + labels, {}),
                          ((logits.astype("float16"),) + labels, {"ctc_merge_repeated": False})]
    ctc = (Tensor(_TARGETS), Tensor(_IN_LENGTHS), Tensor(_TARGET_LENGTHS))
    samples["CTCLossV2"] = [((logits,) + ctc, {}), ((logits.astype("float64"),) + ctc,
                                                    {"blank": 3})]
    nll = Tensor(np.array([6.4, 2.1], np.float32))
    alpha = Tensor(np.zeros((2, 5, 7), np.float32))
    samples["CTCLossV2Grad"] = [((Tensor(np.ones(2, np.float32)), logits) + ctc + (nll, alpha),
                                 {})]
    square = Tensor(np.array([[3.0, 1.0, 0.5], [1.0, 2.0, 0.0], [0.2, 0.3, 1.5]], np.float32))
    batch = Tensor(np.stack([square.asnumpy(), -square.asnumpy().T]).astype(np.float64))
    samples["Svd"] = [((f32(4, 3),), {}), ((f32(2, 3, 5),), {"full_matrices": True}),
                      ((batch,), {"compute_uv": False})]
    for name in ("MatrixDeterminant", "LogMatrixDeterminant"):
        samples[name] = [((square,), {}), ((batch,), {}), ((square.astype("float16"),), {})]
    samples["MatrixInverse"] = [((square,), {}), ((batch,), {"adjoint": True})]
    samples["Qr"] = [((f32(4, 3),), {}), ((f32(2, 3, 5),), {"full_matrices": True})]
    samples["Geqrf"] = [((f32(4, 3),), {}), ((f32(2, 3, 5).astype("float64"),), {})]
    spd = Tensor(np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], np.float32))
    samples["Cholesky"] = [((spd,), {}), ((spd.astype("float64"),), {"upper": True})]
    vol = f32(2, 2, 4, 5, 6)
    for name, kw in (("MaxPool3D", _MAX3D), ("AvgPool3D", _AVG3D)):
        samples[name] = [((vol,), kw[0]), ((vol.astype("float16"),), kw[1])]
        grad = REGISTRY_GRADS[name]
        samples[grad] = [((vol, vol, f32(2, 2, 2, 3, 3)), kw[0])]
    samples["MaxPool3DGradGrad"] = [((vol, vol, vol), _MAX3D[0])]
    samples["MaxPool3DWithArgmax"] = [((vol,), _ARGMAX[0]), ((vol.astype("float16"),),
                                                             _ARGMAX[1])]
    samples["MaxPoolWithArgmaxV2"] = [((vol[0],), _ARGMAX2D[0]),
                                      ((vol[0].astype("float64"),), _ARGMAX2D[1])]
    return samples


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - test_batching_rules' class names
    """Samples for test_batching_rules.py, built with its input markers."""
    segment = [lambda r: ((B(f32(r, 3, 4, 2)), U(_IDS), 3), {}),
               lambda r: ((B(f32(r, 3, 4)), B(np.stack([_IDS, _IDS[::-1], _IDS])), 3), {}),
               lambda r: ((U(f32(r, 4, 2)), B(np.stack([_IDS, _IDS[::-1], _IDS])), 3), {})]
    samples = {n: segment for n in _SEGMENTS}
    idx = np.array([[0, 2], [1, 0]], np.int32)
    samples["TensorScatterElements"] = [
        lambda r: ((B(f32(r, 3, 4, 3)), U(idx), B(f32(r, 3, 2, 2))), {"axis": 0}),
        lambda r: ((B(f32(r, 3, 4, 3)), B(np.stack([idx, idx[::-1], idx % 2])),
                    U(f32(r, 2, 2))), {"axis": -1, "reduction": "add"})]
    samples["ROIAlign"] = [lambda r: ((B(f32(r, 3, 2, 3, 5, 6)), U(_ROIS)), _ROI_ATTRS)]
    samples["ROIAlignGrad"] = [lambda r: ((B(f32(r, 3, 2, 3, 2, 2)), U(_ROIS), (2, 3, 5, 6)),
                                          _ROI_ATTRS)]
    samples["CropAndResize"] = [
        lambda r: ((B(f32(r, 3, 2, 5, 6, 3)), U(_BOXES), U(_BOX_IDX), (3, 4)), {}),
        lambda r: ((U(f32(r, 2, 5, 6, 3)), B(f32(r, 3, 2, 4, lo=0.1, hi=0.9)), U(_BOX_IDX),
                    (2, 2)), {})]
    samples["CropAndResizeGradImage"] = [
        lambda r: ((B(f32(r, 3, 2, 3, 4, 3)), U(_BOXES), U(_BOX_IDX), (2, 5, 6, 3)), {})]
    samples["CropAndResizeGradBoxes"] = [
        lambda r: ((B(f32(r, 3, 2, 3, 4, 3)), B(f32(r, 3, 2, 5, 6, 3)), U(_BOXES),
                    U(_BOX_IDX)), {})]
    samples["CTCLoss"] = [lambda r: ((B(f32(r, 3, 5, 2, 4)), U(_LABEL_IDX), U(_LABELS),
                                      U(_SEQ)), {})]
    ctc = (U(_TARGETS), U(_IN_LENGTHS), U(_TARGET_LENGTHS))
    samples["CTCLossV2"] = [lambda r: ((B(f32(r, 3, 5, 2, 4)),) + ctc, {}),
                            lambda r: ((U(f32(r, 5, 2, 4)), B(np.stack([_TARGETS] * 3) % 3),
                                        U(_IN_LENGTHS), U(_TARGET_LENGTHS)), {"blank": 3})]
    samples["CTCLossV2Grad"] = [
        lambda r: ((B(f32(r, 3, 2, lo=0.5, hi=1.0)), B(f32(r, 3, 5, 2, 4))) + ctc +
                   (U(np.array([6.4, 2.1], np.float32)), U(np.zeros((2, 5, 7), np.float32))),
                   {})]
    samples["Svd"] = [lambda r: ((B(f32(r, 3, 4, 3)),), {}),
                      lambda r: ((B(f32(r, 3, 2, 3, 3)),), {"full_matrices": True})]
    square = [lambda r: ((B(f32(r, 3, 3, 3) + 3 * np.eye(3, dtype=np.float32)),), {}),
              lambda r: ((B(f32(r, 3, 2, 2, 2) + 2 * np.eye(2, dtype=np.float32)),), {})]
    samples.update({n: square for n in ("MatrixDeterminant", "LogMatrixDeterminant")})
    samples["MatrixInverse"] = square + [
        lambda r: ((B(f32(r, 3, 3, 3) + 3 * np.eye(3, dtype=np.float32)),), {"adjoint": True})]
    samples["Qr"] = [lambda r: ((B(f32(r, 3, 4, 3)),), {}),
                     lambda r: ((B(f32(r, 3, 2, 2, 3)),), {"full_matrices": True})]
    samples["Geqrf"] = [lambda r: ((B(f32(r, 3, 4, 3)),), {}),
                        lambda r: ((B(f32(r, 3, 2, 2, 3)),), {})]
    samples["Cholesky"] = [lambda r: ((B(_spd(r, 3, 3)),), {}),
                           lambda r: ((B(_spd(r, 3, 2)),), {"upper": True})]
    for name, kw in (("MaxPool3D", _MAX3D), ("AvgPool3D", _AVG3D)):
        samples[name] = [lambda r, _kw=k: ((B(f32(r, 3, 2, 2, 4, 5, 6)),), _kw) for k in kw]
        samples[REGISTRY_GRADS[name]] = [
            lambda r, _kw=kw[0]: ((B(f32(r, 3, 2, 2, 4, 5, 6)), U(f32(r, 2, 2, 4, 5, 6)),
                                   B(f32(r, 3, 2, 2, 2, 3, 3))), _kw)]
    samples["MaxPool3DGradGrad"] = [
        lambda r: ((B(f32(r, 3, 2, 2, 4, 5, 6)), U(f32(r, 2, 2, 4, 5, 6)),
                    B(f32(r, 3, 2, 2, 4, 5, 6))), _MAX3D[0])]
    samples["MaxPool3DWithArgmax"] = [lambda r, _kw=k: ((B(f32(r, 3, 2, 2, 4, 5, 6)),), _kw)
                                      for k in _ARGMAX]
    samples["MaxPoolWithArgmaxV2"] = [lambda r, _kw=k: ((B(f32(r, 3, 2, 2, 5, 6)),), _kw)
                                      for k in _ARGMAX2D]
    return samples


def _spd(r, *shape):
    """Symmetric positive definite ``shape[-1]`` square matrices (a batch of ``shape[:-1]``)."""
    a = r.standard_normal(shape + (shape[-1],))
    return a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])


def _distinct(*shape):
    """Values without ties (max/min have kinks where two are equal), away from zero."""
    return lambda r: (r.permutation(int(np.prod(shape))).reshape(shape) + 1.0) / 4.0 * \
        r.choice([-1.0, 1.0], shape)


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers."""
    ids = lambda r: _IDS  # noqa: E731
    ids2 = lambda r: np.array([[0, 1], [1, 1], [2, 0]], np.int32)  # noqa: E731
    samples = {n_: [s(_distinct(4, 3), ids, 3), s(_distinct(3, 2, 2), ids2, 3)]
               for n_ in _SEGMENTS}
    # a segment with one zero and one with two (the product's special cases)
    samples["UnsortedSegmentProd"].append(
        s(lambda r: np.array([[0.0, 1.5], [2.0, 0.0], [0.0, -1.0], [0.5, 3.0]]), ids, 3))
    idx = lambda r: np.array([[0, 2], [1, 0]], np.int32)  # noqa: E731
    samples["TensorScatterElements"] = [s(n(4, 3), idx, n(2, 2)),
                                        s(n(4, 3), idx, n(2, 2), axis=1, reduction="add"),
                                        s(n(4, 3), idx, n(2, 2), axis=-1)]
    labels = (ids_of(_LABEL_IDX), ids_of(_LABELS), ids_of(_SEQ))
    samples["CTCLoss"] = [s(n(5, 2, 4), *labels), s(n(5, 2, 4), *labels,
                                                   preprocess_collapse_repeated=True),
                          s(n(5, 2, 4), *labels, ctc_merge_repeated=False)]
    samples["Svd"] = [s(n(3, 3)), s(n(4, 2)), s(n(2, 3)), s(n(2, 3, 3)),
                      s(n(3, 3), full_matrices=True), s(n(4, 2), compute_uv=False)]
    well = lambda *shape: lambda r: r.standard_normal(shape) + 3 * np.eye(shape[-1])  # noqa: E731
    samples.update({k: [s(well(3, 3)), s(well(2, 2, 2))]
                    for k in ("MatrixDeterminant", "LogMatrixDeterminant")})
    samples["LogMatrixDeterminant"].append(s(lambda r: -well(3, 3)(r)))
    samples["MatrixInverse"] = [s(well(3, 3)), s(well(2, 2, 2)), s(well(3, 3), adjoint=True)]
    samples["Qr"] = [s(n(3, 3)), s(n(4, 2)), s(n(2, 4)), s(n(2, 4, 3)),
                     s(n(2, 3), full_matrices=True)]
    samples["Cholesky"] = [s(lambda r: _spd(r, 3)), s(lambda r: _spd(r, 2, 3), upper=True)]
    distinct = _distinct(2, 1, 4, 5, 6)
    for name, kw in (("MaxPool3D", _MAX3D), ("AvgPool3D", _AVG3D)):
        samples[name] = [s(distinct, **a) for a in kw]
        samples[REGISTRY_GRADS[name]] = [s(distinct, n(2, 1, 4, 5, 6), n(2, 1, 2, 3, 3),
                                           **kw[0])]
    samples["MaxPool3DGradGrad"] = [s(distinct, n(2, 1, 4, 5, 6), n(2, 1, 4, 5, 6), **_MAX3D[0])]
    samples["MaxPool3DWithArgmax"] = [s(distinct, **a) for a in _ARGMAX]
    samples["MaxPoolWithArgmaxV2"] = [s(_distinct(2, 1, 5, 6), **a) for a in _ARGMAX2D]
    return samples


def ids_of(values):
    return lambda r: values
