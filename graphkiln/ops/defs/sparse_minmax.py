"""``SparseSparseMinimum`` and ``SparseSparseMaximum``: the elementwise minimum/maximum of two
COO tensors of one dense shape, over the union of their stored positions (a position only
one side stores compares with the other's implicit zero), merged as MindSpore's CPU kernel
merges them (:func:`.sparse_add.merge_sorted`). Inside a graph the number of stored values
is a leading dimension known only at run time."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import NUMBERS, UNKNOWN_DIM, require_dtype, same_type, tensor_type
from .sparse_add import merge_sorted


def _opdef(name: str, pick) -> OpDef:
    def infer(x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape):
        index = same_type(name, {"x1_indices": x1_indices, "x2_indices": x2_indices})
        require_dtype(name, "x1_indices", index, (mstype.int64,))
        require_dtype(name, "x1_shape", tensor_type(name, "x1_shape", x1_shape), (mstype.int64,))
        t = same_type(name, {"x1_values": x1_values, "x2_values": x2_values})
        require_dtype(name, "x1_values", t, NUMBERS)
        for arg, a, rank in (("x1_indices", x1_indices, 2), ("x2_indices", x2_indices, 2),
                             ("x1_values", x1_values, 1), ("x2_values", x2_values, 1)):
            if len(a.shape) != rank:
                raise ValueError(f"For '{name}', the '{arg}' must be {rank}-D, but got shape "
                                 f"{list(a.shape)}.")
        return AbstractTuple([AbstractTensor(index, (UNKNOWN_DIM, x1_indices.shape[1])),
                              AbstractTensor(t, (UNKNOWN_DIM,))])

    def kernel(x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape):
        if not np.array_equal(np.asarray(x1_shape), np.asarray(x2_shape)):
            raise ValueError(f"For '{name}', the two dense shapes must be equal, but got "
                             f"{np.asarray(x1_shape).tolist()} and "
                             f"{np.asarray(x2_shape).tolist()}.")
        zero = np.zeros((), np.asarray(x1_values).dtype)
        return merge_sorted(np.asarray(x1_indices), np.asarray(x1_values),
                            np.asarray(x2_indices), np.asarray(x2_values), pick,
                            lambda v: pick(v, zero))

    return OpDef(name, infer, kernel, differentiable=False)


SparseSparseMinimum = _opdef("SparseSparseMinimum", np.minimum)
SparseSparseMaximum = _opdef("SparseSparseMaximum", np.maximum)
