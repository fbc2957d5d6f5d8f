"""Networks for tests/rewrite/test_symbol_tree.py and fixtures/record_rewrite.py, written
against ``mindspore`` (graphkiln's tests alias it, tests/rewrite/conftest.py)."""
import mindspore.nn as nn
import numpy as np
from mindspore import Tensor


def helper(x):
    return x * 2


class Base(nn.Cell):
    scale = Tensor(np.float32(3.0))

    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(x)

    def shift(self, x):
        return x - 1


class Plain:
    def twice(self, x):
        return x + x


class Child(Base, Plain):
    offset = helper
    if True:  # a class variable under a statement  # noqa: SIM108
        bias = 0.5

    def __init__(self):
        Base.__init__(self)
        self.dense = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
        self.inner = Inner()

    def construct(self, x, y):
        x = self.relu(self.dense(x))
        z = self.shift(x) + y * self.scale
        if self.training:
            return z
        z = Child.offset(self.inner(z))
        w = self.twice(z)
        return w + self.bias


class Inner(Base):
    def construct(self, x):
        x = self.shift(x)
        return self.relu(x)


class Chain(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = nn.ReLU()
        self.b = nn.Tanh()
        self.c = nn.Sigmoid()

    def construct(self, x):
        x = self.a(x)
        x = self.b(x)
        x = self.c(x)
        return x


def inputs():
    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    y = np.linspace(0.5, -0.5, 4, dtype=np.float32).reshape(2, 2)
    return x, y


def describe(stree) -> dict:
    """What the tests compare: nodes, class lines and the root construct."""
    code = stree.get_code()
    lines = code.splitlines()
    start = max(i for i, s in enumerate(lines) if s.strip().startswith("def construct"))
    body = []
    for s in lines[start + 1:]:
        if s.strip() and not s.startswith("        "):
            break
        if s.strip():
            body.append(s.strip())
    return {"nodes": [[n.get_name(), n.get_node_type().name, [str(t) for t in n.get_targets()]]
                      for n in stree.nodes()],
            "classes": sorted(s.strip() for s in lines if s.startswith("class ")),
            "class_vars": sorted(s.strip() for s in lines if "self.__class__." in s),
            "construct": body}


def edit_chain(stree, nn_module, scoped_value, node_cls) -> dict:
    """Insert a cell after ``a``, erase ``b``, replace ``c``; the structure after each."""
    a = stree.get_node("a")
    new = node_cls.create_call_cell(cell=nn_module.ReLU6(), targets=[stree.unique_name("x")],
                                    args=[scoped_value.create_naming_value("x")], name="a")
    for user in a.get_users():
        user.set_arg_by_node(0, new, 0)
    stree.insert(stree.after(a), new)
    out = {"after_insert": [n.get_name() for n in stree.nodes()],
           "users_of_a": [n.get_name() for n in stree.get_node("a").get_users()],
           "inputs_of_new": [n.get_name() for n in new.get_inputs()]}
    b = stree.get_node("b")
    c = stree.get_node("c")
    c.set_arg(0, "x")
    stree.erase(b)
    flat = node_cls.create_call_cell(cell=nn_module.Softsign(), targets=["x"],
                                     args=[scoped_value.create_naming_value("x")], name="soft")
    stree.replace(c, [flat])
    out["final"] = describe(stree)
    return out
