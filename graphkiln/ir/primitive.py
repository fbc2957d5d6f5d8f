"""The primitive registry and the one dispatch point every op goes through.

A primitive is defined once, as an :class:`OpDef`: its MindSpore name, its effect kind,
its shape/dtype inference, its NumPy kernel, its backward rule and its batching rule.
Calling it runs the kernel eagerly (PyNative) or, while a graph is being traced,
records one node in that graph.
"""
from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from ..common.float_status import enter as _enter_fp
from ..common.float_status import exit as _exit_fp
from ..common.op_timeline import TIMELINE, timed
from ..common.signatures import parameters
from ..common.symbolic_scalar import SymbolicScalar
from ..common.symbolic_sequence import SymbolicSequence
from ..common.tensor import Tensor
from ..errors import blame_argument, check_allocation
from . import amp_cast, tape
from . import tracing_state as state
from .abstract import AbstractRef, AbstractScalar, AbstractTensor, AbstractTuple

NO_EFFECT = "none"
MEM_EFFECT = "mem"
IO_EFFECT = "io"
OUT_INPLACE = "inplace"  # OpDef.out_buffer: ``out=`` may be one of the inputs
OUT_SEPARATE = "separate"  # ``out=`` must not overlap an input

REGISTRY: dict[str, OpDef] = {}
# primitive name -> attributes it gets when recorded into a graph (where MindSpore's graph
# kernel behaves differently from the PyNative one, e.g. Print's text)
GRAPH_ATTRS: dict[str, dict] = {}
# primitives run for their effect only (Print, TensorDump): their PyNative call returns None
# as MindSpore's does (in a graph their placeholder output only orders the effect)
NO_RESULT: set[str] = set()


class OpDef:
    """One primitive: name, effect kind, inference, kernel, backward and batching rules.

    ``infer(*abstracts, **attrs) -> Abstract`` checks the inputs (raising MindSpore's
    error types) and gives the output; ``kernel(*values, **attrs)`` computes it on
    NumPy arrays; ``bprop(inputs, out, dout, **attrs)`` returns one cotangent per input
    (``None`` where there is none); ``vmap`` batches it. ``differentiable=False`` marks
    ops whose outputs carry no gradient (comparisons, argmax, ...).

    For the backend's memory plan: ``out_buffer`` says whether ``kernel`` can write its
    result into a given array ``out=`` (a fresh array of the result's shape and dtype, the
    same bits as without it; of a tuple result, its first element): ``"inplace"`` (``out``
    may be an input, as for element-wise ops), ``"separate"`` (``out`` must not overlap an
    input, as for matmul) or None.
    ``scratch(*abstracts, **attrs) -> [(shape, dtype)]`` lists the temporary arrays the
    kernel needs; the plan then passes them as ``scratch=[arrays]`` (a kernel that gets
    none allocates its own).
    ``hints(primitives) -> {keyword: value}`` gives keyword arguments for the kernel from
    the names of every primitive in the compiled program (e.g. whether a gradient will
    read what the kernel could keep); kernels called without them use their defaults.
    ``state()`` makes the mutable state of a kernel that advances from call to call (the
    engines of a random op): every bound primitive (``ops.StandardNormal(1, 2)``) and every
    graph node gets its own, passed to the kernel as the ``state`` keyword; a kernel called
    without one (a functional call) starts afresh.
    """

    __slots__ = ("name", "infer", "kernel", "effect", "bprop", "vmap", "differentiable",
                 "pure_eval", "attrs", "specialize", "ref_inputs", "out_buffer", "scratch",
                 "hints", "check_attrs", "state", "__weakref__")

    def __init__(self, name: str, infer: Callable, kernel: Callable, *,
                 effect: str = NO_EFFECT, differentiable: bool = True,
                 pure_eval: bool = True, attrs: dict | None = None,
                 ref_inputs: tuple[int, ...] = (0,), out_buffer: str | None = None,
                 scratch: Callable | None = None, hints: Callable | None = None,
                 check_attrs: Callable | None = None, state: Callable | None = None):
        if name in REGISTRY:
            raise ValueError(f"primitive {name!r} is defined twice")
        self.name = name
        self.infer = infer
        self.kernel = kernel
        self.effect = effect
        self.differentiable = differentiable
        self.pure_eval = pure_eval and effect == NO_EFFECT
        self.bprop: Callable | None = None
        self.vmap: Callable | None = None
        # inputs a memory-effect op writes in place (passed as weights, not loaded values)
        self.ref_inputs = ref_inputs if effect == MEM_EFFECT else ()
        self.attrs = attrs or {}  # constructor attributes of ops.<Name>(...) and defaults
        # specialize(in_abstracts, out_abstract, attrs) -> a faster kernel that is exact for
        # those input types (e.g. the bare NumPy ufunc), or None; codegen asks for it
        self.specialize: Callable | None = None
        if out_buffer not in (None, OUT_INPLACE, OUT_SEPARATE):
            raise ValueError(f"out_buffer of {name!r} must be None, {OUT_INPLACE!r} or "
                             f"{OUT_SEPARATE!r}, got {out_buffer!r}")
        self.out_buffer = out_buffer
        self.scratch = scratch
        self.hints = hints
        # check_attrs(attrs): MindSpore's errors for bad constructor arguments of ops.<Name>
        self.check_attrs = check_attrs
        self.state = state
        REGISTRY[name] = self

    def __gk_freeze__(self) -> tuple:
        """A value-based key (compile cache, lazy inline): primitive names are unique."""
        return ("OpDef", self.name)

    @property
    def side_effect_mem(self) -> bool:
        return self.effect == MEM_EFFECT

    @property
    def side_effect_io(self) -> bool:
        return self.effect == IO_EFFECT

    def def_bprop(self, fn: Callable) -> Callable:
        self.bprop = fn
        return fn

    def kernel_for(self, in_abstracts, out_abstract, attrs: dict) -> Callable:
        """The kernel to call for these input and output types (used by codegen)."""
        if self.specialize is not None:
            fast = self.specialize(in_abstracts, out_abstract, attrs)
            if fast is not None:
                return fast
        return self.kernel

    def def_vmap(self, fn: Callable) -> Callable:
        self.vmap = fn
        return fn

    def __call__(self, *args, **attrs):
        return apply(self, args, attrs)

    def __repr__(self) -> str:
        return f"OpDef({self.name})"


