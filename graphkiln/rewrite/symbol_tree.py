"""``mindspore.rewrite.SymbolTree``: a network's ``construct`` as an editable list of nodes,
and the network rebuilt from it.

The rebuilt network is an instance of ``<Net>Opt``, a class generated as MindSpore's rewrite
generates it: ``class NetOpt(Net, <Base>Opt..., nn.Cell)``, whose bases are the ``Opt``
classes of the user-written base classes (each generated too, without its class variables,
which it inherits) and the library bases as the source wrote them; its ``__init__(self,
obj)`` takes over ``obj``'s attributes (and class variables), and its ``construct`` is the
nodes' code. A cell of a user-written class called in ``construct`` is a sub-tree (a
``Tree`` node), rebuilt the same way."""
from __future__ import annotations

import ast
import inspect
import linecache
import sys
import textwrap

from ..nn.cell import Cell
from .node import Node
from .parse import Flattener, Namer, is_user_class, statement_node
from .values import NodeType, ScopedValue


class Position:
    """Where :meth:`SymbolTree.insert` puts a node: before or after ``node``."""

    def __init__(self, tree: SymbolTree, node: Node, before: bool):
        self.symbol_tree, self.node, self.before_node = tree, node, before


def _class_def(cls: type) -> ast.ClassDef:
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError) as e:
        raise RuntimeError(f"For 'SymbolTree.create', the source of class '{cls.__name__}' "
                           f"cannot be read ({e}).") from None
    return next(n for n in ast.parse(source).body if isinstance(n, ast.ClassDef))


def _construct_owner(cls: type) -> type:
    """The class whose ``construct`` the network runs."""
    for k in cls.__mro__:
        if "construct" in k.__dict__:
            if not is_user_class(k):
                raise RuntimeError(f"For 'SymbolTree.create', '{cls.__name__}' has no "
                                   f"construct of its own to rewrite.")
            return k
    raise RuntimeError(f"For 'SymbolTree.create', '{cls.__name__}' defines no construct.")


