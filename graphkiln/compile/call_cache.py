"""The per-function (or per-cell) cache of compiled calls, keyed by input signature.

A call is keyed by its input signature (tensor dtypes and shapes, Python values, weight
identities) and the graph-relevant context; a known key runs the compiled code at once,
a new one is loaded from the persistent compile cache or compiled.
"""
from __future__ import annotations

import os
import sys
import warnings
import weakref
from collections import OrderedDict

from ..backend import fusion
from ..common.capture_flags import bytecode_capture
from ..common.mutable import RUNTIME_SCALARS, dynamic_len_items
from ..common.tensor import Tensor
from ..context import load_elim_level, strict_syntax
from ..errors import DynamicRankError
from ..frontend.pytree import flatten_call
from ..ir import amp_cast, tape
from ..ir import tracing_state as state
from . import compile_cache as cache
from .arg_keys import has_identity, value_key
from .cell_state import cell_state, container_guards
from .compile_call import compile_call
from .eager_calls import check_mutable, record_compiled_call
from .executable import CompileInfo, Executable
from .guards import guards_hold
from .signature import InputSignature

# the last compile of each function/cell; weak, so infos die with their owners
_LAST: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# when a list (python -m graphkiln dump sets it), every CompileInfo is appended, in order
COMPILED: list | None = None


def compile_info(obj) -> CompileInfo:
    """The :class:`CompileInfo` of the last compile of a ``@jit`` function or a Cell."""
    try:
        info = _LAST.get(obj)
    except TypeError:  # not weak-referenceable: never compiled through CallCache
        info = None
    if info is None:
        raise ValueError(f"{obj!r} has not been compiled yet.")
    return info


# ------------------------------------------------------------------ signatures

def _leaf_key(x):
    if isinstance(x, Tensor):
        if x._is_param:
            return ("P", id(x))
        if x._node is not None:
            raise RuntimeError("graphkiln bug: symbolic tensor passed to a compiled call")
        data = x._data
        # a placeholder (no data): its partly unknown shape
        key = ("T", x._dtype.name, data.shape if data is not None else x.shape)
        hooks = tape.live_hooks(x)  # (a gradient in the graph runs them: compile_call.py)
        return key + (tuple(map(id, hooks)),) if hooks else key
    kind = RUNTIME_SCALARS.get(type(x))
    if kind is not None:  # a mutable number: passed at run time, keyed by its type
        return ("s", kind.__name__)
    items = dynamic_len_items(x)
    if items is not None:  # a dynamic length sequence: keyed by its items' type
        return ("dseq", isinstance(x, list), tuple(getattr(k, "name", k) for k in items))
    return value_key(x)


def _run_value(x):
    """What the compiled code receives for a leaf passed at run time."""
    if isinstance(x, Tensor):
        if x._data is None:
            raise ValueError("An input is a placeholder Tensor (a shape with None or -1, no "
                             "data): it can describe inputs (set_inputs, input_signature, "
                             "_cell_graph_executor.compile) but not be run on; pass a Tensor "
                             "with data.")
        return x._data
    kind = RUNTIME_SCALARS.get(type(x))
    if kind is not None:
        return kind(x)
    return tuple(e._data if isinstance(e, Tensor) else e for e in x)  # a dynamic_len one


def is_run_time_leaf(x) -> bool:
    """A leaf the compiled code receives when it runs (not a constant of the graph)."""
    if isinstance(x, Tensor):
        return not x._is_param
    return type(x) in RUNTIME_SCALARS or dynamic_len_items(x) is not None


def _graph_options() -> tuple:
    return load_elim_level(), strict_syntax(), amp_cast.current_key(), tape.hook_epoch()


