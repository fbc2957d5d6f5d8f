"""Why ``UpdateCache`` and ``SubAndFilter`` (:mod:`..defs.embedding_cache`) have no batching
rule."""
from .batching import NOT_BATCHED

NOT_BATCHED.update({
    "UpdateCache": "memory effect (writes rows of a weight): a vmapped function must be pure "
                   "(clear error)",
    "SubAndFilter": "data-dependent output size: the examples of a batch may keep different "
                    "numbers of elements",
})