class SymbolTree:
    """The nodes of a network's ``construct`` (see the module docstring)."""

    def __init__(self, network: Cell):
        self._net = network
        self._cls = type(network)
        owner = _construct_owner(self._cls)
        fn = next(n for n in _class_def(owner).body
                  if isinstance(n, ast.FunctionDef) and n.name == "construct")
        self._fn_args = fn.args
        self._targets, self._names = Namer(), Namer()
        for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs):
            self._targets.add(a.arg)
        for n in ast.walk(fn):
            if isinstance(n, ast.Name):
                self._targets.add(n.id)
        self._nodes: list = []
        for a in fn.args.args[1:]:
            self._add(Node(NodeType.Input, self._names.get(f"input_{a.arg}"),
                           targets=[ScopedValue.create_naming_value(a.arg)]))
        flattener = Flattener(self._targets)
        for stmt in fn.body:
            for flat in flattener.statement(stmt):
                node = statement_node(flat, network, self._names)
                if node.get_node_type() == NodeType.Tree:
                    node._sub_tree = SymbolTree(node.get_instance())
                self._add(node)

    @staticmethod
    def create(network: Cell) -> SymbolTree:
        """The SymbolTree of ``network``'s construct."""
        if not isinstance(network, Cell):
            raise TypeError(f"For 'SymbolTree.create', the 'network' must be a Cell, but got "
                            f"{type(network).__name__}.")
        return SymbolTree(network)

    def _add(self, node: Node, index: int | None = None) -> None:
        node._tree = self
        self._nodes.insert(len(self._nodes) if index is None else index, node)

    # ------------------------------------------------------------------ queries
    def nodes(self, all_nodes: bool = False):
        """The nodes, in order (a generator, as MindSpore's)."""
        yield from list(self._nodes)

    def get_node(self, node_name: str) -> Node | None:
        return next((n for n in self._nodes if n.get_name() == node_name), None)

    def unique_name(self, name: str = "output") -> str:
        """A target name not used in the tree yet (``x`` -> ``x_3``)."""
        return self._targets.get(name)

    def producers(self, node: Node) -> list:
        i = self._nodes.index(node)
        found = []
        for name in node.names_read():
            writer = next((n for n in reversed(self._nodes[:i])
                           if name in n.names_written()), None)
            if writer is not None and writer not in found:
                found.append(writer)
        # in argument order
        order = [a.value for a in node.get_args()]
        return sorted(found, key=lambda n: min((order.index(t) for t in n.names_written()
                                                if t in order), default=len(order)))

    def consumers(self, node: Node) -> list:
        i = self._nodes.index(node)
        users = []
        for name in node.names_written():
            for n in self._nodes[i + 1:]:
                if name in n.names_read() and n not in users:
                    users.append(n)
                if name in n.names_written():
                    break
        return sorted(users, key=self._nodes.index)

    # ------------------------------------------------------------------ edits
    def after(self, node: Node) -> Position:
        self._check_node(node, "after")
        return Position(self, node, False)

    def before(self, node: Node) -> Position:
        self._check_node(node, "before")
        return Position(self, node, True)

    def _check_node(self, node, fn: str) -> None:
        if not isinstance(node, Node) or node not in self._nodes:
            raise RuntimeError(f"For 'SymbolTree.{fn}', the node {node!r} does not belong to "
                               f"this SymbolTree.")

    def insert(self, position: Position, node: Node) -> Node:
        """Insert ``node`` at ``position``; its name and targets are registered."""
        if not isinstance(position, Position) or position.symbol_tree is not self:
            raise RuntimeError("For 'SymbolTree.insert', the position does not belong to "
                               "this SymbolTree.")
        index = self._nodes.index(position.node) + (0 if position.before_node else 1)
        old, node._name = node.get_name(), self._names.get(node.get_name())
        if node.get_instance() is not None and node._func == \
                ScopedValue.create_naming_value(old, "self"):  # its cell's attribute too
            node._func = ScopedValue.create_naming_value(node.get_name(), "self")
        for t in node.get_targets():
            self._targets.add(t.value)
        self._add(node, index)
        return node

    def erase(self, node: Node) -> None:
        self._check_node(node, "erase")
        self._nodes.remove(node)
        node._tree = None

    def replace(self, old_node: Node, new_nodes: list) -> Node:
        """Put ``new_nodes`` where ``old_node`` was."""
        self._check_node(old_node, "replace")
        position = self.before(old_node)
        for node in new_nodes:
            self.insert(position, node)
        self.erase(old_node)
        return new_nodes[-1] if new_nodes else None

    # ------------------------------------------------------------------ code
    def _construct_code(self) -> ast.FunctionDef:
        body = [s for s in (n.to_stmt() for n in self._nodes) if s is not None] or [ast.Pass()]
        # the class itself, named in construct (``Net.var(x)``), is its Opt class
        body = [_RenameClass(self._cls.__name__).visit(s) for s in body]
        return ast.FunctionDef("construct", self._fn_args, body, [], None, type_params=[]) \
            if sys.version_info >= (3, 12) else \
            ast.FunctionDef("construct", self._fn_args, body, [], None)

    def _classes(self, emitted: dict) -> None:
        """The ``Opt`` classes of this tree and its sub-trees, into ``emitted`` (name ->
        source) in definition order."""
        for node in self._nodes:
            if node.get_node_type() == NodeType.Tree and node.get_sub_tree() is not None:
                node.get_sub_tree()._classes(emitted)
        _opt_class(self._cls, emitted, self)

    def get_code(self) -> str:
        """The source of the rewritten network's classes."""
        emitted: dict = {}
        self._classes(emitted)
        modules = sorted({k.__module__ for k in _user_classes(self)})
        header = [f"# rewritten by graphkiln.rewrite; names resolve in module {m}"
                  for m in modules]
        return "\n".join(header + list(emitted.values())) + "\n"

    def get_network(self) -> Cell:
        """A new network running the nodes' code, holding the original's attributes."""
        namespace: dict = {}
        for k in _user_classes(self):
            namespace.update(vars(sys.modules[k.__module__]))
        for k in _user_classes(self):
            namespace[k.__name__] = k
        code = self.get_code()
        filename = f"<graphkiln.rewrite {self._cls.__name__}Opt>"
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        exec(compile(code, filename, "exec"), namespace)  # noqa: S102 - generated code
        return self._instantiate(namespace)

    def _instantiate(self, namespace: dict) -> Cell:
        net = namespace[f"{self._cls.__name__}Opt"](self._net)
        for node in self._nodes:
            attr = node._func.value if node._func is not None and \
                node._func.scope == "self" else None
            if node.get_node_type() == NodeType.Tree and attr and \
                    node.get_sub_tree() is not None:
                setattr(net, attr, node.get_sub_tree()._instantiate(namespace))
            elif node.get_instance() is not None and attr and \
                    getattr(net, attr, None) is not node.get_instance():
                setattr(net, attr, node.get_instance())
        return net


