"""The user entry points that compile: ``@jit`` functions and methods, and calls of cells
(inlined while tracing, compiled in GRAPH_MODE, eager in PYNATIVE_MODE). MindSpore users
import them from ``mindspore.common.api`` (which :mod:`graphkiln.compat` maps here), with
``ms_function``, ``ms_compile_cache`` and ``_pynative_executor``."""
from __future__ import annotations

import contextlib
import functools
import types
import weakref

from ..common.capture_flags import refuse
from ..context import GRAPH_MODE, get_context
from ..frontend.control import call_user
from ..frontend.reusable import call_custom_bprop_cell, call_lazy_cell
from ..ir import tape
from ..ir import tracing_state as state
from .call_cache import CallCache, compile_info, compiled_graph_count
from .cell_state import note_cell_write
from .compile_call import optimized_graph
from .eager_calls import record_custom_bprop
from .executable import CompileInfo
from .pijit import BytecodeJitFunction
from .pijit_context import PIJitCaptureContext
from .signature import InputSignature, jit_signature, set_inputs_signature


class JitFunction:
    """A function compiled to a graph on call (``@ms.jit``)."""

    def __init__(self, fn, signature: InputSignature | None = None):
        # name and docs only: copying the wrapped object's __dict__ (update_wrapper's
        # default) would replace ``fn`` by the inner function of a grad or vmap wrapper
        functools.update_wrapper(self, fn, updated=())
        self.fn = fn
        self.signature = signature  # input_signature / dynamic: unknown dimensions
        self._cache = CallCache()
        self._bound: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def __call__(self, *args, **kwargs):
        if state.current() is not None:
            return call_user(self.fn, args, kwargs)
        name = getattr(self.fn, "__name__", type(self.fn).__name__)
        return self._cache.run(self, self.fn, name, args, kwargs, signature=self.signature)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return _BoundJit(self, obj)

    def _method_cache(self, obj) -> CallCache:
        c = self._bound.get(obj)
        if c is None:
            c = self._bound[obj] = CallCache()
        return c

    @property
    def compile_info(self) -> CompileInfo:
        return compile_info(self)


class _BoundJit:
    __slots__ = ("jf", "obj")

    def __init__(self, jf: JitFunction, obj):
        self.jf = jf
        self.obj = obj

    def __call__(self, *args, **kwargs):
        if state.current() is not None:
            return call_user(self.jf.fn, (self.obj, *args), kwargs)
        if _construct_undefined(self.obj) and \
                self.obj.__dict__.get(PARSE_METHOD) != self.jf.fn.__name__:
            self.obj.__dict__[PARSE_METHOD] = self.jf.fn.__name__
            note_cell_write()  # graphs that call the cell check its state again
        name = f"{type(self.obj).__name__}_{self.jf.fn.__name__}"
        cache = self.jf._method_cache(self.obj)
        signature = self.jf.signature
        if signature is None and self.jf.fn.__name__ == "construct" and \
                callable(getattr(self.obj, "get_inputs", None)):
            # a @jit construct in PYNATIVE_MODE honours the cell's set_inputs, as MindSpore's
            signature = set_inputs_signature(self.obj.get_inputs())
        return cache.run(self.obj, self.jf.fn, name, args, kwargs, self.obj,
                         signature=signature)


def jit(function=None, *, mode: str = "PSJit", input_signature=None, jit_config=None,
        capture_mode: str = "ast", dynamic: int = 0, **kwargs):
    """Compile ``function`` to a static graph on its first call per input signature.
    ``input_signature`` (a placeholder Tensor or a tuple of them) or ``dynamic=1`` (every
    tensor input) compiles with unknown dimensions: one graph for every size.
    ``capture_mode='bytecode'`` (or ``mode='PIJit'``) is MindSpore's bytecode JIT: a graph
    where the call traces, Python where it does not (:mod:`graphkiln.compile.pijit`)."""
    if capture_mode == "bytecode" or mode == "PIJit":
        capture = PIJitCaptureContext(kwargs.get("fullgraph", False), jit_config)
        return capture(function) if function is not None else capture
    signature = jit_signature(input_signature, dynamic)

    def wrap(fn):
        if isinstance(fn, JitFunction):
            return fn
        if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType):
            return JitFunction(fn.__func__, signature).__get__(fn.__self__)  # jit(net.construct)
        if not hasattr(fn, "__code__") and callable(fn):
            fn = _calling(fn)  # jit(net), jit(vmap(net)): trace a call of the object
        return JitFunction(fn, signature)
    return wrap(function) if function is not None else wrap


