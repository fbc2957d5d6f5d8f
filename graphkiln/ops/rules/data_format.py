"""Batching rule of ``DataFormatDimMap`` (:mod:`..defs.data_format`): elementwise."""
from ...ir.primitive import REGISTRY
from .batching import _elementwise

REGISTRY["DataFormatDimMap"].def_vmap(_elementwise(REGISTRY["DataFormatDimMap"]))