class _RenameClass(ast.NodeTransformer):
    def __init__(self, name: str):
        self.name = name

    def visit_Name(self, node: ast.Name) -> ast.Name:  # noqa: N802 - ast's visitor name
        if node.id == self.name:
            return ast.copy_location(ast.Name(f"{self.name}Opt", node.ctx), node)
        return node


def _user_classes(tree: SymbolTree) -> list:
    found = [k for k in tree._cls.__mro__ if is_user_class(k)]
    for node in tree._nodes:
        if node.get_node_type() == NodeType.Tree and node.get_sub_tree() is not None:
            found += [k for k in _user_classes(node.get_sub_tree()) if k not in found]
    return found


def _base_texts(cls: type, emitted: dict) -> list:
    """The bases of ``cls``'s Opt class after ``cls`` itself: ``<Base>Opt`` for a
    user-written base (generated), else the base as the source wrote it."""
    written = [ast.unparse(b) for b in _class_def(cls).bases]
    texts = []
    for i, base in enumerate(cls.__bases__):
        if is_user_class(base):
            _opt_class(base, emitted, None)
            texts.append(f"{base.__name__}Opt")
        elif base is not object:
            texts.append(written[i] if i < len(written) else base.__name__)
    return texts


def _opt_class(cls: type, emitted: dict, tree: SymbolTree | None) -> None:
    """Generate ``<cls>Opt`` (the root class of ``tree`` when given) into ``emitted``."""
    name = f"{cls.__name__}Opt"
    if name in emitted and tree is None:
        return
    bases = _base_texts(cls, emitted)
    inits = [f"        {b}.__init__(self)" for b in bases if b.endswith("Opt")]
    if not inits:
        inits = [f"        {b}.__init__(self)" for b in bases if _is_cell_base(cls, b)][:1]
    lines = [f"class {name}({', '.join([cls.__name__] + bases)}):", ""]
    if tree is None:
        lines += ["    def __init__(self):", *(inits or ["        pass"])]
    else:
        class_vars = _class_variables(_class_def(cls))
        lines += ["    def __init__(self, obj):", *inits,
                  "        for key, value in obj.__dict__.items():",
                  "            setattr(self, key, value)",
                  *(f"        self.__class__.{k} = obj.__class__.{k}" for k in class_vars), "",
                  textwrap.indent(ast.unparse(ast.fix_missing_locations(
                      tree._construct_code())), "    ")]
    emitted[name] = "\n".join(lines) + "\n"


def _class_variables(node: ast.ClassDef) -> list:
    """The names the class body assigns (also under an ``if``), not its methods."""
    names: list = []
    todo = list(node.body)
    while todo:
        stmt = todo.pop(0)
        if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names += [n.id for t in targets for n in ast.walk(t)
                      if isinstance(n, ast.Name) and n.id not in names]
        elif isinstance(stmt, (ast.If, ast.For, ast.While, ast.With, ast.Try)):
            todo += [s for f in ("body", "orelse", "finalbody") for s in getattr(stmt, f, ())]
    return [n for n in names if not n.startswith("__")]


def _is_cell_base(cls: type, text: str) -> bool:
    return any(b is Cell or (isinstance(b, type) and issubclass(b, Cell))
               for b in cls.__bases__ if text.endswith(b.__name__))
