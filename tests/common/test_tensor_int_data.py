"""Python ints as Tensor data: int64, or uint64 above int64's range, cast with C's wrapping to
an explicit dtype; beyond 64 bits RuntimeError (TypeError inside a list), as MindSpore 2.10
does (fixtures/tensor_int_data.json, recorded by fixtures/record_tensor_int_data.py)."""
import json
import os

import numpy as np
import pytest

from graphkiln import Tensor
from graphkiln.common import dtype as mstype

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tensor_int_data.json")) as _f:
    ROWS = json.load(_f)


def _data(row):
    d = row["data"]
    return int(d) if isinstance(d, str) else [int(v) for v in d]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r['data']}-{r['dtype']}")
def test_int_data_matches_mindspore(row):
    data, name = _data(row), row["dtype"]
    kind, want = row["outcome"]
    if kind == "error":
        with pytest.raises({"RuntimeError": RuntimeError, "TypeError": TypeError}[want]):
            Tensor(data, getattr(mstype, name)) if name else Tensor(data)
        return
    t = Tensor(data, getattr(mstype, name)) if name else Tensor(data)
    assert str(t.dtype) == kind
    assert str(np.asarray(t.asnumpy()).astype(object).tolist()) == want