def _stable_key(key: tuple, leaves: list) -> tuple:
    """The memory-cache key with weights named instead of identified (for the disk)."""
    tree, leaf_keys, options, training = key
    named = tuple(("P", x.name, x.dtype.name, x.shape) if k[0] == "P" else k
                  for k, x in zip(leaf_keys, leaves))
    if has_identity(named):  # an object argument: only meaningful in this process
        raise cache.Uncacheable("an argument is keyed by object identity")
    # the fusion switch changes the stored graph and code (not the results)
    return repr(tree), named, options + (fusion.enabled(),), training


def _compile_or_load(fn, name, args, kwargs, self_obj, key, leaves) -> Executable:
    # a bytecode capture must trace (its trace breaks where jit's would not): no disk cache
    if not cache.enabled() or bytecode_capture():
        return compile_call(fn, name, args, kwargs, self_obj)
    try:
        entry = cache.entry_name(fn, _stable_key(key, leaves), self_obj)
    except cache.Uncacheable:
        return compile_call(fn, name, args, kwargs, self_obj)
    store = cache.open_store()
    if store is None:  # refused (unsafe directory or key): run without the cache
        return compile_call(fn, name, args, kwargs, self_obj)
    cache.announce_forced()
    exe = cache.load(store, entry, self_obj, leaves)
    if exe is not None:
        print(cache.HIT_MESSAGE, file=sys.stderr)  # MindSpore logs it
        exe.cell_state = cell_state(self_obj)
        exe.cell_guards = container_guards(self_obj, None)
        return exe
    print(cache.FORCED_MISS_MESSAGE if cache.forced() else cache.STALE_MESSAGE, file=sys.stderr)
    files = state.begin_files()
    try:
        exe = compile_call(fn, name, args, kwargs, self_obj)
    finally:
        state.end_files()
    code = getattr(fn, "__code__", None)
    if code is not None:
        files.add(code.co_filename)
    if not exe.live_writes:  # an entry cannot refer to this process's objects
        cache.store(store, entry, exe, files)
    return exe


_LIVE_CACHES: weakref.WeakSet = weakref.WeakSet()


def compiled_graph_count() -> int:
    """How many compiled graphs the live call caches hold (``ms_compile_cache``'s size)."""
    return sum(len(c.entries) for c in list(_LIVE_CACHES))


def call_cache_size() -> int:
    """Compiled signatures kept per function (``GRAPHKILN_CALL_CACHE_SIZE``, default 64)."""
    raw = os.environ.get("GRAPHKILN_CALL_CACHE_SIZE", "")
    return max(int(raw), 1) if raw.strip().isdigit() else 64


def input_leaves(leaves: list) -> list:
    """The leaves of a call that an executable takes, in order: its Tensors (not
    Parameters: weights) and its run-time scalars."""
    return [x for x in leaves if (type(x) is Tensor and not x._is_param) or is_run_time_leaf(x)]


def arrays_before(exe: Executable, leaves: list) -> dict:
    """Copies of the arrays ``exe`` writes in place, as ``(Tensor, copy)`` by the Tensor's
    id (input Tensors and weights)."""
    written_inputs, written_weights = exe.writes
    if not written_inputs and not written_weights:
        return {}
    ins = input_leaves(leaves)
    owners = [ins[i] for i in written_inputs] + [exe.weights[i] for i in written_weights]
    return {id(x): (x, x._data.copy()) for x in owners
            if isinstance(x, Tensor) and x._data is not None}