def _calling(obj):
    """A function calling the callable object ``obj`` (a Cell, a vmap/grad wrapper)."""
    def call(*args, **kwargs):
        return obj(*args, **kwargs)
    call.__name__ = call.__qualname__ = type(obj).__name__
    return call


# ------------------------------------------------------------------ cells

_CELL_CACHES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# the instance attribute naming the method of a cell without ``construct`` that its last
# top-level ``@jit`` call ran (MindSpore's name)
PARSE_METHOD = "__parse_method__"


def _construct_undefined(obj) -> bool:
    """Whether ``obj`` is a cell whose class keeps the base ``Cell.construct`` (which
    raises)."""
    return getattr(getattr(type(obj), "construct", None), "undefined_construct", False)


def _construct_fn(cell):
    c = type(cell).construct
    return c.fn if isinstance(c, (JitFunction, BytecodeJitFunction)) else c


def _graph_method(cell):
    """What a call of ``cell`` inside a graph runs: its ``construct``, or, for a cell
    without one, the ``@jit`` method its last call from Python ran, as MindSpore parses
    such a cell (reinforcement-learning trainers keep their steps in ``@jit`` methods and
    are differentiated whole). MindSpore does this for every cell, so a graph calling a
    cell runs that method even where the cell has a ``construct``; graphkiln keeps
    ``construct`` there."""
    name = cell.__dict__.get(PARSE_METHOD) if _construct_undefined(cell) else None
    method = getattr(type(cell), name, None) if name else None
    return method.fn if isinstance(method, JitFunction) else _construct_fn(cell)


def call_cell(cell, args: tuple, kwargs: dict):
    """Run ``cell`` on ``args``: inlined while tracing, compiled in GRAPH_MODE, else eager."""
    if state.current() is not None:
        construct = _graph_method(cell)
        bprop = getattr(type(cell), "bprop", None)
        if bprop is not None:
            return call_custom_bprop_cell(cell, construct, bprop, args, kwargs,
                                          get_context("mode") != GRAPH_MODE)
        if "_gk_lazy_key" in cell.__dict__:
            out = call_lazy_cell(cell, construct, args, kwargs)
            if out is not NotImplemented:
                return out
        return call_user(construct, (cell, *args), kwargs)
    if get_context("mode") == GRAPH_MODE:
        return _cell_cache(cell).run(cell, _construct_fn(cell), _cell_graph_name(cell), args,
                                     kwargs, cell,
                                     signature=set_inputs_signature(cell.get_inputs()))
    if getattr(type(cell), "bprop", None) is not None \
            and (tape.ACTIVE or cell.__dict__.get("requires_grad")):
        if isinstance(type(cell).bprop, JitFunction):  # MindSpore's PyNative refuses it
            raise RuntimeError("Decorating bprop with '@jit' is not supported.")
        return record_custom_bprop(cell, args, kwargs)
    return cell.construct(*args, **kwargs)


def cell_graph(cell, args: tuple):
    """``cell``'s graph for ``args`` (tensors or placeholders) after graphkiln's passes,
    in inference form: what ``export`` writes. A function (``@jit`` or plain) that is not
    a Cell gives its own graph."""
    if not hasattr(cell, "cells_and_names"):
        fn = cell.fn if isinstance(cell, JitFunction) else cell
        return optimized_graph(fn, getattr(fn, "__name__", "graph"), args, {}, None)
    return optimized_graph(_construct_fn(cell), _cell_graph_name(cell), args, {}, cell)


def _cell_cache(cell) -> CallCache:
    cache = _CELL_CACHES.get(cell)
    if cache is None:
        cache = _CELL_CACHES[cell] = CallCache()
    return cache


