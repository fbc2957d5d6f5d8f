"""``MultitypeFuncGraph`` (dispatch on argument types), ``HyperMap`` and ``Map``.

Eagerly they are Python dispatch and mapping. Inside a graph, a ``HyperMap``/``Map`` over
sequences of pure element computations compiles to one ``HyperMap`` node whose body is one
traced graph per distinct element signature, not one inlined copy per element; element
functions with side effects (e.g. optimizer updates of weights) are traced per element,
in order, so their effects stay sequenced.
"""
from __future__ import annotations

from ...common.sparse_tensor import COOTensor, CSRTensor, RowTensor
from ...common.tensor import Tensor
from ...frontend.builder import GraphBuilder
from ...frontend.control import call
from ...ir import tracing_state as state
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.anf import FuncGraph, Parameter, ValueNode
from ...ir.build import prim_node
from ...ir.structural_prims import HyperMapOp, MakeTuple

# type name -> (predicate, specificity); a more specific name wins over a general one
_TYPES = {
    "Tensor": (lambda x: isinstance(x, Tensor), 2),
    "Bool": (lambda x: isinstance(x, bool), 3),
    "Int": (lambda x: isinstance(x, int) and not isinstance(x, bool), 3),
    "Float": (lambda x: isinstance(x, float), 3),
    "Number": (lambda x: isinstance(x, (int, float)), 2),
    "String": (lambda x: isinstance(x, str), 2),
    "Tuple": (lambda x: isinstance(x, tuple), 2),
    "List": (lambda x: isinstance(x, list), 2),
    "Dictionary": (lambda x: isinstance(x, dict), 2),
    "None": (lambda x: x is None, 2),
    "Function": (lambda x: callable(x) and not isinstance(x, Tensor), 1),
    "RowTensor": (lambda x: isinstance(x, RowTensor), 2),
    "COOTensor": (lambda x: isinstance(x, COOTensor), 2),
    "CSRTensor": (lambda x: isinstance(x, CSRTensor), 2),
    "Slice": (lambda x: isinstance(x, slice), 2),
    "Ellipsis": (lambda x: x is Ellipsis, 2),
}
# a Python int is MindSpore's Int64 and a Python float its Float64: registrations for the
# other sized scalar types are accepted, as MindSpore's, and never take a Python number
_TYPES["Int64"] = _TYPES["Int"]
_TYPES["Float64"] = _TYPES["Float"]
for _sized in ("Int8", "Int16", "Int32", "UInt8", "UInt16", "UInt32", "UInt64", "Float16",
               "Float32", "BFloat16", "Complex64", "Complex128"):
    _TYPES[_sized] = (lambda x: False, 3)
_TYPES["Dict"] = _TYPES["Dictionary"]
_TYPES["NoneType"] = _TYPES["None"]


def type_name(x) -> str:
    """MindSpore's name for the type of ``x`` (for error messages)."""
    if isinstance(x, Tensor):
        return f"Tensor[{x.dtype}]"
    if isinstance(x, bool):
        return "Bool"
    if isinstance(x, int):
        return "Int64"
    if isinstance(x, float):
        return "Float32"
    if isinstance(x, str):
        return "String"
    if x is None:
        return "None"
    if isinstance(x, tuple):
        return "Tuple"
    if isinstance(x, list):
        return "List"
    if callable(x):
        return "Function"
    return type(x).__name__


class MultitypeFuncGraph:
    """A function overloaded on its arguments' types: ``@f.register("Tensor", "Number")``."""

    def __init__(self, name: str, read_value: bool = False, doc_url: str = ""):
        self.name = name
        self.__name__ = name
        self.read_value = read_value
        self.entries: list[tuple[tuple[str, ...], object]] = []

    def register(self, *type_names: str):
        for t in type_names:
            if t not in _TYPES:
                raise RuntimeError(f"Unsupported type name: {t}!")

        def deco(fn):
            self.entries.append((tuple(type_names), fn))
            return fn
        return deco

    def match(self, args: tuple):
        """The registered function for ``args`` (the most specific match), or None."""
        best, best_score = None, -1
        for names, fn in self.entries:
            if len(names) != len(args):
                continue
            score = 0
            for n, a in zip(names, args):
                pred, spec = _TYPES[n]
                if not pred(a):
                    break
                score += spec
            else:
                if score > best_score:
                    best, best_score = fn, score
        return best

    def resolve(self, args: tuple):
        """The registered function for ``args``; MindSpore's error when none takes them."""
        best = self.match(args)
        if best is None:  # (MindSpore 2.10's words, in graphs too)
            given = ", ".join(type_name(a) for a in args)
            sigs = ", ".join(f"(({', '.join(n)}), {fn!r})" for n, fn in self.entries)
            raise ValueError(f"For 'MultitypeFuncGraph', cannot find fn match given args. Got "
                             f"(sigs, fn): [{sigs}], and (dtype, args): ({given}).")
        return best

    def __call__(self, *args):
        fn = self.resolve(args)
        if state.current() is not None:
            return call(fn, *args)
        return fn(*args)


def _is_seq(x) -> bool:
    return isinstance(x, (tuple, list))


