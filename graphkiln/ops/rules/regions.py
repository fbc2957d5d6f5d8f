"""Backward and batching rules of ``ROIAlign`` (:mod:`..defs.roi_align`),
``CropAndResize`` (:mod:`..defs.crop_and_resize`) and ``PSROIPooling``
(:mod:`..defs.ps_roi_pooling`) with their gradients: each gradient op is linear in its
cotangent, the adjoint of its forward op."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..defs import crop_and_resize as CR
from ..defs import ps_roi_pooling as PS
from ..defs import roi_align as RA
from .batching_nn import per_example_rule
from .bprop import bprop


def _roi_attrs(attrs: dict) -> dict:
    return {k: attrs[k] for k in RA.ATTRS if k in attrs}


@bprop("ROIAlign")
def _roi_align(features, rois, out, dout, **attrs):
    dx = RA.ROIAlignGrad(dout, rois, tuple(features.shape), **_roi_attrs(attrs))
    return dx, F.zeros_like(rois)


@bprop("ROIAlignGrad")
def _roi_align_grad(dy, rois, xdiff_shape, out, dout, **attrs):
    return RA.ROIAlign(dout, rois, **_roi_attrs(attrs)), F.zeros_like(rois), None


@bprop("PSROIPooling")
def _ps_roi_pooling(features, rois, out, dout, **attrs):
    dx = PS.PSROIPoolingGrad(dout, rois, input_size=tuple(features.shape[2:]), **attrs)
    return dx, F.zeros_like(rois)


@bprop("CropAndResize")
def _crop_and_resize(image, boxes, box_index, crop_size, out, dout, method="bilinear",
                     extrapolation_value=0.0):
    d_image = CR.CropAndResizeGradImage(dout, boxes, box_index, tuple(image.shape),
                                        method=method, T=image.dtype)
    d_boxes = CR.CropAndResizeGradBoxes(dout, image, boxes, box_index)
    return d_image, d_boxes, None, None


@bprop("CropAndResizeGradImage")
def _crop_grad_image(grads, boxes, box_index, image_size, out, dout, method="bilinear",
                     T=None):  # noqa: N803
    crop = tuple(grads.shape[1:3])
    d_grads = CR.CropAndResize(F.cast(dout, grads.dtype) if dout.dtype != grads.dtype
                               else dout, boxes, box_index, crop, method=method)
    return d_grads, F.zeros_like(boxes), None, None


for _name in ("ROIAlign", "ROIAlignGrad", "CropAndResize", "CropAndResizeGradImage",
              "CropAndResizeGradBoxes", "PSROIPooling"):
    per_example_rule(_name)  # each example on its own: boxes read any image of the batch
del _name
