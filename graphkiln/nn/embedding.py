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
    """A lookup table: ``embedding_table[ids]`` for integer ``ids`` of any shape (with
    ``use_one_hot``, as MindSpore computes it: ``one_hot(ids) @ embedding_table``)."""

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False,
                 embedding_table="normal", dtype=mstype.float32, padding_idx=None):
        super().__init__()
        self.vocab_size = check_positive_int("Embedding", "vocab_size", vocab_size)
        self.embedding_size = check_positive_int("Embedding", "embedding_size",
                                                  embedding_size)
        if not isinstance(use_one_hot, bool):
            raise TypeError(f"For 'Embedding', the type of 'use_one_hot' should be 'bool', "
                            f"but got type '{type(use_one_hot).__name__}'.")
        self.use_one_hot = use_one_hot
        self.dtype = dtype
        self.padding_idx = padding_idx
        table = _init.initializer(embedding_table, (vocab_size, embedding_size),
                                  mstype.float32)
        if padding_idx is not None:
            if isinstance(padding_idx, bool) or not isinstance(padding_idx, int):
                raise TypeError(f"For 'Embedding', the 'padding_idx' must be 'int',  but got "
                                f"'{type(padding_idx).__name__}'.")
            if not 0 <= padding_idx < vocab_size:
                raise ValueError(f"For 'Embedding', the 'padding_idx' must be in range of "
                                 f"[0, {vocab_size}), but got {padding_idx} with type 'int'.")
            arr = table.asnumpy().copy()
            arr[padding_idx] = 0
            table = Tensor._from_array(arr, mstype.float32)
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids):
        out_shape = tuple(ids.shape) + (self.embedding_size,)
        flat = ops.reshape(ids, (-1,))
        if self.use_one_hot:  # MindSpore's form: one-hot rows (of ``dtype``) times the table
            on, off = Tensor(1.0, self.dtype), Tensor(0.0, self.dtype)
            out = ops.matmul(ops.one_hot(flat, self.vocab_size, on, off), self.embedding_table)
        else:
            out = ops.gather(self.embedding_table, flat, 0)
        return ops.reshape(out, out_shape)

    def extra_repr(self) -> str:
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
                f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table!r}, "
                f"dtype={self.dtype}, padding_idx={self.padding_idx}")


class EmbeddingLookup(Cell):
    """Rows of ``embedding_table`` (vocab_size, embedding_size) at ``indices``. With
    ``target='CPU'`` (MindSpore's ``EmbeddingLookup`` kernel) an index outside the table
    gives a row of zeros; with ``'DEVICE'`` it is a plain gather. ``max_norm`` clips each
    looked-up row to that L2 norm. The parallel slicing and cache options of MindSpore's
    parameter-server training have no effect on one process."""

    def __init__(self, vocab_size: int, embedding_size: int, param_init="normal",
                 target: str = "CPU", slice_mode: str = "batch_slice", manual_shapes=None,
                 max_norm=None, sparse: bool = True, vocab_cache_size: int = 0,
                 dtype=mstype.float32):
        super().__init__()
        if not isinstance(sparse, bool):
            raise TypeError(f"For 'EmbeddingLookup', the type of 'sparse' should be 'bool', "
                            f"but got type '{type(sparse).__name__}'.")
        self.vocab_size = check_positive_int("EmbeddingLookup", "vocab_size", vocab_size)
        self.embedding_size = check_positive_int("EmbeddingLookup", "embedding_size",
                                                 embedding_size)
        if isinstance(vocab_cache_size, bool) or not isinstance(vocab_cache_size, int) or \
                vocab_cache_size < 0:
            raise ValueError(f"For 'EmbeddingLookup', the 'vocab_cache_size' must be an int "
                             f">= 0, but got {vocab_cache_size!r}.")
        if target not in ("CPU", "DEVICE"):
            raise ValueError(f"For 'EmbeddingLookup', the 'target' should be in ['CPU', "
                             f"'DEVICE'], but got {target!r}.")
        if not sparse and target == "CPU":
            raise ValueError(f"For 'EmbeddingLookup', 'sparse' must be True when 'target' is "
                             f"\"CPU\", but got 'sparse': {sparse} and 'target': {target}")
        if slice_mode not in ("batch_slice", "field_slice", "table_row_slice",
                              "table_column_slice"):
            raise ValueError(f"For 'EmbeddingLookup', the 'slice_mode' must be in "
                             f"['field_slice', 'table_row_slice', 'table_column_slice', "
                             f"'batch_slice'], but got {slice_mode!r}.")
        if max_norm is not None and (isinstance(max_norm, bool) or not isinstance(
                max_norm, (int, float)) or max_norm <= 0):
            raise ValueError(f"For 'EmbeddingLookup', the 'max_norm' must be a positive float, "
                             f"but got {max_norm!r}.")
        self.target = target
        self.slice_mode = slice_mode
        self.manual_shapes = manual_shapes
        self.sparse = sparse
        self.vocab_cache_size = vocab_cache_size
        self.max_norm = None if max_norm is None else float(max_norm)
        self.embedding_table = Parameter(_init.initializer(
            param_init, (self.vocab_size, self.embedding_size), dtype), name="embedding_table")

    def construct(self, indices):
        if self.target == "CPU":
            inside = ops.logical_and(ops.greater_equal(indices, 0),
                                     ops.less(indices, self.vocab_size))
            rows = ops.gather(self.embedding_table, ops.select(inside, indices, 0), 0)
            out = ops.mul(rows, ops.expand_dims(ops.cast(inside, rows.dtype), -1))
        else:
            out = ops.gather(self.embedding_table, indices, 0)
        if self.max_norm is not None:
            norm = ops.sqrt(ops.reduce_sum(ops.square(out), -1, True))
            out = ops.div(ops.mul(out, self.max_norm), ops.maximum(norm, self.max_norm))
        return out
