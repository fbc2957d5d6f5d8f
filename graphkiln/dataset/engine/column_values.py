"""The values of a row's columns: NumPy arrays, or Python dicts. MindSpore passes a dict a
source yields or a function returns through the pipeline as it is (``map`` functions get
the dict), ``batch`` stacks it key by key, and the iterators give it back as a dict of
Tensors (of arrays with ``output_numpy``), lists in it as lists."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np


def as_column(value):
    """A column value: a dict as it is, anything else as an ndarray."""
    if isinstance(value, (dict, np.ndarray)):
        return value
    return np.asarray(value)


def stack_values(values: list, stack: Callable):
    """One batch of a column: ``stack(arrays)``, or, for dicts, a dict stacked per key."""
    if isinstance(values[0], dict):
        return {k: stack_values([as_column(v[k]) for v in values], stack) for k in values[0]}
    return stack([as_column(v) for v in values])


def inside_dict(value, leaf: Callable):
    """A value inside a dict column as the iterators give it: ``leaf`` of each array."""
    if isinstance(value, dict):
        return {k: inside_dict(v, leaf) for k, v in value.items()}
    if isinstance(value, list):
        return [inside_dict(v, leaf) for v in value]
    return leaf(value if isinstance(value, np.ndarray) else np.asarray(value))
