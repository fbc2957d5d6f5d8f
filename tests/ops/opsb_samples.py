"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for ``AsinGrad``/``ACosGrad`` (``ops/defs/arc_grads.py``), ``DataFormatDimMap``
(``ops/defs/data_format.py``) and ``ResizeBilinearV2``/``ResizeBilinearGrad``
(``ops/defs/resize_bilinear.py``) and
``UpdateCache``/``SubAndFilter`` (``ops/defs/embedding_cache.py``),
``SparseSparseMinimum``/``SparseSparseMaximum`` (``ops/defs/sparse_minmax.py``)."""
import numpy as np

from graphkiln import Parameter, Tensor

NON_DIFFERENTIABLE = {"DataFormatDimMap": "integer dimension indices",
                      "SubAndFilter": "integer filtering and positions",
                      "UpdateCache": "writes a weight's rows (MindSpore defines no gradient)",
                      **{n: "sparse merge (MindSpore defines no gradient)"
                         for n in ("SparseSparseMinimum", "SparseSparseMaximum")}}

_ARC_GRADS = ("AsinGrad", "ACosGrad")


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    x = Tensor(np.linspace(-0.9, 0.9, 6).astype(np.float32).reshape(2, 3))
    half = Tensor(np.array([-0.5, 0.0, 0.25, 0.75], np.float16))
    dims = Tensor(np.array([[-4, -1, 0], [1, 2, 7]], np.int64))
    img = f32(1, 2, 3, 4)
    return {**{n: [((x, f32(2, 3)), {}), ((half, half), {})] for n in _ARC_GRADS},
            "ResizeBilinearV2": [((img, (5, 7)), {}), ((img, (2, 3)), {"align_corners": True}),
                                 ((Tensor(np.ones((1, 1, 2, 2), np.float16)), (3, 3)),
                                  {"half_pixel_centers": True})],
            "UpdateCache": [((Parameter(Tensor(np.zeros((4, 2), np.float32)), name="cache"),
                              Tensor(np.array([[3, -1, 9]], np.int32)), f32(3, 2), 4), {})],
            "SubAndFilter": [((Tensor(np.array([1, 3, 5, 8, 9, 16], np.int32)), 10, 5), {}),
                             ((Tensor(np.arange(6, dtype=np.int64)), 2, 1), {})],
            **{n: [((Tensor(np.array([[0, 0], [1, 1]], np.int64)), f32(2),
                      Tensor(np.array([2, 3], np.int64)), Tensor(np.array([[0, 0], [0, 2]],
                                                                           np.int64)),
                      f32(2), Tensor(np.array([2, 3], np.int64))), {})]
               for n in ("SparseSparseMinimum", "SparseSparseMaximum")},
            "ResizeBilinearGrad": [((f32(1, 2, 5, 7), img), {}),
                                   ((f32(1, 2, 2, 3), img), {"half_pixel_centers": True})],
            "DataFormatDimMap": [((dims,), {}), ((Tensor(np.arange(-4, 4, dtype=np.int32)),),
                                                 {"src_format": "NCHW", "dst_format": "NHWC"})]}


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - the harness's maker names
    """Samples for test_batching_rules.py, built with its makers."""
    arc = [lambda r: ((B(f32(r, 3, 4, lo=-0.9, hi=0.9)), B(f32(r, 3, 4))), {}),
           lambda r: ((U(f32(r, 4, lo=-0.9, hi=0.9)), B(f32(r, 3, 4))), {})]
    dims = [lambda r: ((B(r.integers(-4, 4, (3, 5)).astype(np.int32)),), {}),
            lambda r: ((B(r.integers(-4, 4, (3, 2, 2)).astype(np.int64)),),
                       {"src_format": "NCHW", "dst_format": "NHWC"})]
    resize = [lambda r: ((B(f32(r, 3, 1, 2, 3, 4)), (5, 6)), {}),
              lambda r: ((B(f32(r, 3, 2, 1, 4, 3)), (2, 5)), {"align_corners": True})]
    grad = [lambda r: ((B(f32(r, 3, 1, 2, 5, 6)), U(f32(r, 1, 2, 3, 4))), {}),
            lambda r: ((B(f32(r, 3, 2, 1, 2, 5)), B(f32(r, 3, 2, 1, 4, 3))),
                       {"half_pixel_centers": True})]
    return {**{n: arc for n in _ARC_GRADS}, "DataFormatDimMap": dims,
            "ResizeBilinearV2": resize, "ResizeBilinearGrad": grad}


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers."""
    return {**{name: [s(u(-0.8, 0.8, 2, 3), n(2, 3))] for name in _ARC_GRADS},
            "ResizeBilinearV2": [s(n(1, 2, 3, 4), (5, 7)),
                                 s(n(2, 1, 4, 3), (3, 2), align_corners=True),
                                 s(n(1, 1, 3, 3), (4, 5), half_pixel_centers=True)],
            "ResizeBilinearGrad": [s(n(1, 2, 5, 7), n(1, 2, 3, 4)),
                                   s(n(1, 1, 2, 5), n(1, 1, 3, 3), half_pixel_centers=True)]}