class Primitive:
    """A primitive with its attributes bound: ``ops.Add()``, ``ops.ReduceSum(keep_dims=True)``.

    This is also the value an IR node applies; it prints as the MindSpore name.
    """

    __slots__ = ("opdef", "attrs", "_key", "_user_data")

    def __init__(self, opdef: OpDef, attrs: dict | None = None):
        self.opdef = opdef
        self.attrs = attrs or {}
        if opdef.state is not None and "state" not in self.attrs:
            self.attrs = {**self.attrs, "state": opdef.state()}
        self._key = None

    @property
    def name(self) -> str:
        return self.opdef.name

    def key(self):
        if self._key is None:
            self._key = (self.opdef.name, tuple(sorted(
                (k, attr_key(v)) for k, v in self.attrs.items())))
        return self._key

    def __call__(self, *args):
        limit = _MAX_INPUTS.get(self.opdef.name, -1)
        if limit == -1:
            limit = _MAX_INPUTS[self.opdef.name] = _max_inputs(self.opdef.infer)
        if limit is not None and len(args) > limit:
            raise TypeError(f"For Operator[{self.opdef.name}], the number of inputs should be "
                            f"less than or equal to {limit}, but got {len(args)}.")
        if amp_cast.LISTED:  # custom_mixed_precision's white-listed primitive classes
            return amp_cast.call_listed(self, args, self._apply, _amp_cast)
        return apply(self.opdef, args, self.attrs)

    def _apply(self, args: tuple):
        return apply(self.opdef, args, self.attrs)

    def __gk_freeze__(self) -> tuple:
        """A value-based key (compile cache, lazy inline): the name and attributes."""
        return ("Primitive", self.key())

    def add_prim_attr(self, name: str, value) -> Primitive:
        """Set a constructor attribute (others, MindSpore's backend hints such as
        ``primitive_target``, are accepted and change nothing on the CPU)."""
        if name in self.opdef.attrs:
            self.attrs = {**self.attrs, name: value}
            self._key = None
        return self

    def set_user_data(self, key: str, value) -> None:
        """Attach ``value`` to this primitive under ``key`` (read by :meth:`get_user_data`;
        the computation ignores it)."""
        data = getattr(self, "_user_data", None)
        if data is None:
            data = self._user_data = {}
        data[key] = value

    def get_user_data(self, key: str):
        """The value :meth:`set_user_data` attached under ``key`` (None if none)."""
        return (getattr(self, "_user_data", None) or {}).get(key)

    def shard(self, in_strategy=None, out_strategy=None, **kwargs) -> Primitive:
        """Parallel sharding strategy: accepted; graphkiln runs on one device."""
        return self

    def set_device(self, device_target: str) -> Primitive:
        """Device placement hint: accepted; graphkiln computes on the CPU."""
        return self

    def recompute(self, mode: bool = True) -> Primitive:
        """Recompute hint: accepted; the results are the same."""
        return self

    def __repr__(self) -> str:
        return self.opdef.name


