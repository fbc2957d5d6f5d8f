"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for the primitives of ``ops/defs/elementwise.py``, ``ranges.py`` and ``row_updates.py``."""
import numpy as np

from graphkiln import Tensor

_DIFFERENTIABLE_UNARY = ("Inv", "Erfc", "Erfinv", "Asinh", "Acosh", "Atanh", "Elu", "CeLU")
# float16/float32 kernels only (as MindSpore's): their gradients are checked in float32 by
# tests/ops/test_elementwise_ops.py, not by test_bprop's float64 finite differences
FLOAT32_ONLY = ("HShrink", "FastGeLU", "HShrinkGrad", "FastGeLUGrad")

NON_DIFFERENTIABLE = {
    "Invert": "integer bits", "IsNan": "boolean output", "IsInf": "boolean output",
    "IsFinite": "boolean output",
    **{n: "MindSpore defines no gradient for it: zero cotangents (checked against MindSpore in "
          "tests/ops/test_rows_ranges.py)"
       for n in ("LinSpace", "InplaceAdd", "InplaceSub", "InplaceUpdate", "InplaceUpdateV2")}}

# inputs whose cotangent MindSpore defines as zero (checked against MindSpore's gradients in
# tests/ops/test_kl_div.py and test_bce.py)
ZERO_BY_DEFINITION = {"KLDivLoss": (1,), "BinaryCrossEntropy": (2,), "BCEWithLogitsLoss": (2, 3)}

CHECKED_ELSEWHERE = {n: "float16/float32 only (as MindSpore): its gradient is checked in "
                        "float32 by tests/ops/test_elementwise_ops.py" for n in FLOAT32_ONLY}


def _domain(name: str) -> tuple[float, float]:
    """An input range inside the op's domain, away from kinks."""
    return {"Acosh": (1.2, 3.0), "Erfinv": (-0.9, 0.9), "Atanh": (-0.9, 0.9),
            "Inv": (0.5, 2.0), "InvGrad": (0.5, 2.0),
            "SqrtGrad": (0.5, 2.0)}.get(name, (-2.0, 2.0))


