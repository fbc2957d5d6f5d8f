"""MindSpore's "Cannot join the return values of different branches" errors, quoting the
source line each branch's value comes from."""
from __future__ import annotations

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..errors import SourceLoc, is_internal
from ..ir.anf import CNode, FuncGraph
from .fallback import PyObject

JOIN_FAILED = "Cannot join the return values of different branches"  # MindSpore's phrase
_ORIGIN_DEPTH = 16  # nested if/while statements looked through for a value's line


def join_values(err: BaseException) -> tuple | None:
    """The two values and the two traced branch functions of a join failure made by
    :func:`join_failed`, or None for any other error."""
    return getattr(err, "gk_join", None)


def abstract_kind(x) -> str:
    """MindSpore's name for the abstract of ``x`` (AbstractTensor, AbstractTuple...)."""
    if isinstance(x, Tensor):
        return "AbstractTensor"
    kinds = {tuple: "AbstractTuple", list: "AbstractList", dict: "AbstractDictionary",
             type(None): "AbstractNone"}
    return next((k for t, k in kinds.items() if isinstance(x, t)), "AbstractScalar")


def _scalar_dtype_name(x) -> str:
    if isinstance(x, str):
        return "String"
    if isinstance(x, (bool, int, float)):
        return str(mstype.scalar_type(x))
    return type(x).__name__


def type_join_line(a, c) -> str:
    """MindSpore's 'Type Join Failed' line for the values ``a`` and ``c``."""
    ka, kc = abstract_kind(a), abstract_kind(c)
    if ka == kc == "AbstractScalar":
        return (f"Type Join Failed: dtype1 = {_scalar_dtype_name(a)}, "
                f"dtype2 = {_scalar_dtype_name(c)}.")
    return f"Type Join Failed: Abstract type {ka} cannot join with {kc}."


def describe(x) -> str:
    if isinstance(x, Tensor):
        return f"Tensor[{x.dtype}] of shape {list(x.shape)}"
    return f"{type(x).__name__} {x!r}"


def leaf_line(x) -> str:
    # (a run-time Python object answers any attribute with a graph node: only its own)
    node = x._node if isinstance(x, Tensor) else x.node if isinstance(x, PyObject) else None
    loc = getattr(node, "loc", None)
    return f"{loc.filename}:{loc.lineno} `{loc.text}`" if loc else "an input of the branch"


def function_last_line(fn, internal_too: bool = False) -> SourceLoc | None:
    """The last source line of ``fn`` (its final ``return`` in straight-line code); None
    for code without lines, and for graphkiln's own code unless ``internal_too``."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    lines = [ln for _, _, ln in code.co_lines() if ln]
    if not lines or (is_internal(code.co_filename) and not internal_too):
        return None
    return SourceLoc(code.co_filename, max(lines))


def _control_body(node) -> tuple[FuncGraph | None, int]:
    """The (true) body graph whose output ``node`` reads, and the output's index."""
    index = 0
    if isinstance(node, CNode) and node.prim_name() == "TupleGetItem":
        node, index = node.inputs[1], node.inputs[2].value
    if not isinstance(node, CNode):
        return None, index
    if node.prim_name() == "While":
        return node.inputs[2].value, index
    sw = node.inputs[0]
    if isinstance(sw, CNode) and sw.prim_name() == "Switch":
        return sw.inputs[2].value, index
    return None, index


def origin_loc(node) -> SourceLoc | None:
    """The line ``node``'s value is computed on, looking through the outputs of ``if``
    and ``while`` statements into their (true) bodies."""
    for _ in range(_ORIGIN_DEPTH):
        body, index = _control_body(node)
        if body is None:
            break
        out = body.output
        if isinstance(out, CNode) and out.prim_name() == "MakeTuple":
            out = out.inputs[1 + index]
        if out.loc is None:
            break
        node = out
    return getattr(node, "loc", None)


def value_line(x, branch_fn) -> str:
    """Where a branch's value comes from: the node's line, else the branch's last line."""
    node = getattr(x, "_node", None)
    loc = (origin_loc(node) if node is not None else None) or function_last_line(branch_fn)
    return loc.describe() if loc is not None else "    (a value given by the program)"


def join_failed(a, c, branch_fns: tuple, loc: SourceLoc | None) -> TypeError:
    """The error for the true-branch value ``a`` and the false-branch value ``c`` of the
    statement at ``loc``, quoting where each comes from (see :func:`join_values`)."""
    lines = [value_line(x, fn) for x, fn in zip((a, c), branch_fns)]
    where = f"\nThe branches are those of:\n{loc.describe()}" if loc is not None else ""
    err = TypeError(
        f"{JOIN_FAILED}, perhaps you need to make them equal.\n{type_join_line(a, c)}\n"
        f"The value of the true branch is {describe(a)}, from:\n{lines[0]}\n"
        f"The value of the false branch is {describe(c)}, from:\n{lines[1]}{where}")
    err.gk_join = ((a, c), branch_fns)
    return err


def variable_join_error(name: str, what: str, a, b, loc: SourceLoc | None) -> TypeError:
    """A variable whose two tensor values (or run-time scalars) differ in type or shape."""
    where = f"\n{loc.describe()}" if loc else ""
    return TypeError(
        f"{JOIN_FAILED} of a tensor 'if' for variable '{name}': {what}.\n"
        f"  true branch:  {describe(a)} (from {leaf_line(a)})\n"
        f"  false branch: {describe(b)} (from {leaf_line(b)})\n"
        f"Both branches must give it the same type and shape.{where}")


def switch_layer_join_error(funcs: tuple, values: tuple) -> TypeError:
    """The join failure of ``values`` restated for ``funcs[index]``: every function's last
    line is quoted."""
    quoted = []
    for k, f in enumerate(funcs):
        fn = type(f).construct if hasattr(type(f), "construct") else f
        loc = function_last_line(fn, internal_too=True)
        name = type(f).__name__ if fn is not f else getattr(f, "__qualname__", repr(f))
        quoted.append(f"branch {k} ({name}):\n"
                      + (loc.describe() if loc else "    (a value given by the program)"))
    return TypeError(
        f"{JOIN_FAILED}, perhaps you need to make them equal.\n{type_join_line(*values)}\n"
        f"The {len(funcs)} functions of a tuple indexed by a tensor must return values of "
        f"the same type and shape; their values come from:\n" + "\n".join(quoted))
