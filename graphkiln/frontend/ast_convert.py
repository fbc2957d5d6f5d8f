"""Rewrite a user function's control flow into calls of ``control`` helpers (AutoGraph-style).

Two AST passes, then compilation with the user's file name and line numbers:

1. *Jump lowering*: ``return`` inside control flow, ``break`` and ``continue`` become flag
   variables; statements after a possible jump are guarded by ``if not flag``.
2. *Control conversion*: ``if``/``while``/``for`` become nested functions over the variables
   they assign, called through ``_gk_rt.if_stmt``/``while_stmt``/``for_stmt``; ternaries,
   ``and``/``or``/``not`` and calls go through ``_gk_rt`` helpers too.

A Python condition then runs as plain Python; a tensor condition traces subgraphs.
"""
from __future__ import annotations

import ast
import itertools
import linecache
import re
import textwrap
import types

from ..common.capture_flags import bytecode_capture
from ..errors import SourceLoc

RT = "_gk_rt"
FN_PREFIX = "_gk_fn_"
# MindSpore's `# @jit.cond: True` comment on an `if` line: the condition folds to that value
_COND_COMMENT = re.compile(r"#\s*@jit\.cond:\s*(True|False)\b")
RET_FLAG, RET_VAL = "_gk_retflag", "_gk_retval"
MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault",
             "add", "discard", "sort", "reverse", "popitem"}
_NO_CONVERT_CALLS = {"super", "locals", "globals", "vars", "eval", "exec"}


class GraphSyntaxError(RuntimeError):
    """User code uses Python syntax that graph mode cannot compile."""


def _error(node: ast.AST, filename: str, msg: str) -> GraphSyntaxError:
    loc = SourceLoc(filename, getattr(node, "lineno", 0))
    return GraphSyntaxError(f"{msg}\n{loc.describe()}")


# ---------------------------------------------------------------- analysis

def _target_names(t: ast.AST, out: set) -> None:
    if isinstance(t, ast.Name):
        out.add(t.id)
    elif isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            _target_names(e, out)
    elif isinstance(t, ast.Starred):
        _target_names(t.value, out)
    elif isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name):
        out.add(t.value.id)


_NO_LOCALS: frozenset = frozenset()
_NEW_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _binds(n: ast.AST, out: set, local_names: set | None) -> bool:
    """Add the names statement or expression ``n`` binds in its scope to ``out`` (or
    mutates with a method call when they are ``local_names``); whether its children are in
    the same scope."""
    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        out.add(n.name)
        return False
    if isinstance(n, _NEW_SCOPES):
        return False
    if isinstance(n, ast.Assign):
        for t in n.targets:
            _target_names(t, out)
    elif isinstance(n, (ast.AugAssign, ast.AnnAssign)):
        _target_names(n.target, out)
    elif isinstance(n, ast.For):
        _target_names(n.target, out)
    elif isinstance(n, ast.NamedExpr):
        _target_names(n.target, out)
    elif isinstance(n, ast.withitem) and n.optional_vars is not None:
        _target_names(n.optional_vars, out)
    elif isinstance(n, (ast.Import, ast.ImportFrom)):
        for a in n.names:
            out.add((a.asname or a.name).split(".")[0])
    elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
          and n.func.attr in MUTATORS and isinstance(n.func.value, ast.Name)
          and (local_names is None or n.func.value.id in local_names)):
        out.add(n.func.value.id)  # `acc.append(v)` changes the local `acc`
    return True


def _children(n: ast.AST) -> list:
    """``ast.iter_child_nodes`` as a list, without its generators."""
    out = []
    for name in n._fields:
        v = getattr(n, name, None)
        if type(v) is list:
            out.extend(x for x in v if isinstance(x, ast.AST))
        elif isinstance(v, ast.AST):
            out.append(v)
    return out


def assigned_names(stmts: list, local_names: set | None = None) -> set:
    """Names a block binds, or mutates with a method call when they are ``local_names`` of
    the function (``ops.add(x)`` does not make the module ``ops`` a variable)."""
    out: set = set()
    stack = list(stmts)
    while stack:
        n = stack.pop()
        if _binds(n, out, local_names):
            stack.extend(_children(n))
    return {n for n in out if not n.startswith(FN_PREFIX)}


def _plain_returns(stmts: list) -> bool:
    """Every ``return`` in ``stmts`` is a statement of them or of ``try`` blocks in them
    (none under ``if``/loops/``with``, which the conversion turns into functions)."""
    for st in stmts:
        if isinstance(st, ast.Try):
            blocks = [st.body, st.orelse, st.finalbody] + [h.body for h in st.handlers]
            if not all(_plain_returns(b) for b in blocks):
                return False
        elif not isinstance(st, ast.Return) and _contains([st], ast.Return, False):
            return False
    return True


def _contains(stmts: list, kinds, stop_at_loops: bool) -> bool:
    stack = list(stmts)
    while stack:
        n = stack.pop()
        if isinstance(n, kinds):
            return True
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if stop_at_loops and isinstance(n, (ast.While, ast.For)):
            continue
        stack.extend(c for c in _children(n) if isinstance(c, ast.stmt))
    return False