def _distinct(*shape):
    """Values without ties (a running min/max has a kink where two are equal)."""
    return lambda r: r.permutation(int(np.prod(shape))).reshape(shape) / 3.0 - 1.0


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    x = f32(2, 3)
    half = Tensor(np.array([-1.5, -0.2, 0.0, 0.7], np.float16))
    ints = Tensor(np.array([[0, 1, -3], [4, 5, 2]], np.int32))
    prob = Tensor(np.linspace(0.1, 0.9, 6).astype(np.float32).reshape(2, 3))
    half_prob = Tensor(np.array([0.2, 0.5, 0.7, 1.0], np.float16))
    Y = f32(3)  # noqa: N806 - a row vector, broadcast
    samples = {n: [((x,), {}), ((half,), {})] for n in
               ("Erfc", "Asinh", "Atanh", "IsInf", "Elu", "CeLU", "HShrink", "FastGeLU")}
    samples.update({
        "Inv": [((x,), {}), ((ints,), {})],
        "Erfinv": [((Tensor(np.linspace(-1.0, 1.0, 6)),), {})],
        "Acosh": [((Tensor(np.linspace(1.0, 4.0, 6).astype(np.float32)),), {})],
        "Invert": [((ints,), {}), ((Tensor(np.arange(4, dtype=np.uint16)),), {})],
        "IsNan": [((x,), {}), ((ints,), {})],
        "IsFinite": [((x,), {}), ((ints,), {})],
        **{n: [((x, f32(2, 3)), {})] for n in ("InvGrad", "AtanGrad", "EluGrad", "HShrinkGrad",
                                                "FastGeLUGrad", "HSigmoidGrad", "HSwishGrad",
                                                "ReciprocalGrad", "RsqrtGrad", "SqrtGrad")},
        "GeLUGrad": [((x, f32(2, 3) * 2, x), {}), ((half, half, half), {})],
        "BiasAddGrad": [((f32(2, 3, 2),), {}), ((Tensor(np.ones((2, 2, 3), np.int8)),),
                                                {"data_format": "NHWC"})],
        "Ger": [((f32(3), f32(2)), {}), ((half, half[:2]), {})],
        "LinSpace": [((Tensor(np.float32(-1.5)), Tensor(np.float32(2.0)), 5), {}),
                     ((Tensor(np.float64(2.0)), Tensor(np.float64(-1.0)), 1), {})],
        **{n: [((f32(4, 3), f32(2, 3)), {"indices": (3, 1)}),
               ((Tensor(np.arange(8, dtype=np.uint16).reshape(4, 2)),
                 Tensor(np.ones((1, 2), np.uint16))), {"indices": 2})]
           for n in ("InplaceAdd", "InplaceSub", "InplaceUpdate")},
        "InplaceUpdateV2": [((f32(4, 3), Tensor(np.array([3, 0], np.int32)), f32(2, 3)), {})],
        "Dropout2D": [((f32(2, 3, 2, 2),), {"keep_prob": 0.4}),
                      ((Tensor(np.ones((1, 2, 1, 3), np.int16)), 7), {})],
        "Dropout3D": [((f32(2, 3, 1, 2, 2),), {"keep_prob": 0.0})],
        "CumSum": [((x, 1), {}), ((ints, -2), {"exclusive": True, "reverse": True}),
                   ((half, Tensor(np.int64(0))), {})],
        **{n: [((x, 1), {}), ((ints, 0), {}), ((half, -1), {})] for n in ("Cummin", "Cummax")},
        "DepthToSpace": [((f32(1, 8, 2, 3),), {}), ((Tensor(np.ones((2, 9, 1, 2), np.uint8)),),
                                                    {"block_size": 3})],
        "BatchToSpaceND": [((f32(8, 2, 2, 3),), {"block_shape": [2, 2],
                                                 "crops": [[0, 1], [1, 0]]}),
                           ((f32(4, 2, 3),), {"block_shape": [2], "crops": [[1, 0]]})],
        "BinaryCrossEntropy": [((prob, prob), {}), ((prob, prob, prob), {"reduction": "none"}),
                               ((half_prob, half_prob, None), {"reduction": "sum"})],
        "BCEWithLogitsLoss": [((x, prob, Y, f32(1, 3)), {}),
                              ((half, half_prob, half, half), {"reduction": "none"})],
        "KLDivLoss": [((x, f32(2, 3)), {}), ((half, half), {"reduction": "none"}),
                      ((x, f32(2, 3)), {"reduction": "batchmean"})],
        "KLDivLossGrad": [((Tensor(np.float32(1.5)), x, f32(2, 3)), {"reduction": "sum"}),
                          ((x, x, f32(2, 3)), {"reduction": "none"})],
    })
    return samples


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - test_batching_rules' class names
    """Samples for test_batching_rules.py, built with its input markers."""
    def unary(name):
        lo, hi = _domain(name)
        return [lambda r: ((B(f32(r, 3, 4, 5, lo=lo, hi=hi)),), {}),
                lambda r: ((B(f32(r, 3, lo=lo, hi=hi)),), {})]

    def binary(name):
        lo, hi = _domain(name)
        return [lambda r: ((B(f32(r, 3, 4, lo=lo, hi=hi)), B(f32(r, 3, 4))), {}),
                lambda r: ((U(f32(r, 4, lo=lo, hi=hi)), B(f32(r, 3, 4))), {})]

    samples = {n: unary(n) for n in _DIFFERENTIABLE_UNARY + ("HShrink", "FastGeLU", "IsNan",
                                                            "IsInf", "IsFinite")}
    samples["Invert"] = [lambda r: ((B(r.integers(-50, 50, (3, 4)).astype(np.int32)),), {})]
    samples.update({n: binary(n) for n in ("InvGrad", "AtanGrad", "EluGrad", "HShrinkGrad",
                                           "FastGeLUGrad", "HSigmoidGrad", "HSwishGrad",
                                           "ReciprocalGrad", "RsqrtGrad", "SqrtGrad")})
    samples["GeLUGrad"] = [lambda r: ((B(f32(r, 3, 4)), B(f32(r, 3, 4)), U(f32(r, 4))), {})]
    samples["BiasAddGrad"] = [lambda r: ((B(f32(r, 3, 2, 4, 5)),), {}),
                              lambda r: ((B(f32(r, 3, 2, 4)),), {"data_format": "NHWC"})]
    samples["Ger"] = [lambda r: ((B(f32(r, 3, 4)), B(f32(r, 3, 2))), {}),
                      lambda r: ((U(f32(r, 4)), B(f32(r, 3, 2))), {})]
    samples["LinSpace"] = [lambda r: ((B(f32(r, 3)), B(f32(r, 3) + 2), 4), {})]
    rows = [lambda r: ((B(f32(r, 3, 4, 2)), U(f32(r, 2, 2))), {"indices": (2, 0)}),
            lambda r: ((B(f32(r, 3, 4, 2)), B(f32(r, 3, 1, 2))), {"indices": 1})]
    samples.update({n: rows for n in ("InplaceAdd", "InplaceSub", "InplaceUpdate")})
    samples["Dropout2D"] = [lambda r: ((B(f32(r, 3, 2, 3, 2, 2)), 5), {"keep_prob": 0.5})]
    samples["Dropout3D"] = [lambda r: ((B(f32(r, 3, 2, 3, 1, 2, 2)), 5), {"keep_prob": 0.5})]
    samples.update({n: [lambda r: ((B(f32(r, 3, 4, 5)), 1), {}),
                        lambda r: ((B(f32(r, 3, 4)), -1), {})] for n in ("Cummin", "Cummax")})
    samples["CumSum"] = [lambda r: ((B(f32(r, 3, 4, 5)), 0), {"exclusive": True}),
                         lambda r: ((B(f32(r, 3, 4)), -1), {"reverse": True})]
    samples["DepthToSpace"] = [lambda r: ((B(f32(r, 3, 1, 8, 2, 3)),), {})]
    samples["BatchToSpaceND"] = [lambda r: ((B(f32(r, 3, 8, 2, 2, 3)),),
                                            {"block_shape": [2, 2], "crops": [[0, 1], [1, 0]]})]
    samples["BinaryCrossEntropy"] = [
        lambda r: ((B(f32(r, 3, 2, 4, lo=0.1, hi=0.9)), B(f32(r, 3, 2, 4, lo=0, hi=1)),
                    U(f32(r, 2, 4, lo=0.5, hi=2))), {"reduction": "none"})]
    samples["BCEWithLogitsLoss"] = [
        lambda r: ((B(f32(r, 3, 2, 4)), B(f32(r, 3, 2, 4, lo=0, hi=1)), U(f32(r, 4)),
                    U(f32(r, 4, lo=0.5, hi=2))), {})]
    samples["KLDivLoss"] = [
        lambda r: ((B(f32(r, 3, 2, 4)), B(f32(r, 3, 2, 4, lo=0.1, hi=1.0))), {}),
        lambda r: ((B(f32(r, 3, 2, 4)), U(f32(r, 2, 4))), {"reduction": "none"}),
        lambda r: ((U(f32(r, 2, 4)), B(f32(r, 3, 2, 4))), {"reduction": "batchmean"})]
    samples["KLDivLossGrad"] = [
        lambda r: ((B(f32(r, 3, 1)), B(f32(r, 3, 2, 4)), U(f32(r, 2, 4))), {}),
        lambda r: ((B(f32(r, 3, 2, 4)), U(f32(r, 2, 4)), B(f32(r, 3, 2, 4))),
                   {"reduction": "none"})]
    samples["InplaceUpdateV2"] = [
        lambda r: ((B(f32(r, 3, 4, 2)), U(np.array([3, 1], np.int32)), B(f32(r, 3, 2, 2))), {})]
    return samples


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers."""
    samples = {name: [s(u(*_domain(name), 2, 3))] for name in _DIFFERENTIABLE_UNARY}
    samples["Elu"].append(s(u(-3.0, -0.1, 4)))
    samples["CeLU"].append(s(u(-3.0, 3.0, 4), alpha=2.0))
    samples.update({"InvGrad": [s(u(0.5, 2.0, 2, 3), n(2, 3))],
                    "ReciprocalGrad": [s(u(0.5, 2.0, 2, 3), n(2, 3))],
                    "RsqrtGrad": [s(u(0.5, 2.0, 2, 3), n(2, 3))],
                    "SqrtGrad": [s(u(0.5, 2.0, 2, 3), n(2, 3))],
                    "AtanGrad": [s(n(2, 3), n(2, 3))],
                    "EluGrad": [s(n(2, 3), u(0.1, 2.0, 2, 3)), s(n(3), u(-0.9, -0.1, 3))],
                    "HSigmoidGrad": [s(n(2, 3), u(-2.5, 2.5, 2, 3)), s(n(2), u(3.5, 5.0, 2))],
                    "HSwishGrad": [s(n(2, 3), u(-2.5, 2.5, 2, 3)), s(n(2), u(3.5, 5.0, 2))],
                    "GeLUGrad": [s(n(2, 3), n(2, 3), n(2, 3))],
                    "Ger": [s(n(3), n(2))],
                    "BiasAddGrad": [s(n(2, 3, 2)), s(n(2, 2, 3), data_format="NHWC")],
                    "Dropout2D": [s(n(2, 3, 2, 2), 11, keep_prob=0.5)],
                    "Dropout3D": [s(n(2, 3, 1, 2, 2), 11, keep_prob=0.7)],
                    "CumSum": [s(n(2, 3), 1), s(n(3, 2), 0, exclusive=True, reverse=True)],
                    **{k: [s(_distinct(2, 4), 1), s(_distinct(3, 2), -2)]
                       for k in ("Cummin", "Cummax")},
                    "DepthToSpace": [s(n(1, 8, 2, 3)), s(n(2, 9, 1, 2), block_size=3)],
                    "BatchToSpaceND": [s(n(8, 2, 2, 3), block_shape=[2, 2],
                                         crops=[[0, 1], [1, 0]]),
                                       s(n(4, 2, 3), block_shape=[2], crops=[[1, 0]])],
                    # (the first sample has no weight: None is a valid weight)
                    "BinaryCrossEntropy": [s(u(0.1, 0.9, 2, 3), u(0, 1, 2, 3)),
                                           s(u(0.1, 0.9, 2, 3), u(0, 1, 2, 3), u(0.5, 2, 2, 3)),
                                           s(u(0.1, 0.9, 4), u(0, 1, 4), u(0.5, 2, 4),
                                             reduction="none")],
                    "BCEWithLogitsLoss": [s(n(2, 3), u(0, 1, 2, 3), u(0.5, 2, 3), u(0.5, 2, 3)),
                                          s(n(4), u(0, 1, 4), u(0.5, 2, 4), u(0.5, 2, 1),
                                            reduction="sum")],
                    "KLDivLoss": [s(n(2, 3), u(0.1, 2.0, 2, 3)),
                                  s(n(3, 2), u(0.1, 2.0, 3, 2), reduction="none"),
                                  s(n(2, 3), u(0.1, 2.0, 2, 3), reduction="batchmean"),
                                  s(n(4), u(0.1, 2.0, 4), reduction="sum")],
                    "KLDivLossGrad": [s(n(1), n(2, 3), n(2, 3)),
                                      s(n(2, 3), n(2, 3), n(2, 3), reduction="none"),
                                      s(n(1), n(3, 2), n(3, 2), reduction="batchmean")]})
    return samples
