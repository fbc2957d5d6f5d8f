"""``Tensor._offload()`` / ``_load()`` (MindSpore's host/device moves) leave the data as it
is and return None, as on MindSpore 2.10 CPU; calling them twice is fine."""
import numpy as np

import graphkiln as ms


def test_offload_and_load_keep_the_data():
    x = ms.Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.float32))
    p = ms.Parameter(ms.Tensor(np.array([1.5], np.float32)), name="p")
    for t in (x, p):
        assert t._offload() is None
        assert t._offload() is None
        assert t._load() is None
    np.testing.assert_array_equal(x.asnumpy(), [[1, 2, 3], [4, 5, 6]])
    np.testing.assert_array_equal((p + 1).asnumpy(), [2.5])
