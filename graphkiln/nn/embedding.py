"""``Embedding``: a lookup table of learnable rows."""
from __future__ import annotations

import graphkiln.nn.init as _init
import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from .basic import check_positive_int
from .cell import Cell


class Embedding(Cell):
    """A lookup table: ``embedding_table[ids]`` for integer ``ids`` of any shape."""

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False,
                 embedding_table="normal", dtype=mstype.float32, padding_idx=None):
        super().__init__()
        self.vocab_size = check_positive_int("Embedding", "vocab_size", vocab_size)
        self.embedding_size = check_positive_int("Embedding", "embedding_size",
                                                  embedding_size)
        if use_one_hot:
            raise NotImplementedError("For 'Embedding', use_one_hot=True is not supported "
                                      "yet; the gather form gives the same result.")
        self.use_one_hot = False
        self.dtype = dtype
        self.padding_idx = padding_idx
        table = _init.initializer(embedding_table, (vocab_size, embedding_size),
                                  mstype.float32)
        if padding_idx is not None:
            if isinstance(padding_idx, bool) or not isinstance(padding_idx, int) \
                    or not -vocab_size <= padding_idx < vocab_size:
                raise ValueError(f"For 'Embedding', the 'padding_idx' must be an int in "
                                 f"range [{-vocab_size}, {vocab_size}), but got "
                                 f"{padding_idx}.")
            arr = table.asnumpy().copy()
            arr[padding_idx] = 0
            table = Tensor._from_array(arr, mstype.float32)
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids):
        out_shape = tuple(ids.shape) + (self.embedding_size,)
        flat = ops.reshape(ids, (-1,))
        out = ops.gather(self.embedding_table, flat, 0)
        return ops.reshape(out, out_shape)

    def extra_repr(self) -> str:
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
                f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table!r}, "
                f"dtype={self.dtype}, padding_idx={self.padding_idx}")
