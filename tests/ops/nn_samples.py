"""Registry-walk samples (tests/ops/test_bprop.py, test_vmap_rules.py) for the convolution,
pooling and batch-norm primitives of ``ops/defs/conv.py``, ``pool.py`` and ``norm.py``."""
import numpy as np

_CONV = {"out_channel": 4, "kernel_size": 3}
_CONV_G = {"out_channel": 4, "kernel_size": (2, 3), "group": 2, "stride": 2,
           "pad_mode": "pad", "pad": (1, 0, 1, 1), "dilation": (1, 2)}
_CONV3 = {"out_channel": 2, "kernel_size": 2, "pad_mode": "same"}
_POOL = {"kernel_size": 2, "strides": 2}
_POOL_SAME = {"kernel_size": 3, "strides": 2, "pad_mode": "same"}


def _distinct(*shape):
    """A random permutation: no ties in any max-pool window."""
    return lambda r: r.permutation(int(np.prod(shape))).reshape(shape) / 7.0


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers."""
    return {
        "Conv2D": [s(n(1, 2, 4, 4), n(4, 2, 3, 3), **_CONV),
                   s(n(2, 2, 5, 4), n(4, 1, 2, 3), **_CONV_G),
                   s(n(1, 2, 4, 5), n(4, 2, 3, 3), pad_mode="same", **_CONV)],
        "Conv2DBackpropInput": [s(n(1, 4, 2, 2), n(4, 2, 3, 3), (1, 2, 4, 4), **_CONV),
                                s(n(2, 4, 3, 1), n(4, 1, 2, 3), (2, 2, 5, 4), **_CONV_G)],
        "Conv2DBackpropFilter": [s(n(1, 4, 2, 2), n(1, 2, 4, 4), (4, 2, 3, 3), **_CONV),
                                 s(n(2, 4, 3, 1), n(2, 2, 5, 4), (4, 1, 2, 3), **_CONV_G)],
        "Conv3D": [s(n(1, 2, 3, 3, 2), n(2, 2, 2, 2, 2), **_CONV3)],
        "Conv3DBackpropInput": [s(n(1, 2, 3, 3, 2), n(2, 2, 2, 2, 2), (1, 2, 3, 3, 2), **_CONV3)],
        "Conv3DBackpropFilter": [s(n(1, 2, 3, 3, 2), n(1, 2, 3, 3, 2), (2, 2, 2, 2, 2),
                                   **_CONV3)],
        "MaxPool": [s(_distinct(1, 2, 4, 4), **_POOL), s(_distinct(1, 1, 5, 5), **_POOL_SAME)],
        "MaxPoolGrad": [s(_distinct(1, 2, 4, 4), n(1, 2, 2, 2), n(1, 2, 2, 2), **_POOL)],
        "MaxPoolGradGrad": [s(_distinct(1, 2, 4, 4), n(1, 2, 2, 2), n(1, 2, 4, 4), **_POOL)],
        "AvgPool": [s(n(1, 2, 4, 4), **_POOL), s(n(1, 1, 5, 5), **_POOL_SAME)],
        "AvgPoolGrad": [s(n(1, 1, 5, 5), n(1, 1, 3, 3), n(1, 1, 3, 3), **_POOL_SAME)],
        "SigmoidCrossEntropyWithLogits": [s(n(3, 4), u(0.0, 1.0, 3, 4))],
        "SmoothL1Loss": [s(n(3, 4), n(3, 4)), s(n(3, 4), n(3, 4), beta=0.5, reduction="mean"),
                         s(n(2, 3), n(2, 3), beta=2.0, reduction="sum")],
        "L2Normalize": [s(n(2, 3, 4)), s(n(2, 3, 4), axis=-1), s(n(2, 3, 4), axis=(0, 2))],
        "ResizeNearestNeighbor": [s(n(1, 2, 3, 4), size=(5, 3)),
                                  s(n(2, 1, 4, 3), size=(2, 6), align_corners=True)],
        "ResizeNearestNeighborGrad": [s(n(1, 2, 5, 3), n(1, 2, 3, 4)),
                                      s(n(2, 1, 2, 6), n(2, 1, 4, 3), align_corners=True)],
        "AdaptiveAvgPool2D": [s(n(1, 2, 5, 7), output_size=(2, 3)),
                              s(n(2, 4, 3), output_size=(None, 2))],
        "AdaptiveAvgPool2DGrad": [s(n(1, 2, 5, 7), n(1, 2, 2, 3), output_size=(2, 3))],
        "BatchNorm": [s(n(3, 2, 2, 2), n(2), n(2), n(2), u(0.5, 2.0, 2), is_training=True),
                      s(n(4, 3), n(3), n(3), n(3), u(0.5, 2.0, 3), is_training=True),
                      s(n(2, 2, 2, 2), n(2), n(2), n(2), u(0.5, 2.0, 2), is_training=False)],
    }

def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - test_vmap_rules' class names
    """Samples for test_vmap_rules.py, built with its input markers."""
    return {
        "Conv2D": [lambda r: ((B(f32(r, 3, 2, 2, 5, 5)), U(f32(r, 4, 2, 3, 3))), _CONV),
                   lambda r: ((U(f32(r, 2, 2, 5, 4)), B(f32(r, 3, 4, 1, 2, 3))), _CONV_G)],
        "Conv2DBackpropInput": [
            lambda r: ((B(f32(r, 3, 1, 4, 2, 2)), U(f32(r, 4, 2, 3, 3)), (1, 2, 4, 4)), _CONV),
            lambda r: ((B(f32(r, 3, 1, 4, 2, 2)), B(f32(r, 3, 4, 2, 3, 3)), (1, 2, 4, 4)), _CONV)],
        "Conv2DBackpropFilter": [
            lambda r: ((B(f32(r, 3, 1, 4, 2, 2)), U(f32(r, 1, 2, 4, 4)), (4, 2, 3, 3)), _CONV)],
        "Conv3D": [lambda r: ((B(f32(r, 3, 1, 2, 3, 3, 2)), U(f32(r, 2, 2, 2, 2, 2))), _CONV3)],
        "Conv3DBackpropInput": [
            lambda r: ((B(f32(r, 3, 1, 2, 3, 3, 2)), U(f32(r, 2, 2, 2, 2, 2)), (1, 2, 3, 3, 2)),
                       _CONV3)],
        "Conv3DBackpropFilter": [
            lambda r: ((B(f32(r, 3, 1, 2, 3, 3, 2)), B(f32(r, 3, 1, 2, 3, 3, 2)),
                        (2, 2, 2, 2, 2)), _CONV3)],
        "MaxPool": [lambda r: ((B(f32(r, 3, 2, 2, 4, 4)),), _POOL),
                    lambda r: ((B(f32(r, 3, 1, 1, 5, 5)),), _POOL_SAME)],
        "MaxPoolGrad": [lambda r: ((B(f32(r, 3, 1, 2, 4, 4)), U(f32(r, 1, 2, 2, 2)),
                                    B(f32(r, 3, 1, 2, 2, 2))), _POOL)],
        "MaxPoolGradGrad": [lambda r: ((B(f32(r, 3, 1, 2, 4, 4)), U(f32(r, 1, 2, 2, 2)),
                                        U(f32(r, 1, 2, 4, 4))), _POOL)],
        "AvgPool": [lambda r: ((B(f32(r, 3, 2, 2, 4, 4)),), _POOL),
                    lambda r: ((B(f32(r, 3, 1, 1, 5, 5)),), _POOL_SAME)],
        "AvgPoolGrad": [lambda r: ((U(f32(r, 1, 1, 5, 5)), U(f32(r, 1, 1, 3, 3)),
                                    B(f32(r, 3, 1, 1, 3, 3))), _POOL_SAME)],
        "BatchNorm": [
            lambda r: ((B(f32(r, 3, 4, 2, 2, 2)), U(f32(r, 2)), U(f32(r, 2)), U(f32(r, 2)),
                        U(f32(r, 2, lo=0.5, hi=2.0))), {"is_training": True}),
            lambda r: ((B(f32(r, 3, 4, 3)), B(f32(r, 3, 3)), U(f32(r, 3)), U(f32(r, 3)),
                        U(f32(r, 3, lo=0.5, hi=2.0))), {"is_training": False})],
        "StopGradient": [lambda r: ((B(f32(r, 3, 4, 5)),), {})],
        "SigmoidCrossEntropyWithLogits": [lambda r: ((B(f32(r, 3, 2, 4)), U(f32(r, 2, 4))),
                                                     {})],
        "SmoothL1Loss": [lambda r: ((B(f32(r, 3, 2, 4)), B(f32(r, 3, 2, 4))),
                                    {"reduction": "mean"})],
        "L2Normalize": [lambda r: ((B(f32(r, 3, 2, 4)),), {"axis": 1})],
        "ResizeNearestNeighbor": [lambda r: ((B(f32(r, 3, 1, 2, 3, 4)),), {"size": (5, 2)})],
        "ResizeNearestNeighborGrad": [lambda r: ((B(f32(r, 3, 1, 2, 5, 2)),
                                                  U(f32(r, 1, 2, 3, 4))), {})],
        "AdaptiveAvgPool2D": [lambda r: ((B(f32(r, 3, 1, 2, 5, 7)),), {"output_size": (2, 3)})],
        "AdaptiveAvgPool2DGrad": [lambda r: ((U(f32(r, 1, 2, 5, 7)), B(f32(r, 3, 1, 2, 2, 3))),
                                             {"output_size": (2, 3)})],
        "BoundingBoxDecode": [lambda r: ((B(f32(r, 3, 4, 4)), U(f32(r, 4, 4))),
                                         {"max_shape": (8, 8)})],
        "NMSWithMask": [lambda r: ((B(f32(r, 3, 5, 5)),), {"iou_threshold": 0.3})],
        "IOU": [lambda r: ((B(f32(r, 3, 4, 4)), U(f32(r, 2, 4))), {}),
                lambda r: ((U(f32(r, 4, 4)), B(f32(r, 3, 2, 4))), {"mode": "iof"})],
        "BoundingBoxEncode": [lambda r: ((B(f32(r, 3, 4, 4)), B(f32(r, 3, 4, 4))), {})],
        "SoftmaxCrossEntropyWithLogits": [
            lambda r: ((B(f32(r, 3, 2, 4)), U(f32(r, 2, 4, lo=0.0, hi=1.0))), {})],
        "SparseSoftmaxCrossEntropyWithLogits": [
            lambda r: ((B(f32(r, 3, 2, 4)), B(r.integers(0, 4, (3, 2)).astype(np.int32))), {}),
            lambda r: ((B(f32(r, 3, 2, 4)), U(np.array([1, 3], np.int32))), {"is_grad": True})],
        "CheckValid": [lambda r: ((B(f32(r, 3, 4, 4)), U(np.array([3.0, 2.0, 1.5],
                                                                  np.float32))), {})],
    }


def registry_samples(f32) -> dict:
    """Samples for test_registry.py (kernel output agrees with infer)."""
    from graphkiln import Parameter, Tensor

    def h16(*shape):
        return Tensor(f32(*shape).asnumpy().astype(np.float16))

    def p(*shape, value=0.5):
        return Parameter(Tensor(np.full(shape, value, np.float32)), name="w")

    g = f32(2, 3)
    return {
        "Conv2D": [((f32(1, 2, 4, 4), f32(4, 2, 3, 3)), _CONV),
                   ((h16(2, 2, 5, 4), h16(4, 1, 2, 3)), _CONV_G)],
        "Conv2DBackpropInput": [((f32(1, 4, 2, 2), f32(4, 2, 3, 3), (1, 2, 4, 4)), _CONV)],
        "Conv2DBackpropFilter": [((f32(1, 4, 2, 2), f32(1, 2, 4, 4), (4, 2, 3, 3)), _CONV)],
        "Conv3D": [((f32(1, 2, 3, 3, 2), f32(2, 2, 2, 2, 2)), _CONV3)],
        "Conv3DBackpropInput": [((f32(1, 2, 3, 3, 2), f32(2, 2, 2, 2, 2), (1, 2, 3, 3, 2)),
                                 _CONV3)],
        "Conv3DBackpropFilter": [((f32(1, 2, 3, 3, 2), f32(1, 2, 3, 3, 2), (2, 2, 2, 2, 2)),
                                  _CONV3)],
        "MaxPool": [((f32(1, 2, 4, 4),), _POOL), ((h16(1, 1, 5, 5),), _POOL_SAME)],
        "MaxPoolGrad": [((f32(1, 2, 4, 4), f32(1, 2, 2, 2), f32(1, 2, 2, 2)), _POOL)],
        "MaxPoolGradGrad": [((f32(1, 2, 4, 4), f32(1, 2, 2, 2), f32(1, 2, 4, 4)), _POOL)],
        "AvgPool": [((f32(1, 2, 4, 4),), _POOL), ((h16(1, 1, 5, 5),), _POOL_SAME)],
        "AvgPoolGrad": [((f32(1, 1, 5, 5), f32(1, 1, 3, 3), f32(1, 1, 3, 3)), _POOL_SAME)],
        "BatchNorm": [((f32(3, 2, 2, 2), f32(2), f32(2), f32(2), Tensor(np.ones(2, np.float32))),
                       {"is_training": True}),
                      ((h16(4, 3), f32(3), f32(3), f32(3), Tensor(np.ones(3, np.float32))),
                       {"is_training": False})],
        "StopGradient": [((f32(2, 3),), {})],
        "ApplyMomentum": [((p(2, 3), p(2, 3), 0.1, g, 0.9), {})],
        "SGD": [((p(2, 3), g, 0.1, p(2, 3), 0.9, p(2, 3, value=1.0)), {})],
        "Adam": [((p(2, 3), p(2, 3), p(2, 3), 0.9, 0.999, 0.01, 0.9, 0.999, 1e-8, g), {})],
        "ApplyAdamWithAmsgradV2": [((p(2, 3), p(2, 3), p(2, 3), p(2, 3), 0.9, 0.999, 0.01, 0.9,
                                     0.999, 1e-8, g), {})],
        "AdamWeightDecay": [((p(2, 3), p(2, 3), p(2, 3), 0.01, 0.9, 0.999, 1e-6, 0.01, g), {})],
        "ApplyRMSProp": [((p(2, 3), p(2, 3), p(2, 3), 0.01, g, 0.9, 0.0, 1e-10), {})],
        "ApplyCenteredRMSProp": [((p(2, 3), p(2, 3), p(2, 3, value=1.0), p(2, 3), g, 0.01, 0.9,
                                   0.0, 1e-10), {})],
        "ApplyAdagrad": [((p(2, 3), p(2, 3, value=0.1), 0.01, g), {})],
        "SigmoidCrossEntropyWithLogits": [((g, f32(2, 3)), {}), ((h16(2, 3), h16(2, 3)), {})],
        "SmoothL1Loss": [((g, f32(2, 3)), {}), ((g, f32(2, 3)), {"reduction": "sum"})],
        "L2Normalize": [((f32(2, 3),), {}), ((h16(2, 3),), {"axis": -1})],
        "ResizeNearestNeighbor": [((f32(1, 2, 3, 4),), {"size": (5, 2)}),
                                  ((h16(1, 1, 4, 4),), {"size": (2, 3), "align_corners": True})],
        "ResizeNearestNeighborGrad": [((f32(1, 2, 5, 2), f32(1, 2, 3, 4)), {})],
        "AdaptiveAvgPool2D": [((f32(1, 2, 5, 7),), {"output_size": (2, 3)}),
                              ((h16(2, 5, 4),), {"output_size": 2})],
        "AdaptiveAvgPool2DGrad": [((f32(1, 2, 5, 7), f32(1, 2, 2, 3)), {"output_size": (2, 3)})],
        "BoundingBoxDecode": [((f32(3, 4), f32(3, 4)), {"max_shape": (8, 8)})],
        "NMSWithMask": [((f32(4, 5),), {"iou_threshold": 0.5})],
        "IOU": [((f32(3, 4), f32(2, 4)), {}), ((f32(3, 4), f32(2, 4)), {"mode": "iof"})],
        "BoundingBoxEncode": [((f32(3, 4) + 3.0, f32(3, 4) + 3.0), {})],
        "SoftmaxCrossEntropyWithLogits": [((g, f32(2, 3)), {}), ((h16(2, 3), h16(2, 3)), {})],
        "SparseSoftmaxCrossEntropyWithLogits": [
            ((g, Tensor(np.array([2, 0], np.int32))), {}),
            ((h16(2, 3), Tensor(np.array([1, 1], np.int64))), {"is_grad": True})],
        "SparseSoftmaxCrossEntropyWithLogitsGradAndLoss": [
            ((g, Tensor(np.array([2, 0], np.int32))), {"sens": 2.0}),
            ((h16(2, 3), Tensor(np.array([1, 1], np.int64))), {})],
        "CheckValid": [((f32(3, 4), Tensor(np.array([3.0, 2.0, 1.5], np.float32))), {})],
        **_update_samples(Parameter, Tensor),
    }


def _update_samples(parameter, tensor) -> dict:
    """The recorded optimizer-update cases (fixtures/optimizer_update_cases.py) as samples."""
    from fixtures.optimizer_update_cases import cases, make_input, op_name
    samples: dict = {}
    for case, (kwargs, slots, inputs) in cases().items():
        args = tuple(parameter(tensor(s), name=f"s{i}") for i, s in enumerate(slots)) + tuple(
            make_input(x, tensor) for x in inputs)
        samples.setdefault(op_name(case), []).append((args, kwargs))
    return samples