def _is_generator(fdef: ast.FunctionDef) -> bool:
    """True when ``fdef`` itself yields (not a function nested in it)."""
    stack = list(fdef.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(n))
    return False


# ---------------------------------------------------------------- AST builders

def _name(id_: str, store: bool = False) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _rt(attr: str) -> ast.Attribute:
    return ast.Attribute(value=_name(RT), attr=attr, ctx=ast.Load())


def _assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[_name(name, True)], value=value)


def _const(v) -> ast.Constant:
    return ast.Constant(value=v)


def _not(e: ast.expr) -> ast.UnaryOp:
    return ast.UnaryOp(op=ast.Not(), operand=e)


def _fn(name: str, params: list, body: list) -> ast.FunctionDef:
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None,
                         kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    return ast.FunctionDef(name=name, args=args, body=body or [ast.Pass()],
                           decorator_list=[], returns=None, type_params=[])


def _tuple(names: list, store: bool = False) -> ast.Tuple:
    return ast.Tuple(elts=[_name(n, store) for n in names],
                     ctx=ast.Store() if store else ast.Load())


def _located(new, old):
    """Give generated nodes the start of ``old``'s location; user code keeps its own (and
    is not walked again, so nesting depth does not multiply the work)."""
    if isinstance(new, list):
        for n in new:
            _located(n, old)
        return new
    if getattr(new, "lineno", None) is None:
        _copy_start(new, old)
    stack = _children(new)
    while stack:
        child = stack.pop()
        if getattr(child, "lineno", None) is not None:
            continue  # user code (or already located): keeps its location
        if "lineno" in child._attributes:
            _copy_start(child, old)
        stack.extend(_children(child))
    return new


def _copy_start(new, old) -> None:
    """Locate ``new`` at the first line of ``old`` (a generated call that spanned the
    whole ``if`` block would report the block's last line as the current one)."""
    new.lineno = new.end_lineno = old.lineno
    new.col_offset = new.end_col_offset = old.col_offset


# ---------------------------------------------------------------- pass 1: jumps

class _Loop:
    def __init__(self, brk: str | None, cont: str | None):
        self.brk = brk
        self.cont = cont