def _cell_graph_name(cell) -> str:
    return f"{type(cell).__name__}_construct"


# ------------------------------------------------------------------ mindspore.common.api

ms_function = jit


class _PynativeExecutor:
    """MindSpore's PyNative executor handle. graphkiln runs every op synchronously, so
    ``sync()`` has nothing to wait for."""

    def sync(self) -> None:
        """Wait for pending device work: there is none."""

    def set_grad_flag(self, flag: bool) -> None:
        """Accepted: gradients never need enabling in graphkiln."""

    def set_async_for_graph(self, flag: bool) -> None:
        """Accepted: graphkiln runs graphs synchronously, so there is no async mode."""

    def enable_grad(self) -> bool:
        """Whether PyNative gradients are recorded now (False inside :class:`_no_grad`)."""
        return tape.grad_enabled()

    def set_enable_grad(self, flag: bool) -> None:
        tape.set_grad_enabled(flag)


_pynative_executor = _PynativeExecutor()


class NoGrad(contextlib.ContextDecorator):
    """Inside the block (or the decorated function) PyNative gradients record nothing:
    values computed there are constants to an enclosing gradient, and starting a gradient
    raises a RuntimeError. The previous state comes back on exit."""

    def __init__(self):
        self.prev_state = True

    def __enter__(self):
        if state.current() is not None:  # a graph differentiates what the block computes
            refuse("no_grad() inside a graph: its values would still be differentiated")
        self.prev_state = _pynative_executor.enable_grad()
        _pynative_executor.set_enable_grad(False)

    def __exit__(self, exc_type, exc_val, exc_tb):
        _pynative_executor.set_enable_grad(self.prev_state)
        return False


_no_grad = NoGrad  # MindSpore's name (mindspore._no_grad, mindspore.common.api._no_grad)


class _CompiledGraphs:
    """``ms_compile_cache``: the graphs compiled in this process that are still cached
    (``len()`` counts them; a call with a new input signature adds one)."""

    def __len__(self) -> int:
        return compiled_graph_count()

    def __repr__(self) -> str:
        return f"<{len(self)} compiled graphs>"


ms_compile_cache = _CompiledGraphs()


class _CellGraphExecutor:
    """``mindspore.common.api._cell_graph_executor``, which MindSpore's tests and model
    code use to compile a cell without running it (``compile``) and to run what was
    compiled (``executor(cell, *args, phase=...)``), in either mode. The graph goes into
    the cell's own call cache, so a later ``cell(*args)`` in GRAPH_MODE reuses it."""

    def __init__(self):
        self._phases: set[str] = set()

    def compile(self, obj, *args, phase: str = "predict", do_convert: bool = True,
                jit_config_dict=None, **kwargs) -> tuple[str, bool]:
        """Compile ``obj(*args, **kwargs)``; ``(phase, False)`` if that signature was
        compiled before, else ``(phase, True)``."""
        if not callable(getattr(obj, "construct", None)):
            raise TypeError(f"For '_cell_graph_executor.compile', the object must be a Cell, "
                            f"but got {type(obj).__name__}.")
        cache = _cell_cache(obj)
        before = cache.compiles
        cache.executable(obj, _construct_fn(obj), _cell_graph_name(obj), args, kwargs, obj,
                         set_inputs_signature(obj.get_inputs()))
        self._phases.add(phase)
        return phase, cache.compiles != before

    def has_compiled(self, phase: str = "predict") -> bool:
        """Whether some cell was compiled under ``phase``."""
        return phase in self._phases

    def __call__(self, obj, *args, phase: str = "predict"):
        """Run ``obj``'s compiled graph on ``args`` (compiling it first if needed)."""
        return _cell_cache(obj).run(obj, _construct_fn(obj), _cell_graph_name(obj), args, {},
                                    obj, signature=set_inputs_signature(obj.get_inputs()))


_cell_graph_executor = _CellGraphExecutor()


def compile_cell(cell, args: tuple) -> None:
    """Compile ``cell(*args)`` (tensors or placeholders) without running it."""
    _cell_graph_executor.compile(cell, *args)
