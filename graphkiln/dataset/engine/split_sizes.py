"""The row counts of ``Dataset.split``'s parts, from ints or fractions, as MindSpore's."""
from __future__ import annotations

import math

import numpy as np


def split_counts(sizes, total: int) -> list[int]:
    sizes = list(sizes)
    if not sizes:
        raise ValueError("sizes cannot be empty.")
    if all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in sizes):
        if any(s <= 0 for s in sizes) or sum(sizes) != total:
            raise RuntimeError(f"Sum of split sizes {sum(sizes)} is not equal to dataset size "
                               f"{total}.")
        return [int(s) for s in sizes]
    if all(isinstance(s, float) for s in sizes):
        if any(not 0 < s <= 1 for s in sizes) or not math.isclose(sum(sizes), 1.0):
            raise ValueError("Sum of split sizes should be 1 and each size in (0, 1], "
                             f"but got {sizes}.")
        counts = [round(s * total) for s in sizes]
        counts[0] += total - sum(counts)
        if any(c <= 0 for c in counts):
            raise RuntimeError(f"Split {sizes} of a dataset of {total} rows gives an empty "
                               "split.")
        return counts
    raise TypeError("sizes should be a list of int or a list of float.")
