"""``jit(capture_mode='bytecode')``: compile what can be a graph, run the rest in Python,
and keep MindSpore's per-code record of what happened (``_c_expression.get_code_extra``).

MindSpore's bytecode JIT never refuses a program: what its capture cannot put in a graph
runs as Python ("graph break"). graphkiln captures a whole call: it traces the function
as ``jit`` does; when the trace fails for any reason, the call runs as plain Python
(PyNative: every op eagerly, gradients on the tape), so the result is PyNative's for any
program, and that input signature keeps running in Python without tracing again. The
record of the function's code object says so (docs/architecture.md, "Bytecode capture"):

* ``compile_count_``: captures so far (one per new input signature or failed guard);
* ``break_count_``: captures that broke (ran in Python);
* ``stat``: ``GRAPH_CALLABLE`` once a capture finished (graph or Python);
* ``code``: the current capture: ``phase_`` (its graph's name) when it is a graph,
  ``compiled_code_`` (the code object that runs) when it broke, ``guard_`` (what the
  signature holds) and ``call_count_`` (calls of this capture).
"""
from __future__ import annotations

import linecache
import types
import weakref

from ..common.capture_flags import capturing
from ..frontend import ast_convert
from ..frontend.control import call_user
from ..frontend.pytree import flatten
from ..ir import tape
from ..ir import tracing_state as state
from .call_cache import CallCache

# records by code object identity (equal code objects compare equal, MindSpore keeps one
# record per object): id -> (weak reference, record); the record dies with its code
_RECORDS: dict = {}


def _record(code: types.CodeType, create: bool) -> CodeRecord | None:
    entry = _RECORDS.get(id(code))
    if entry is not None and entry[0]() is code:
        return entry[1]
    if not create:
        return None
    key = id(code)
    ref = weakref.ref(code, lambda _, key=key: _RECORDS.pop(key, None))
    record = CodeRecord(code)
    _RECORDS[key] = (ref, record)
    return record


class Capture:
    """One capture of a code object: for one input signature, a graph or a break."""

    __slots__ = ("phase", "compiled_code", "guard", "calls")

    def __init__(self, phase: str | None, compiled_code, guard: str):
        self.phase = phase  # the graph's name when it is a graph
        self.compiled_code = compiled_code  # the code that runs in its place (a break)
        self.guard = guard
        self.calls = 0


class CodeRecord:
    """What the bytecode JIT did with one code object: its captures by signature, and the
    one that ran last (MindSpore's ``code``)."""

    def __init__(self, code: types.CodeType):
        self.code = code
        self.stat = "GRAPH_CANDIDATE"
        self.compile_count = 0
        self.break_count = 0
        self.captures: dict = {}
        self.broken: set = set()  # signatures whose capture broke: they run in Python
        self.current: Capture | None = None
        self.break_reason = ""  # the trace's error at the last break

    def captured(self, key, graph: bool, reason: str = "") -> None:
        """A new capture for signature ``key``: a graph, or a break to Python."""
        code = self.code
        phase = (f"{code.co_filename}_{code.co_firstlineno}_{code.co_name}_"
                 f"{self.compile_count}.pi_jit") if graph else None
        self.compile_count += 1
        self.stat = "GRAPH_CALLABLE"
        if not graph:
            self.break_count += 1
            self.break_reason = reason
        self.captures[key] = Capture(phase, None if graph else code, _guard_text(key))

    def ran(self, key) -> None:
        """A call ran the capture of ``key``."""
        self.current = self.captures[key]
        self.current.calls += 1

    def as_dict(self) -> dict:
        """MindSpore's ``get_code_extra`` dictionary."""
        out: dict = {"stat": self.stat, "compile_count_": self.compile_count,
                     "break_count_": self.break_count}
        cur = self.current
        if cur is not None:
            code: dict = {}
            if cur.compiled_code is not None:
                code["compiled_code_"] = cur.compiled_code
            if cur.phase is not None:
                code["phase_"] = cur.phase
            if cur.guard:
                code["guard_"] = cur.guard
            code["call_count_"] = cur.calls
            out["code"] = code
        return out