def attr_key(v):
    """A hashable stand-in for an attribute value (lists become tuples, arrays bytes)."""
    if isinstance(v, list):
        return tuple(attr_key(x) for x in v)
    if isinstance(v, np.ndarray):
        return (v.dtype.str, v.shape, v.tobytes())
    return v


_CLASSES: dict[str, type] = {}


def primitive_class(opdef: OpDef) -> type:
    """The user-facing class (``ops.Add``, ``ops.operations.Add``: one class per primitive)
    whose instances are bound primitives; constructor arguments are the op's attributes."""
    cls = _CLASSES.get(opdef.name)
    if cls is None or cls._gk_opdef is not opdef:
        cls = _CLASSES[opdef.name] = _make_class(opdef)
    return cls


def override_class(cls: type) -> type:
    """Make ``cls`` (a subclass of its primitive's generated class, e.g. one whose call also
    updates a Parameter input in place as MindSpore's kernel does) the user-facing class of
    that primitive."""
    _CLASSES[cls._gk_opdef.name] = cls
    return cls


def _make_class(opdef: OpDef) -> type:
    params = tuple(opdef.attrs)

    def __init__(self, *args, **kwargs):
        attrs = dict(opdef.attrs)
        if len(args) > len(params):
            raise TypeError(f"For '{opdef.name}', the constructor takes at most "
                            f"{len(params)} arguments, but got {len(args)}.")
        attrs.update(zip(params, args))
        for k, v in kwargs.items():
            if k not in params:
                raise TypeError(f"For '{opdef.name}', got an unexpected argument '{k}'.")
            attrs[k] = v
        if opdef.check_attrs is not None:
            opdef.check_attrs(attrs)
        Primitive.__init__(self, opdef, attrs)

    cls = type(opdef.name, (Primitive,), {"__init__": __init__, "__slots__": (),
                                          "_gk_opdef": opdef})
    cls.__module__ = "graphkiln.ops"
    return cls


# ---------------------------------------------------------------- dispatch

def needs_trace(args) -> bool:
    """True when any argument (or tuple element) is symbolic (a tensor or a run-time
    scalar) or a weight being traced."""
    for a in args:
        if isinstance(a, Tensor):
            if a._node is not None or a._is_param:
                return True
        elif type(a) is SymbolicScalar or type(a) is SymbolicSequence:
            return True
        elif isinstance(a, (tuple, list)) and needs_trace(a):
            return True
    return False


def eager_abstract(x) -> Any:
    """The abstract value of a concrete argument."""
    if isinstance(x, Tensor):
        d = x._data
        if x._is_param:
            return AbstractRef(x._dtype, d.shape, x.name)
        return AbstractTensor(x._dtype, d.shape, d)
    if isinstance(x, (tuple, list)):
        return AbstractTuple([eager_abstract(e) for e in x], is_list=isinstance(x, list))
    return AbstractScalar(x)


