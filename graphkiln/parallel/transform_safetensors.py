"""``mindspore.parallel.transform_safetensors``: graphkiln has its reader of whole
``.safetensors`` files, ``_fast_load_file`` (the redistribution of sharded files between
parallel strategies is not supported: graphkiln runs data parallel)."""
from __future__ import annotations

import numpy as np
import safetensors.numpy


def _fast_load_file(filename: str) -> dict[str, np.ndarray]:
    """Every tensor of the safetensors file ``filename``, by name, as NumPy arrays."""
    return safetensors.numpy.load_file(filename)