class _Mapper:
    """Shared logic of ``HyperMap`` (recursive into nested sequences) and ``Map``."""

    recursive = True
    kind = "HyperMap"

    def __init__(self, ops=None, reverse: bool = False):
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args):
        if self.ops is not None:
            fn, seqs = self.ops, args
        else:
            if not args:
                raise TypeError(f"For '{self.kind}', the function to map must be given "
                                f"at construction or as the first argument.")
            fn, seqs = args[0], args[1:]
        return self._map(fn, seqs)

    def _map(self, fn, args):
        seq_args = [a for a in args if _is_seq(a)]
        if not seq_args:
            return _apply(fn, args)
        kind = tuple if isinstance(seq_args[0], tuple) else list
        if any(not isinstance(s, kind) for s in seq_args):
            names = ", ".join(type_name(s) for s in seq_args)
            raise RuntimeError(f"For '{self.kind}', the types of arguments in {self.kind} must "
                               f"be consistent (all tuples or all lists), but got [{names}].")
        n = len(seq_args[0])
        if any(len(s) != n for s in seq_args):
            lens = ", ".join(str(len(s)) for s in seq_args)
            what = "tuples" if kind is tuple else "lists"
            raise RuntimeError(f"The {what} in {self.kind} should have the same length, but "
                               f"got lengths [{lens}].")
        if state.current() is not None and n:
            compact = _compact(fn, args, n, self)
            if compact is not None:
                return compact if kind is tuple else list(compact)
        order = range(n - 1, -1, -1) if self.reverse else range(n)
        out = [None] * n
        for i in order:
            elem = tuple(a[i] if _is_seq(a) else a for a in args)
            if self.recursive and any(_is_seq(e) for e in elem) and not _overload_for(fn, elem):
                out[i] = self._map(fn, elem)
            else:
                out[i] = _apply(fn, elem)
        return tuple(out) if kind is tuple else out


def _overload_for(fn, args) -> bool:
    """Whether ``fn`` is a MultitypeFuncGraph with an overload taking ``args`` as they are
    (a ``"Tuple"`` one): MindSpore's HyperMap then calls it instead of going deeper."""
    if not isinstance(fn, MultitypeFuncGraph):
        return False
    return fn.match(args) is not None


def _apply(fn, args):
    if state.current() is not None:
        return call(fn, *args)
    return fn(*args)


def _leaf_key(x):
    if isinstance(x, Tensor):
        return ("T", x.dtype.name, x.shape, x._is_param)
    return ("S", type(x).__name__, repr(x))


def _compact(fn, args, n: int, mapper: _Mapper):
    """Trace ``fn`` once per distinct element signature and emit one ``HyperMap`` node.

    Returns None (so the caller unrolls) when an element is a nested sequence or a weight,
    or when the element function has side effects or reads weights.
    """
    b: GraphBuilder = state.current()
    seq_pos = [k for k, a in enumerate(args) if _is_seq(a)]
    for k in seq_pos:
        for e in args[k]:
            # only Tensor elements become parameters of the element graphs
            if not isinstance(e, Tensor) or e._is_param:
                return None
    graphs: dict = {}
    per_elem = []
    for i in range(n):
        elem = [args[k][i] for k in seq_pos]
        key = tuple(_leaf_key(e) for e in elem)
        g = graphs.get(key)
        if g is None:
            g = _trace_element(b, fn, args, seq_pos, elem, len(graphs))
            if g is None:
                return None
            graphs[key] = g
        per_elem.append(g)
    bodies = list(graphs.values())
    captured = _unify_invariants(bodies)
    table = per_elem[0] if len(bodies) == 1 else tuple(per_elem)
    seqs = [b.to_node(tuple(args[k])) for k in seq_pos]
    out_abs = AbstractTuple([g.output.abstract for g in per_elem])
    node = b.new_cnode([prim_node(HyperMapOp, {"n_seq": len(seqs)}), ValueNode(table),
                        *seqs, *captured], out_abs)
    return b.wrap(node)


def _trace_element(b: GraphBuilder, fn, args, seq_pos, elem, index: int):
    gb = GraphBuilder(FuncGraph(f"{getattr(fn, '__name__', 'map')}_elem{index}"), b)
    syms = list(args)
    elem_params = []
    for k, e in zip(seq_pos, elem):
        if isinstance(e, Tensor):
            a = AbstractTensor(e.dtype, e.shape)
            p = gb.graph.add_param(f"x{k}", a)
            elem_params.append(p)
            syms[k] = Tensor._symbolic(p, a)
        else:
            syms[k] = e
    with gb:
        out = call(fn, *syms)
        if gb.u.node is not None or gb.io.node is not None:
            return None
        if not isinstance(out, Tensor):
            return None
        gb.graph.output = gb.to_node(out)
    gb.graph.flags["elem_params"] = elem_params
    gb.graph.flags["captures"] = [outer for outer, _ in gb.capture_list]
    gb.graph.flags["capture_params"] = [p for _, p in gb.capture_list]
    return gb.graph


def _unify_invariants(bodies: list[FuncGraph]) -> list:
    """Give every body the same trailing parameters for the values they capture."""
    order, seen = [], set()
    for g in bodies:
        for outer in g.flags["captures"]:
            if id(outer) not in seen:
                seen.add(id(outer))
                order.append(outer)
    for g in bodies:
        mine = dict(zip((id(o) for o in g.flags.pop("captures")),
                        g.flags.pop("capture_params")))
        elem_params = g.flags.pop("elem_params")
        tail = [mine.get(id(o)) or Parameter(g, "phi", o.abstract) for o in order]
        g.params = elem_params + tail
    return order


class HyperMap(_Mapper):
    """Apply a function elementwise over tuples/lists, recursing into nested ones."""

    recursive = True
    kind = "HyperMap"


class Map(_Mapper):
    """Apply a function elementwise over tuples/lists (top level only)."""

    recursive = False
    kind = "Map"


__all__ = ["MultitypeFuncGraph", "HyperMap", "Map", "MakeTuple"]
