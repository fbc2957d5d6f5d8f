"""MindSpore's graph-compiler switches (``mindspore._extends.parse.compile_config``).

Scripts and tests set them as module attributes (``compile_config.IF_PARALLEL_CALL = 1``);
each also reads its ``MS_DEV_<NAME>`` environment variable, as MindSpore's do. They tune
MindSpore's own C++ pipeline (evaluation order, IR dumps, fallback modes); graphkiln's
compiler has none of those stages, so every switch is accepted and none changes a result:
read one with :func:`get`.
"""
from __future__ import annotations

import os
import sys

SWITCHES = (
    "AUTO_PASSES_OPTIMIZE_PATH", "COMPILE_PROFILE", "COMPILE_PROFILE_FINISH_ACTION",
    "COMPILE_DEBUG_MODE", "FALLBACK_SUPPORT_LIST_DICT_INPLACE", "FALLBACK_FORCE_ANY",
    "IF_PARALLEL_CALL", "FOR_HALF_UNROLL", "NOT_WAIT_BRANCH_EVAL", "RECURSIVE_EVAL",
    "SINGLE_EVAL", "ENABLE_DDE", "DDE_ONLY_MARK", "BOOST_PARSE", "GREED_PARSE",
    "AMP_ENABLE_ALL_FG", "DUMP_IR_CONFIG", "TRAVERSE_SUBSTITUTIONS_MODE", "PRE_LIFT",
    "COMPILE_PRINT", "ENABLE_FIX_CODE_LINE", "RECORD_MEMORY", "TRACE_LABEL_WITH_UNIQUE_ID",
    "DUMP_IR_DDE_DETAIL", "COMBINE_LIKE_GRAPHS", "DUMP_VALIDATE_BEFORE_RESET_ID",
    "ENABLE_RECOMPUTE_BEFORE_INLINE", "STRICT_CHECK_PARENT_CONTEXT", "CHECK_BPROP",
    "GRAD_FOR_SCALAR", "DEBUG_LEVEL", "JIT_ENABLE_AUGASSIGN_INPLACE", "GRAD_JIT_FILTER",
)
_ON_BY_DEFAULT = ("JIT_ENABLE_AUGASSIGN_INPLACE", "GRAD_JIT_FILTER")

_module = sys.modules[__name__]
for _name in SWITCHES:
    setattr(_module, _name, os.environ.get(f"MS_DEV_{_name}",
                                           "1" if _name in _ON_BY_DEFAULT else ""))
del _name


def get(name: str) -> str:
    """The switch's current value as a string ('' when unset)."""
    if name not in SWITCHES:
        raise ValueError(f"'{name}' is not a compile_config switch; known: {list(SWITCHES)}.")
    return str(getattr(_module, name))
