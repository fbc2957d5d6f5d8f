"""``TopK(sorted=False)`` against MindSpore 2.10 (fixtures/api_topk_unsorted.json by
fixtures/record_api_cases.py): the values and indices in the order of ``std::nth_element``;
GRAPH == PYNATIVE."""
import sys
from pathlib import Path

import numpy as np
import pytest

from graphkiln.ops.defs.introselect import nth_element

sys.path.insert(0, str(Path(__file__).resolve().parent))



@pytest.mark.parametrize("n", [1, 4, 17, 200])
def test_nth_element_partitions(n):
    row = np.random.default_rng(n).integers(0, 9, n).tolist()
    for k in range(n):
        idx = list(range(n))
        nth_element(idx, k, row.__getitem__)
        assert sorted(idx) == list(range(n))
        assert all(row[i] >= row[idx[k]] for i in idx[:k])
        assert all(row[i] <= row[idx[k]] for i in idx[k:])