class CallCache:
    """Compiled executables of one function (or one cell), by input signature; the least
    recently used go first when there are more than :func:`call_cache_size`."""

    def __init__(self):
        self.entries: OrderedDict = OrderedDict()
        self.compiles = 0
        # set_inputs/input_signature: integer vectors keep their lengths (DynamicRankError)
        self.known_vectors = False
        self.last_exe: Executable | None = None  # what the latest call ran
        _LIVE_CACHES.add(self)

    def run(self, owner, fn, name: str, args: tuple, kwargs: dict, self_obj=None,
            signature: InputSignature | None = None, cell=None):
        """Run the executable for this call, compiling it first if its key is new
        (``cell``: a cell ``fn`` calls, as ``self_obj`` is, whose state the result depends
        on, such as the cell a gradient function differentiates). Inside a PyNative
        gradient that differentiates its arguments or weights, the call is one step of
        the gradient's tape."""
        recorded = tape.ACTIVE and tape.recording_any((args, kwargs))
        if recorded:
            check_mutable(args, kwargs)
        exe, leaves = self.executable(owner, fn, name, args, kwargs, self_obj, signature,
                                      cell)
        if recorded:
            return record_compiled_call(self, lambda: self.call(exe, leaves),
                                        arrays_before(exe, leaves), fn, name, args, kwargs,
                                        self_obj, cell)
        return self.call(exe, leaves)

    def call(self, exe: Executable, leaves: list):
        """Run ``exe`` on the call's flattened ``leaves``."""
        self.last_exe = exe
        # a Tensor with data, the common leaf, inline
        return exe([x._data if type(x) is Tensor and x._data is not None else _run_value(x)
                    for x in input_leaves(leaves)])

    def executable(self, owner, fn, name: str, args: tuple, kwargs: dict, self_obj=None,
                   signature: InputSignature | None = None,
                   cell=None) -> tuple[Executable, list]:
        """The executable for this call's signature (compiled now if it is new) and the
        call's flattened leaves. With a ``signature``, tensors that fit their placeholders
        are traced (and keyed) as the placeholders: unknown dimensions, one compile for
        every size."""
        try:
            return self._executable(owner, fn, name, args, kwargs, self_obj, signature, cell)
        except DynamicRankError:
            if signature is None or self.known_vectors:
                raise
            # an integer vector placeholder gave an output's rank: compile per length
            self.known_vectors = True
            return self._executable(owner, fn, name, args, kwargs, self_obj, signature, cell)

    def key_of(self, args: tuple, kwargs: dict, self_obj=None,
               signature: InputSignature | None = None, cell=None) -> tuple:
        """The cache key of this call (what :meth:`executable` looks up)."""
        return self._key(args, kwargs, self_obj, signature, cell)[0]

    def _key(self, args, kwargs, self_obj, signature, cell):
        leaves, tree = flatten_call(args, kwargs)
        if signature is not None:
            args = signature.trace_args(args, self.known_vectors, len(kwargs))
            traced = flatten_call(args, kwargs)[0]
        else:
            traced = leaves
        key = (tree, tuple(_leaf_key(x) for x in traced), _graph_options(),
               getattr(self_obj if cell is None else cell, "training", None))
        return key, leaves, args

    def _executable(self, owner, fn, name, args, kwargs, self_obj, signature, cell):
        key, leaves, args = self._key(args, kwargs, self_obj, signature, cell)
        exe = self.entries.get(key)
        if exe is not None and ((exe.guards or exe.cell_guards) and not guards_hold(
                exe.guards, exe.cell_guards) or exe.cell_state is not None and
                not exe.cell_state.holds()):
            del self.entries[key]  # a global, closure or cell attribute it read has changed
            exe = None
        if exe is not None:
            self.entries.move_to_end(key)
        else:
            exe = _compile_or_load(fn, name, args, kwargs, self_obj, key, leaves)
            if cell is not None and exe.cell_state is None:
                exe.cell_state = cell_state(cell)
            self.entries[key] = exe
            self.compiles += 1
            limit = call_cache_size()
            if len(self.entries) > limit:
                self.entries.popitem(last=False)
                if self.compiles == limit + 1:
                    warnings.warn(
                        f"'{name}' has been compiled for {self.compiles} different input "
                        f"signatures (shapes, dtypes or Python values); only the last "
                        f"{limit} are kept (GRAPHKILN_CALL_CACHE_SIZE). Varying shapes or "
                        f"Python arguments recompile every call: pad the inputs to a few "
                        f"shapes or pass the values as Tensors.", RuntimeWarning,
                        stacklevel=4)
            _LAST[owner] = exe.info
            if COMPILED is not None:
                COMPILED.append(exe.info)
        return exe, leaves