def _guard_text(key) -> str:
    """One line per input leaf the capture is specialised on."""
    leaf_keys = key[1] if isinstance(key, tuple) and len(key) > 1 else ()
    return "".join(f"  guard input[{i}] == {k!r}\n" for i, k in enumerate(leaf_keys))


def record_of(obj) -> CodeRecord | None:
    """The record of a function, method, jitted function or code object (None if the
    bytecode JIT never ran it)."""
    code = _code_of(obj)
    return None if code is None else _record(code, create=False)


def _code_of(obj):
    for _ in range(8):
        if isinstance(obj, types.CodeType):
            return obj
        if isinstance(obj, types.MethodType):
            obj = obj.__func__
        elif isinstance(obj, BoundBytecodeJit):
            obj = obj.jf.fn
        elif isinstance(obj, BytecodeJitFunction):
            obj = obj.fn
        elif hasattr(obj, "__code__"):
            obj = obj.__code__
        else:
            return None
    return None


class Unsupported(RuntimeError):
    """A graph break under ``fullgraph=True`` (MindSpore's
    ``pijit_context.Unsupported``)."""


class BytecodeJitFunction:
    """A function run by the bytecode JIT: a graph per input signature where the trace
    succeeds, Python where it does not (``fullgraph=True``: the trace's error instead)."""

    def __init__(self, fn, fullgraph: bool = False, disable=None):
        # name and docs only, as JitFunction; __wrapped__ is the user's function
        for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
            if hasattr(fn, attr):
                setattr(self, attr, getattr(fn, attr))
        self.__wrapped__ = fn
        self.fn = fn
        self.fullgraph = fullgraph
        self.disable = disable  # jit_config '_disable_pijit': (args, kwargs) -> bool
        self._cache = CallCache()
        self._bound: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def __call__(self, *args, **kwargs):
        return self.call(None, args, kwargs)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return BoundBytecodeJit(self, obj)

    def call(self, self_obj, args: tuple, kwargs: dict):
        """Run one call (``self_obj``: the instance of a method, else None)."""
        full = args if self_obj is None else (self_obj, *args)
        if state.current() is not None:  # inside another graph: traced inline
            return call_user(self.fn, full, kwargs)
        if self.disable is not None and self.disable(full, kwargs):
            return self.fn(*full, **kwargs)
        record = _record(self.fn.__code__, create=True)
        cache = self._cache if self_obj is None else self._method_cache(self_obj)
        name = self.fn.__name__ if self_obj is None else \
            f"{type(self_obj).__name__}_{self.fn.__name__}"
        try:
            key = cache.key_of(args, kwargs, self_obj)
        except Exception:  # an argument no signature describes: Python, every call
            key = None
        if key in record.broken or _replays_under_tape(cache, key, args, kwargs):
            record.ran(key)
            return self.fn(*full, **kwargs)
        owner = self if self_obj is None else self_obj
        before = cache.compiles
        if key in record.captures and key in cache.entries:  # a graph: run it
            try:
                with capturing():  # a failed guard compiles again, as a capture
                    out = _replayed(cache, cache.run(owner, self.fn, name, args, kwargs,
                                                     self_obj), args, kwargs)
            except Exception:
                if key in cache.entries:  # the graph ran and raised: PyNative would too
                    raise
            else:
                if cache.compiles != before:
                    record.captured(key, graph=True)
                record.ran(key)
                return out
        try:
            if key is None:
                raise TypeError("no input signature describes these arguments")
            with capturing():
                cache.executable(owner, self.fn, name, args, kwargs, self_obj)
        except Exception as exc:
            if self.fullgraph:
                raise Unsupported(f"'{self.fn.__qualname__}' cannot be captured whole "
                                  f"(fullgraph=True): {_break_text(exc)}") from exc
            # the graph break: this signature runs as Python from now on
            _note_inner_break(exc, self.fn.__code__)
            record.broken.add(key)
            record.captured(key, graph=False, reason=f"{type(exc).__name__}: {exc}")
            record.ran(key)
            return self.fn(*full, **kwargs)
        if cache.compiles != before or key not in record.captures:
            record.captured(key, graph=True)
        record.ran(key)
        return _replayed(cache, cache.run(owner, self.fn, name, args, kwargs, self_obj),
                         args, kwargs)

    def _method_cache(self, obj) -> CallCache:
        try:
            c = self._bound.get(obj)
        except TypeError:  # not weak-referenceable: a cache per call
            return CallCache()
        if c is None:
            c = self._bound[obj] = CallCache()
        return c


