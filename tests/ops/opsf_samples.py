"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for ``PadV3``/``PadV3Grad`` (``ops/defs/pad_v3.py``) and ``MultinomialWithReplacement``
(``ops/defs/multinomial_draws.py``, not differentiable, refused by vmap),
``SparseSegmentMeanWithNumSegments`` (``ops/defs/sparse_segment.py``), ``FFTShift``/``IFFTShift``
(``ops/defs/fft_shift.py``)."""
import numpy as np

from graphkiln import Tensor

NON_DIFFERENTIABLE = {"MultinomialWithReplacement": "random integer category draws"}


_SEG_IDX = np.array([0, 2, 1, 3, 3], np.int32)
_SEG_GAPS = np.array([0, 0, 2, 2, 4], np.int32)  # sorted ids with a gap, 6 segments
_SIX = np.array([6], np.int32)


def _pads(*v):
    return Tensor(np.array(v, np.int64))


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    img = f32(1, 2, 3, 4)
    return {"PadV3": [((img, _pads(1, 2, 0, 1), Tensor(np.float32(1.5))), {}),
                      ((img, (1, -1, 2, 1)), {"mode": "circular"}),
                      ((img, _pads(1, 2, 2, 0)), {"mode": "reflect",
                                                  "paddings_contiguous": False}),
                      ((Tensor(np.arange(6, dtype=np.int32).reshape(1, 2, 3)), (1, 1)),
                       {"mode": "edge"})],
            "PadV3Grad": [((f32(1, 2, 4, 7), _pads(1, 2, 0, 1)), {}),
                          ((f32(1, 2, 6, 4), (1, -1, 2, 1)), {"mode": "circular"})],
            "MultinomialWithReplacement": [
                ((Tensor(np.array([[1.0, 0.0, 3.0], [2.0, 2.0, 1.0]], np.float32)),
                  Tensor(np.array([5], np.int64)), Tensor(np.array([2], np.int64))),
                 {"numsamples": 4, "replacement": True}),
                ((Tensor(np.array([1.0, 2.0, 3.0], np.float64)), 3, 0),
                 {"numsamples": 2, "replacement": False})],
            "SparseSegmentMeanWithNumSegments": [
                ((f32(4, 3), Tensor(_SEG_IDX), Tensor(_SEG_GAPS), Tensor(_SIX)), {})],
            **{n: [((f32(2, 3, 5),), {}), ((f32(2, 3, 5), (0, -1)), {}),
                   ((Tensor(np.arange(7, dtype=np.int32)), 0), {})]
               for n in ("FFTShift", "IFFTShift")}}


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - the harness's maker names
    """Samples for test_batching_rules.py, built with its makers."""
    pads = np.array([1, 2, 0, 1], np.int64)
    return {"PadV3": [lambda r: ((B(f32(r, 3, 1, 2, 3, 4)), U(pads)), {"mode": "reflect"}),
                      lambda r: ((B(f32(r, 3, 2, 3, 4)), U(pads), B(f32(r, 3))), {}),
                      lambda r: ((B(f32(r, 3, 2, 3, 4)), B(np.array(
                          [[1, 0], [0, 1], [-1, 2]], np.int64))), {"mode": "circular"})],
            "PadV3Grad": [lambda r: ((B(f32(r, 3, 1, 2, 4, 7)), U(pads)), {"mode": "edge"})],
            "SparseSegmentMeanWithNumSegments": [
                lambda r: ((B(f32(r, 3, 4, 2)), U(_SEG_IDX), U(_SEG_GAPS), U(_SIX)), {})],
            **{n: [lambda r: ((B(f32(r, 3, 2, 5)),), {}),
                   lambda r: ((B(f32(r, 3, 4, 5)), (-1,)), {}),
                   lambda r: ((B(f32(r, 3, 4, 5)), 0), {})]
               for n in ("FFTShift", "IFFTShift")}}


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers."""
    pads = np.array([1, 2, -1, 1], np.int64)
    return {"PadV3": [s(n(1, 2, 3, 4), pads, n()), s(n(1, 2, 3, 4), pads, mode="circular"),
                      s(n(2, 3, 4), (2, 1), mode="reflect", paddings_contiguous=False),
                      s(n(2, 3, 4), (2, 1), mode="edge")],
            "PadV3Grad": [s(n(1, 2, 4, 7), pads), s(n(2, 4, 7), (2, 1), mode="reflect")],
            "SparseSegmentMeanWithNumSegments": [s(n(4, 3), Tensor(_SEG_IDX), Tensor(_SEG_GAPS),
                                                   Tensor(_SIX))],
            **{name: [s(n(2, 3, 5)), s(n(4, 5), (1,)), s(n(3, 4), -2)]
               for name in ("FFTShift", "IFFTShift")}}