def eager_value(x):
    """The kernel-level value of a concrete argument (NumPy arrays for tensors)."""
    if isinstance(x, Tensor):
        return x._data
    if isinstance(x, (tuple, list)):
        return type(x)(eager_value(e) for e in x)
    return x


# primitives whose PyNative results MindSpore returns as strided views of their input (not
# contiguous after a transpose or a column slice: ``x.is_contiguous()``, ``x.stride()``);
# their kernels return NumPy views with the same layout
VIEW_OPS = frozenset({"Transpose", "Getitem", "StridedSlice", "Slice", "ExpandDims", "Squeeze",
                      "Reshape", "Split", "SplitV"})


def _mark_views(result) -> None:
    for t in result if isinstance(result, tuple) else (result,):
        if isinstance(t, Tensor):
            t._view = True


def wrap_output(value, abstract):
    """Turn a kernel result into Tensors (tuples stay tuples)."""
    if isinstance(abstract, AbstractTuple):
        return tuple(wrap_output(v, a) for v, a in zip(value, abstract.elements))
    if isinstance(abstract, AbstractTensor):
        return Tensor._from_array(value, abstract.dtype)
    return value


def _amp_cast(x: Tensor, dtype) -> Tensor:
    return apply(REGISTRY["Cast"], (x, dtype), {})


_MAX_INPUTS: dict[str, int | None] = {}  # primitive name -> how many inputs its infer takes


def _max_inputs(infer: Callable) -> int | None:
    """How many positional inputs ``infer`` accepts (None: any number)."""
    try:
        kinds = [kind for _, kind, _ in parameters(infer)]
    except (TypeError, ValueError):
        return None
    if inspect.Parameter.VAR_POSITIONAL in kinds:
        return None
    return sum(k in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
               for k in kinds)


def apply(opdef: OpDef, args: tuple, attrs: dict):
    """Run ``opdef`` on ``args``: record a node while tracing, else compute eagerly
    (checked by the same inference, with the kernel code generation would pick) and, while
    a PyNative gradient runs, record the step on its tape (``tape.py``)."""
    if amp_cast.STACK:  # auto mixed precision: cast the inputs of the listed primitives
        args = amp_cast.cast_inputs(opdef.name, args, _amp_cast)
    builder = state.current()
    if builder is not None and (opdef.effect != NO_EFFECT or not opdef.pure_eval
                                or needs_trace(args)):
        graph_attrs = GRAPH_ATTRS.get(opdef.name)
        if opdef.state is not None:  # each node keeps its own (a kernel of its own)
            attrs = {**attrs, "state": opdef.state()}
        return builder.record(opdef, args, {**attrs, **graph_attrs} if graph_attrs else attrs)
    in_abs = [eager_abstract(a) for a in args]
    for i in opdef.ref_inputs:  # a plain Tensor there is written in place too
        if i < len(in_abs) and type(in_abs[i]) is AbstractTensor:
            in_abs[i] = AbstractRef(in_abs[i].dtype, in_abs[i].shape, "")
    try:
        out_abs = opdef.infer(*in_abs, **attrs)
    except AttributeError as e:  # an infer read a Tensor attribute of None, a str...
        blamed = blame_argument(opdef.name, opdef.infer, tuple(in_abs), attrs, e, args)
        if blamed is None:
            raise
        raise blamed from None
    check_allocation(opdef.name, out_abs)
    kernel = opdef.kernel_for(in_abs, out_abs, attrs) if opdef.specialize else opdef.kernel
    if TIMELINE.active:
        TIMELINE.begin_call()
        kernel = timed(opdef.name, kernel)
    written = tape.before_writes(args, opdef.ref_inputs) if tape.ACTIVE and opdef.ref_inputs \
        else None
    token = _enter_fp()
    try:
        out = kernel(*[eager_value(a) for a in args], **attrs)
    finally:
        _exit_fp(token)
    result = wrap_output(out, out_abs)
    if opdef.name in VIEW_OPS:
        _mark_views(result)
    if tape.ACTIVE:  # a PyNative gradient is running: its tape may need this step
        tape.record(opdef, args, result, attrs, opdef.differentiable)
        if written:
            tape.after_writes(written, result)
    return None if opdef.name in NO_RESULT else result