def _replays_under_tape(cache: CallCache, key, args: tuple, kwargs: dict) -> bool:
    """True when the graph of ``key`` writes list or dict arguments and a PyNative
    gradient records this call: the tape takes a compiled call as one step, without the
    values it writes into the containers, so the call runs as Python instead."""
    exe = cache.entries.get(key)
    return exe is not None and exe.arg_writes is not None and tape.ACTIVE and \
        tape.recording_any((args, kwargs))


def _replayed(cache: CallCache, out, args: tuple, kwargs: dict):
    """The call's output, after writing the list and dict arguments as the trace did
    (compile/arg_writes.py), when the graph that ran wrote some (its ``out`` is then the
    values they and the output hold)."""
    writes = cache.last_exe.arg_writes if cache.last_exe is not None else None
    if writes is None:
        return out
    return writes.replay((args, kwargs), flatten((args, kwargs))[0], out)


def _break_text(exc: BaseException) -> str:
    """The trace's error with the user's calls that led to it, outermost first (the
    function's line that called the inner function, then the inner line that broke)."""
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        code = ast_convert.ORIGINAL_CODE.get(tb.tb_frame.f_code)
        if code is not None:
            frames.append((code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    reason = str(exc).split("\n", 1)[0]
    if not frames:
        return str(exc)
    lines = [f"# {i} In file {file}:{line}\n    {linecache.getline(file, line).strip()}"
             for i, (file, line) in enumerate(frames)]
    return (f"{reason}\n\n----------------------------------------------------\n"
            f"- The Traceback of Net Construct Code:\n"
            f"----------------------------------------------------\n" + "\n".join(lines))


def _note_inner_break(exc: BaseException, outer: types.CodeType) -> None:
    """Count the break on the user function the trace was in when it failed, when that is
    a function the capture inlined (MindSpore counts a break on the code it happens in)."""
    inner = None
    tb = exc.__traceback__
    while tb is not None:
        code = ast_convert.ORIGINAL_CODE.get(tb.tb_frame.f_code)
        if code is not None:
            inner = code
        tb = tb.tb_next
    if inner is not None and inner is not outer:
        _record(inner, create=True).break_count += 1


class BoundBytecodeJit:
    """A bytecode-JIT method bound to its instance (``__wrapped__``: the user's function,
    ``__self__``: the instance)."""

    __slots__ = ("jf", "__self__")

    def __init__(self, jf: BytecodeJitFunction, obj):
        self.jf = jf
        self.__self__ = obj

    @property
    def __wrapped__(self):
        return self.jf.fn

    def __call__(self, *args, **kwargs):
        return self.jf.call(self.__self__, args, kwargs)


def bytecode_jit(fn, fullgraph: bool = False, disable=None):
    """``fn`` run by the bytecode JIT; cells and methods keep their binding, as
    MindSpore's ``PIJitCaptureContext`` does, and what is not a function comes back as
    it is."""
    if isinstance(fn, BytecodeJitFunction):
        return fn
    if isinstance(fn, type):
        if callable(getattr(fn, "construct", None)):
            fn.construct = bytecode_jit(fn.construct, fullgraph, disable)
        return fn
    if isinstance(fn, types.MethodType):
        return _as_jit(fn.__func__, fullgraph, disable).__get__(fn.__self__)
    if callable(getattr(fn, "construct", None)) and not isinstance(fn, types.FunctionType):
        construct = type(fn).construct
        construct = getattr(construct, "fn", construct)
        return _as_jit(construct, fullgraph, disable).__get__(fn)
    if not isinstance(fn, types.FunctionType):
        return fn
    return BytecodeJitFunction(fn, fullgraph, disable)


def _as_jit(fn, fullgraph: bool, disable) -> BytecodeJitFunction:
    return fn if isinstance(fn, BytecodeJitFunction) else \
        BytecodeJitFunction(fn, fullgraph, disable)
