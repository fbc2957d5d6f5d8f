"""Why ``SparseSparseMinimum``/``SparseSparseMaximum`` (:mod:`..defs.sparse_minmax`) have no
batching rule."""
from .batching import NOT_BATCHED

NOT_BATCHED.update({
    name: "data-dependent output size: the examples of a batch may store different numbers "
          "of values (MindSpore has no vmap rule either)"
    for name in ("SparseSparseMinimum", "SparseSparseMaximum")})