def _always_jumps(stmts: list) -> bool:
    """True when running ``stmts`` always ends in ``return``/``raise`` (never falls through)."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    if isinstance(last, ast.If):
        return _always_jumps(last.body) and _always_jumps(last.orelse)
    return False


def _lower_asserts(stmts: list) -> list:
    """``assert c, msg`` becomes ``if not c: raise AssertionError(msg)`` (so a tensor
    condition checks it when the graph runs)."""
    out = []
    for st in stmts:
        if isinstance(st, ast.Assert):
            exc = ast.Call(func=_name("AssertionError"),
                           args=[st.msg] if st.msg is not None else [], keywords=[])
            st = _located(ast.If(test=_not(st.test), body=[ast.Raise(exc=exc, cause=None)],
                                 orelse=[]), st)
        out.append(st)
    return out


def _fold_tails(stmts: list) -> list:
    """``if c: ...; return a`` followed by ``rest`` becomes ``if c: ...; return a
    else: rest`` (and symmetrically), so an early return costs no extra conditional."""
    for idx, st in enumerate(stmts[:-1]):
        if not isinstance(st, ast.If):
            continue
        rest = stmts[idx + 1:]
        if _always_jumps(st.body) and not st.orelse:
            st.orelse = _fold_tails(rest)
        elif _always_jumps(st.orelse) and not _always_jumps(st.body):
            st.body = st.body + rest
        else:
            continue
        return stmts[:idx + 1]
    return stmts


class JumpLowering:
    """Turn ``return`` in control flow, ``break`` and ``continue`` into flags and guards."""

    def __init__(self):
        self.counter = itertools.count()

    def function(self, fdef: ast.FunctionDef) -> None:
        # folding first: it may move a trailing `return` into an `else`
        stmts = _fold_tails(_lower_asserts(fdef.body))
        nested_return = any(_contains(s.body + getattr(s, "orelse", []), ast.Return, False)
                            for s in stmts if isinstance(s, (ast.If, ast.While, ast.For,
                                                             ast.With)))
        if not nested_return:
            for st in stmts:  # a `return` in them returns from the trace (visit_Try)
                if isinstance(st, ast.Try):
                    st.gk_top_level = True
        body = self.block(stmts, nested_return, None)
        if nested_return:
            init = [_assign(RET_FLAG, _const(False)),
                    _assign(RET_VAL, ast.Call(func=_rt("UndefinedReturn"),
                                              args=[_const("return value")], keywords=[]))]
            body = _located(init, fdef.body[0]) + body + [
                _located(ast.Return(value=_name(RET_VAL)), fdef.body[-1])]
        fdef.body = body

    def block(self, stmts: list, ret: bool, loop: _Loop | None) -> list:
        stmts = _fold_tails(_lower_asserts(stmts))
        out: list = []
        for idx, st in enumerate(stmts):
            flags: list[str] = []
            if isinstance(st, ast.Return) and ret:
                value = st.value if st.value is not None else _const(None)
                out += _located([_assign(RET_VAL, value), _assign(RET_FLAG, _const(True))], st)
                return out
            if isinstance(st, ast.Break) and loop is not None and loop.brk:
                out.append(_located(_assign(loop.brk, _const(True)), st))
                return out
            if isinstance(st, ast.Continue) and loop is not None and loop.cont:
                out.append(_located(_assign(loop.cont, _const(True)), st))
                return out
            if isinstance(st, ast.If):
                flags = self._flags([st], ret, loop)
                st.body = self.block(st.body, ret, loop)
                st.orelse = self.block(st.orelse, ret, loop)
                out.append(st)
            elif isinstance(st, ast.With):
                # its context manager exits where the body ends or jumps (sets its flag)
                flags = self._flags([st], ret, loop)
                st.body = self.block(st.body, ret, loop) or [ast.Pass()]
                out.append(st)
            elif isinstance(st, (ast.While, ast.For)):
                if ret and _contains(st.body, ast.Return, False):
                    flags = [RET_FLAG]
                out += self.loop(st, ret)
            else:
                out.append(st)
            if flags and idx < len(stmts) - 1:
                rest = self.block(stmts[idx + 1:], ret, loop)
                if rest:
                    test = _not(_name(flags[0])) if len(flags) == 1 else _not(
                        ast.BoolOp(op=ast.Or(), values=[_name(f) for f in flags]))
                    guard = _located(ast.If(test=test, body=rest, orelse=[]), stmts[idx + 1])
                    # its else path is the one that jumped (where a single flag is True)
                    guard.gk_guard = flags[0] if len(flags) == 1 else True
                    out.append(guard)
                return out
        return out

    def _flags(self, stmts, ret: bool, loop: _Loop | None) -> list[str]:
        flags = []
        if ret and _contains(stmts, ast.Return, False):
            flags.append(RET_FLAG)
        if loop is not None and loop.brk and _contains(stmts, ast.Break, True):
            flags.append(loop.brk)
        if loop is not None and loop.cont and _contains(stmts, ast.Continue, True):
            flags.append(loop.cont)
        return flags

    def loop(self, st, ret: bool) -> list:
        n = next(self.counter)
        has_brk = _contains(st.body, ast.Break, True)
        has_cont = _contains(st.body, ast.Continue, True)
        has_ret = ret and _contains(st.body, ast.Return, False)
        lp = _Loop(f"_gk_brk{n}" if has_brk else None, f"_gk_cont{n}" if has_cont else None)
        body = self.block(st.body, ret, lp)
        if lp.cont:
            body = _located([_assign(lp.cont, _const(False))], st) + body
        st.body = body or [ast.Pass()]
        guards = []
        if lp.brk:
            guards.append(_not(_name(lp.brk)))
        if has_ret:
            guards.append(_not(_name(RET_FLAG)))
        pre = _located([_assign(lp.brk, _const(False))], st) if lp.brk else []
        if isinstance(st, ast.While):
            if guards:
                # the flags are scalar bools; the user's test becomes one too (a tensor of
                # shape [1] would not join with them)
                test = ast.Call(func=_rt("cond_bool"), args=[st.test], keywords=[])
                st.test = _located(ast.BoolOp(op=ast.And(), values=guards + [test]), st)
        elif guards:
            st.gk_extra_test = _located(
                guards[0] if len(guards) == 1 else ast.BoolOp(op=ast.And(), values=guards), st)
        post = []
        if st.orelse:
            orelse = self.block(st.orelse, ret, None)
            post = [_located(ast.If(test=_not(_name(lp.brk)), body=orelse, orelse=[]), st)] \
                if lp.brk else orelse
            st.orelse = []
        return pre + [st] + post


# ---------------------------------------------------------------- pass 2: control

_CONTEXTS = (ast.Load, ast.Store, ast.Del)


class _Transformer(ast.NodeTransformer):
    """``ast.NodeTransformer`` with its dispatch cached per node type, and without visiting
    load/store contexts (they have no fields)."""

    _dispatch: dict = {}  # (transformer class, node class) -> function

    def visit(self, node):
        key = (type(self), type(node))
        fn = self._dispatch.get(key)
        if fn is None:
            name = "visit_" + type(node).__name__
            fn = getattr(type(self), name, None)
            if fn is None or fn is getattr(ast.NodeVisitor, name, None):  # (its Constant
                fn = type(self).generic_visit  # hook only serves the removed node types)
            self._dispatch[key] = fn
        return fn(self, node)

    def generic_visit(self, node):
        for name in node._fields:
            old = getattr(node, name, None)
            if type(old) is list:
                new: list = []
                for value in old:
                    if isinstance(value, ast.AST) and not isinstance(value, _CONTEXTS):
                        value = self.visit(value)
                        if value is None:
                            continue
                        if not isinstance(value, ast.AST):
                            new.extend(value)
                            continue
                    new.append(value)
                old[:] = new
            elif isinstance(old, ast.AST) and not isinstance(old, _CONTEXTS):
                value = self.visit(old)
                if value is None:
                    delattr(node, name)
                else:
                    setattr(node, name, value)
        return node


class ControlConversion(_Transformer):
    """Replace control flow and calls by ``_gk_rt`` helper calls."""

    def __init__(self, filename: str, loaded: set | None = None,
                 local_names: set | None = None, cell_names: set | None = None):
        self.filename = filename
        self.local_names = local_names
        self.cell_names = cell_names or set()
        self.counter = itertools.count()
        self.state_names: set = set()
        # names whose items are written but never bound: objects that outlive the call
        self.outer_names: set = set()
        # names the function ever reads; a variable nobody reads is never carried
        # across a converted statement (so its type may differ between branches)
        self.loaded = loaded

    def _live(self, names) -> list:
        # jump flags are read by loop guards that live outside the AST fields (gk_extra_test)
        return sorted(n for n in names
                      if self.loaded is None or n in self.loaded or n.startswith("_gk_"))

    def _state_fn(self, name: str, lead: list, names: list, body: list) -> ast.FunctionDef:
        """A generated branch/loop function over ``names``. Variables that user closures
        capture (cell variables) are not shadowed by parameters: the function takes them as
        ``_gk_cell_<name>`` and writes the shared cell (``nonlocal``), so a closure called
        inside the body sees the current value."""
        cells = [n for n in names if n in self.cell_names]
        if not cells:
            return _fn(name, lead + names, body)
        params = lead + [f"_gk_cell_{n}" if n in self.cell_names else n for n in names]
        prologue = [ast.Nonlocal(names=cells)] + [
            _assign(n, _name(f"_gk_cell_{n}")) for n in cells]
        return _fn(name, params, prologue + body)

    def _assigned(self, *blocks) -> set:
        out: set = set()
        for b in blocks:
            out |= assigned_names(b, self.local_names)
        return out - self.outer_names

    # statements ------------------------------------------------------
    def visit_If(self, node: ast.If):
        cond = _COND_COMMENT.search(linecache.getline(self.filename, node.lineno))
        if cond is not None:  # `if x == 2:  # @jit.cond: True`: the condition is that value
            node.test = ast.copy_location(_const(cond.group(1) == "True"), node.test)
        # names first: converting the body rewrites `acc.append(v)` into a helper call
        names = self._live(self._assigned(node.body, node.orelse))
        self.generic_visit(node)
        self.state_names.update(names)
        n = next(self.counter)
        t_name, f_name = f"{FN_PREFIX}true{n}", f"{FN_PREFIX}false{n}"
        ret = ast.Return(value=_tuple(names))
        t_def = self._state_fn(t_name, [], names, node.body + [ret])
        f_def = self._state_fn(f_name, [], names,
                               node.orelse + [ast.Return(value=_tuple(names))])
        keywords = [ast.keyword(arg="guard", value=_const(node.gk_guard))] \
            if getattr(node, "gk_guard", False) else []
        call = ast.Call(func=_rt("if_stmt"),
                        args=[node.test, _name(t_name), _name(f_name), _tuple(names),
                              ast.Tuple(elts=[_const(x) for x in names], ctx=ast.Load())],
                        keywords=keywords)
        stmt = ast.Assign(targets=[_tuple(names, True)], value=call) if names else ast.Expr(call)
        return _located([t_def, f_def, stmt], node)

    def visit_While(self, node: ast.While):
        names = self._live(self._assigned(node.body))
        self.generic_visit(node)
        if node.orelse:
            raise _error(node, self.filename, "'while ... else' is not supported in graph mode.")
        self.state_names.update(names)
        n = next(self.counter)
        c_name, b_name = f"{FN_PREFIX}cond{n}", f"{FN_PREFIX}body{n}"
        c_def = self._state_fn(c_name, [], names, [ast.Return(value=node.test)])
        b_def = self._state_fn(b_name, [], names,
                               node.body + [ast.Return(value=_tuple(names))])
        call = ast.Call(func=_rt("while_stmt"),
                        args=[_name(c_name), _name(b_name), _tuple(names),
                              ast.Tuple(elts=[_const(x) for x in names], ctx=ast.Load())],
                        keywords=[])
        stmt = ast.Assign(targets=[_tuple(names, True)], value=call) if names else ast.Expr(call)
        return _located([c_def, b_def, stmt], node)

    def visit_For(self, node: ast.For):
        extra = getattr(node, "gk_extra_test", None)
        targets: set = set()
        _target_names(node.target, targets)
        names = self._live(self._assigned(node.body) | targets)
        self.generic_visit(node)
        if extra is not None:
            extra = self.visit(extra)
        if node.orelse:
            raise _error(node, self.filename, "'for ... else' is not supported in graph mode.")
        self.state_names.update(names)
        n = next(self.counter)
        b_name = f"{FN_PREFIX}for{n}"
        item = f"{FN_PREFIX}item{n}"
        bind = ast.Assign(targets=[node.target], value=_name(item))
        b_def = self._state_fn(b_name, [item], names,
                               [bind] + node.body + [ast.Return(value=_tuple(names))])
        defs = [b_def]
        extra_arg: ast.expr = _const(None)
        if extra is not None:
            t_name = f"{FN_PREFIX}test{n}"
            defs.append(self._state_fn(t_name, [], names, [ast.Return(value=extra)]))
            extra_arg = _name(t_name)
        call = ast.Call(func=_rt("for_stmt"),
                        args=[node.iter, _name(b_name), _tuple(names),
                              ast.Tuple(elts=[_const(x) for x in names], ctx=ast.Load()),
                              extra_arg], keywords=[])
        stmt = ast.Assign(targets=[_tuple(names, True)], value=call) if names else ast.Expr(call)
        return _located(defs + [stmt], node)

    def visit_Assign(self, node: ast.Assign):
        """``x[i] = v`` rebinds ``x`` to ``_gk_rt.setitem(x, i, v)`` (a Tensor gets a new
        value; lists and dicts are written as they are)."""
        self.generic_visit(node)
        target = node.targets[0] if len(node.targets) == 1 else None
        if not isinstance(target, ast.Subscript):
            return node
        if self._outlives_call(target):
            return _located(_setitem_outer(target, node.value), node)
        if not isinstance(target.value, ast.Name):
            return node
        return _located(_setitem(target, node.value), node)

    def _outlives_call(self, target: ast.Subscript) -> bool:
        """``self.d[k]`` or ``G[k]`` for a global ``G``: an object that outlives the call."""
        base = target.value
        return isinstance(base, ast.Attribute) or (
            isinstance(base, ast.Name) and base.id in self.outer_names)

    def visit_AugAssign(self, node: ast.AugAssign):
        """``x[i] += v`` is ``x = _gk_rt.setitem(x, i, x[i] + v)``."""
        self.generic_visit(node)
        target = node.target
        if not isinstance(target, ast.Subscript):
            return node
        outer = self._outlives_call(target)
        if not (outer or isinstance(target.value, ast.Name)):
            return node
        read = ast.Subscript(value=target.value, slice=target.slice, ctx=ast.Load())
        value = ast.BinOp(left=read, op=node.op, right=node.value)
        return _located(_setitem_outer(target, value) if outer else _setitem(target, value),
                        node)

    def visit_Raise(self, node: ast.Raise):
        if node.exc is None or node.cause is not None:
            self.generic_visit(node)
            return node
        exc = node.exc
        if isinstance(exc, ast.Call) and not exc.keywords and not any(
                isinstance(a, ast.Starred) for a in exc.args):
            args = [_DeferredText().visit(a) for a in exc.args]
            call = ast.Call(func=_rt("raise_"), args=[exc.func, _tuple_of(args)], keywords=[])
        else:
            call = ast.Call(func=_rt("raise_"), args=[exc], keywords=[])
        stmt = _located(ast.Expr(call), node)
        self.generic_visit(stmt)
        return stmt

    def visit_Try(self, node):
        if bytecode_capture() and not _contains([node], (ast.Break, ast.Continue), False) \
                and (not _contains([node], ast.Return, False) or
                     getattr(node, "gk_top_level", False) and _plain_returns([node])):
            # a bytecode capture runs it as Python while tracing (capture_flags.python_try)
            self.generic_visit(node)
            guard = ast.Call(func=_rt("python_try"), args=[], keywords=[])
            return _located(ast.With(items=[ast.withitem(context_expr=guard)], body=[node]),
                            node)
        raise _error(node, self.filename, "'try' statements are not supported in graph mode "
                     "(a static graph cannot catch exceptions); move error handling outside "
                     "the compiled function.")

    visit_TryStar = visit_Try

    def visit_Yield(self, node):
        raise _error(node, self.filename, "'yield' is not supported in graph mode: a compiled "
                     "function cannot be a generator.")

    visit_YieldFrom = visit_Yield
    visit_Await = visit_Yield

    def visit_Global(self, node):
        if bytecode_capture():  # written when the graph runs (compile/arg_writes.py)
            note = ast.Call(func=_rt("note_global_writes"),
                            args=[ast.Call(func=_name("globals"), args=[], keywords=[]),
                                  _tuple_of([ast.Constant(n) for n in node.names])],
                            keywords=[])
            return [node, _located(ast.Expr(note), node)]
        raise _error(node, self.filename, f"Writing global variables "
                     f"({', '.join(node.names)}) is not supported in graph mode; pass the value "
                     f"in as an argument or keep it as an attribute of the Cell.")

    def visit_Nonlocal(self, node):
        raise _error(node, self.filename, "'nonlocal' is not supported in graph mode.")

    # expressions -----------------------------------------------------
    def visit_IfExp(self, node: ast.IfExp):
        self.generic_visit(node)
        lam = [ast.Lambda(args=_fn("x", [], []).args, body=b) for b in (node.body, node.orelse)]
        return _located(ast.Call(func=_rt("ifexp"), args=[node.test] + lam, keywords=[]), node)

    def visit_BoolOp(self, node: ast.BoolOp):
        self.generic_visit(node)
        helper = "and_" if isinstance(node.op, ast.And) else "or_"
        thunks = [ast.Lambda(args=_fn("x", [], []).args, body=v) for v in node.values[1:]]
        return _located(ast.Call(func=_rt(helper), args=[node.values[0]] + thunks,
                                 keywords=[]), node)

    def visit_UnaryOp(self, node: ast.UnaryOp):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return _located(ast.Call(func=_rt("not_"), args=[node.operand], keywords=[]), node)
        return node

    def visit_Compare(self, node: ast.Compare):
        self.generic_visit(node)
        if len(node.ops) == 1:
            if isinstance(node.ops[0], (ast.In, ast.NotIn)):
                # ``x in seq`` may be a run-time bool (a dynamic length sequence)
                test = ast.Call(func=_rt("contains"), args=[node.left, node.comparators[0]],
                                keywords=[])
                if isinstance(node.ops[0], ast.NotIn):
                    test = ast.Call(func=_rt("not_"), args=[test], keywords=[])
                return _located(test, node)
            if isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
                # ``x.shape == (3, 4)`` may be a run-time bool (a dynamic shape)
                negate = [ast.Constant(True)] if isinstance(node.ops[0], ast.NotEq) else []
                return _located(ast.Call(func=_rt("equal"), args=[
                    node.left, node.comparators[0], *negate], keywords=[]), node)
            return node
        parts = []
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            parts.append(ast.Compare(left=left, ops=[op], comparators=[right]))
            left = right
        return _located(ast.Call(func=_rt("and_"), args=[parts[0]] + [
            ast.Lambda(args=_fn("x", [], []).args, body=p) for p in parts[1:]],
            keywords=[]), node)

    def visit_Subscript(self, node: ast.Subscript):
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load):
            return node
        index = node.slice
        if isinstance(index, ast.Slice):
            # int bounds slice natively; others may be Tensors (a tuple's bounds) or wrong
            parts = (index.lower, index.upper, index.step)
            if all(p is None or isinstance(p, ast.Constant) and type(p.value) is int
                   for p in parts) and not (index.step and index.step.value == 0):
                return node
            index = ast.Call(func=_rt("make_slice"), keywords=[], args=[
                p if p is not None else ast.Constant(None) for p in parts])
        return _located(ast.Call(func=_rt("getitem"), args=[node.value, index],
                                 keywords=[]), node)

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Name) and (f.id in _NO_CONVERT_CALLS or f.id.startswith(FN_PREFIX)):
            return node
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == RT:
            return node
        return _located(ast.Call(func=_rt("call"), args=[f] + node.args,
                                 keywords=node.keywords), node)

    def visit_FunctionDef(self, node: ast.FunctionDef):
        if node.name.startswith(FN_PREFIX):
            self.generic_visit(node)
            return node
        if bytecode_capture() and _is_generator(node):
            return node  # runs as Python while the capture traces (control.call_user)
        return convert_function_ast(node, self.filename, self)

    def visit_Lambda(self, node: ast.Lambda):
        self.generic_visit(node)
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr):
        # an f-string of graph values is formatted when the graph runs
        _visit_fstring_values(self, node)
        return _fstring_call(node, "fstring_text")


class _DeferredText(_Transformer):
    """f-strings and ``str % values`` in a raised exception's arguments become
    ``_gk_rt.fstring``/``_gk_rt.percent`` calls, so graph values in them are formatted
    when the graph runs."""

    def visit_JoinedStr(self, node: ast.JoinedStr):
        _visit_fstring_values(self, node)
        return _fstring_call(node, "fstring")

    def visit_BinOp(self, node: ast.BinOp):
        self.generic_visit(node)
        if isinstance(node.op, ast.Mod) and (
                isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)
                or _is_rt_call(node.left, "fstring")):
            return _located(ast.Call(func=_rt("percent"), args=[node.left, node.right],
                                     keywords=[]), node)
        return node

    def visit_Lambda(self, node):
        return node


def _visit_fstring_values(visitor: ast.NodeTransformer, node: ast.JoinedStr) -> None:
    """Visit the expressions of an f-string, those of its format specs too, leaving the
    specs themselves f-string parts (not converted like a lone f-string)."""
    for v in node.values:
        if isinstance(v, ast.FormattedValue):
            v.value = visitor.visit(v.value)
            if v.format_spec is not None:
                _visit_fstring_values(visitor, v.format_spec)


def _fstring_call(node: ast.JoinedStr, helper: str) -> ast.expr:
    """``f"..."`` as ``_gk_rt.<helper>(parts...)``: literal parts and ``(value, conversion,
    format_spec)`` tuples; ``node`` itself when a format spec is computed (formatted now)."""
    parts: list = []
    for v in node.values:
        if isinstance(v, ast.Constant):
            parts.append(v)
            continue
        spec = v.format_spec
        if spec is not None and not all(isinstance(p, ast.Constant) for p in spec.values):
            return node
        spec_text = "".join(p.value for p in spec.values) if spec is not None else ""
        parts.append(_tuple_of([v.value, _const(v.conversion), _const(spec_text)]))
    return _located(ast.Call(func=_rt(helper), args=parts, keywords=[]), node)


def _setitem(target: ast.Subscript, value: ast.expr) -> ast.Assign:
    name = target.value.id
    call = ast.Call(func=_rt("setitem"), args=[_name(name), target.slice, value], keywords=[])
    return _assign(name, call)


def _setitem_outer(target: ast.Subscript, value: ast.expr) -> ast.Expr:
    """``obj[i] = v`` for an object that outlives the call: ``_gk_rt.setitem_outer``."""
    return ast.Expr(ast.Call(func=_rt("setitem_outer"),
                             args=[target.value, target.slice, value], keywords=[]))


def _is_rt_call(node, attr: str) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == attr and isinstance(node.func.value, ast.Name)
            and node.func.value.id == RT)


def _tuple_of(elts: list) -> ast.Tuple:
    return ast.Tuple(elts=elts, ctx=ast.Load())


class _FunctionFacts:
    """One walk over a function definition: the names it reads (``k -= 1`` reads k), binds
    or deletes, and whose items it assigns (``G[k] = v``, ``G[k] += v``), everywhere; the
    names its body binds in its own scope (as :func:`assigned_names`); and the names read
    inside its nested functions and lambdas (over-approximating its cell variables)."""

    def __init__(self, fdef: ast.FunctionDef):
        self.loaded: set = set()
        self.stored: set = set()
        self.item_written: set = set()
        self.captured: set = set()
        bound: set = set()
        # (node, in the function's own scope, inside a nested function or lambda)
        body = {id(c) for c in fdef.body}
        stack = [(c, id(c) in body, False) for c in _children(fdef)]
        while stack:
            n, scope, closure = stack.pop()
            if type(n) is ast.Name:
                if isinstance(n.ctx, ast.Load):
                    self.loaded.add(n.id)
                    if closure:
                        self.captured.add(n.id)
                else:
                    self.stored.add(n.id)
                continue
            if isinstance(n, (ast.Assign, ast.AugAssign)):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                self.item_written.update(t.value.id for t in targets
                                         if isinstance(t, ast.Subscript)
                                         and isinstance(t.value, ast.Name))
                if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                    self.loaded.add(n.target.id)
            if scope:  # (no name is local yet: a method call binds nothing)
                scope = _binds(n, bound, _NO_LOCALS)
            closure = closure or isinstance(n, (ast.FunctionDef, ast.Lambda))
            stack.extend((c, scope, closure) for c in _children(n))
        self.bound = {b for b in bound if not b.startswith(FN_PREFIX)}


def _outer_written(fdef: ast.FunctionDef, local_names: set, stored: set,
                   item_written: set) -> set:
    """Names whose items the function writes (``G[k] = v``) but which it never binds: a
    global or closure object that outlives the call (not a local variable to rebind)."""
    if not item_written:
        return set()
    bound = local_names - item_written  # arguments, imports, nested defs...
    return {b for b in item_written if b not in stored and b not in bound and
            not any(isinstance(a, ast.arg) and a.arg == b for a in ast.walk(fdef.args))}


def convert_function_ast(fdef: ast.FunctionDef, filename: str,
                         conv: ControlConversion | None = None) -> ast.FunctionDef:
    """Apply both passes to one function definition (and the functions nested in it)."""
    JumpLowering().function(fdef)
    conv_outer = conv
    facts = _FunctionFacts(fdef)
    args = fdef.args
    local_names = facts.bound | {  # bindings only
        a.arg for a in args.posonlyargs + args.args + args.kwonlyargs
        + [a for a in (args.vararg, args.kwarg) if a is not None]}
    outer = _outer_written(fdef, local_names, facts.stored, facts.item_written)
    local_names -= outer
    conv = ControlConversion(filename, facts.loaded, local_names,
                             facts.captured & local_names)
    conv.outer_names = outer
    if conv_outer is not None:
        conv.counter = conv_outer.counter
    fdef.body = [s for st in fdef.body for s in _as_list(conv.visit(st))]
    params = {a.arg for a in fdef.args.args + fdef.args.kwonlyargs + fdef.args.posonlyargs}
    for a in (fdef.args.vararg, fdef.args.kwarg):
        if a is not None:
            params.add(a.arg)
    init_names = sorted(n for n in conv.state_names if n not in params)
    if init_names:
        module_scope = ast.Call(func=_name("globals"), args=[], keywords=[])
        init = [_assign(n, ast.Call(func=_rt("undefined"), args=[_const(n), module_scope],
                                    keywords=[]))
                for n in init_names]
        fdef.body = _located(init, fdef.body[0]) + fdef.body
    fdef.decorator_list = []
    return fdef


def _as_list(x):
    return x if isinstance(x, list) else [x]


# ---------------------------------------------------------------- compile

_CACHE: dict = {}
CONVERTED_CODES: set = set()
ORIGINAL_CODE: dict = {}  # converted code -> the user's code it was made from


def _mark_codes(code: types.CodeType) -> None:
    CONVERTED_CODES.add(code)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            _mark_codes(c)


def converted_code(fn: types.FunctionType) -> types.CodeType:
    """The converted code of ``fn`` (cached per code object), or ``fn.__code__`` itself when
    its source is unavailable (such code still traces, but tensor conditions in it are
    errors). Its free variable ``_gk_rt`` must be bound to the run-time helpers."""
    key = (fn.__code__, bytecode_capture())  # a bytecode capture converts `try` too
    cached = _CACHE.get(key)
    if cached is None:
        cached = _CACHE[key] = _convert_code(fn)
        ORIGINAL_CODE[cached] = fn.__code__
    return cached


_DEFS_BY_FILE: dict[str, dict] = {}


def _defs_in(filename: str) -> dict:
    """(first line, name) -> (start, end) line span of every ``def`` in a source file."""
    table = _DEFS_BY_FILE.get(filename)
    if table is None:
        table = {}
        text = "".join(linecache.getlines(filename))
        try:
            module = ast.parse(text) if text else None
        except SyntaxError:
            module = None
        if module is not None:
            for node in _statements(module):
                if isinstance(node, ast.FunctionDef):
                    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                    span = (node.lineno, node.end_lineno)
                    table[(first, node.name)] = span
                    table[(node.lineno, node.name)] = span
        _DEFS_BY_FILE[filename] = table
    return table


_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def _statements(module: ast.Module):
    """Every statement of a module, nested ones included, without visiting expressions
    (a ``def`` can only be a statement, so this finds them all, much faster)."""
    stack = list(module.body)
    while stack:
        node = stack.pop()
        yield node
        for field in _BLOCK_FIELDS:
            stack.extend(getattr(node, field, ()) or ())


def _indented_block(code: types.CodeType):
    """The fast path: the ``def`` at ``co_firstlineno`` (after its decorators) and the lines
    indented below it, parsed alone. None when that does not give exactly this function
    (unusual layouts then take the whole-file path)."""
    lines = linecache.getlines(code.co_filename)
    i = code.co_firstlineno - 1
    while 0 <= i < len(lines) and lines[i].lstrip().startswith("@"):
        i += 1
    if not 0 <= i < len(lines) or not lines[i].lstrip().startswith("def "):
        return None
    indent = len(lines[i]) - len(lines[i].lstrip())
    end = i
    for j in range(i + 1, len(lines)):
        text = lines[j].strip()
        if not text or text.startswith("#"):
            continue
        if len(lines[j]) - len(lines[j].lstrip()) <= indent:
            break
        end = j
    tree = _parse_at(lines[i:end + 1], i + 1)
    if tree is None or len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef) \
            or tree.body[0].name != code.co_name:
        return None
    return tree


def _parse_at(lines: list, first: int) -> ast.Module | None:
    """``lines`` dedented and parsed with the line numbers they have in their file (blank
    lines before them: no walk to renumber the tree), or None on a syntax error."""
    try:
        return ast.parse("\n" * (first - 1) + textwrap.dedent("".join(lines)))
    except SyntaxError:
        return None


def function_source(code: types.CodeType) -> ast.Module | None:
    """A fresh AST (one ``def``, decorators dropped, its file's line numbers) of ``code``'s
    function: the indented block under the ``def``, or else found by parsing its file once
    (no ``inspect``/``tokenize`` on the hot path)."""
    fast = _indented_block(code)
    if fast is not None:
        return fast
    filename = code.co_filename
    span = _defs_in(filename).get((code.co_firstlineno, code.co_name))
    if span is None:
        return None
    start, end = span
    tree = _parse_at(linecache.getlines(filename)[start - 1:end], start)
    if tree is None or not tree.body or not isinstance(tree.body[0], ast.FunctionDef):
        return None
    return tree


def _convert_code(fn: types.FunctionType) -> types.CodeType:
    tree = function_source(fn.__code__)
    if tree is None:
        return fn.__code__  # no source (REPL, exec) or a lambda: trace it as it is
    fdef = tree.body[0]
    filename = fn.__code__.co_filename
    fdef = convert_function_ast(fdef, filename)
    freevars = list(fn.__code__.co_freevars)
    factory_body = [_assign(v, _const(None)) for v in freevars + [RT]]
    factory = _fn("_gk_factory", [], factory_body + [fdef, ast.Return(value=_name(fdef.name))])
    module = ast.Module(body=[_located(factory, fdef)], type_ignores=[])
    try:  # the conversion locates what it generates: usually nothing is left to fix
        code = compile(module, filename, "exec")
    except TypeError:  # 'required field "lineno" missing'
        ast.fix_missing_locations(module)
        code = compile(module, filename, "exec")
    factory_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in factory_code.co_consts
                 if isinstance(c, types.CodeType) and c.co_name == fdef.name)
    _mark_codes(inner)
    return inner
