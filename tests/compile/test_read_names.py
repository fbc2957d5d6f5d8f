"""``read_names``: the attribute names traced code may read (its attribute loads and
string constants), found from the raw instructions, equal to what ``dis`` decodes."""
import dis
import types

from graphkiln.compile import guards

_LOADS = {"LOAD_ATTR", "LOAD_METHOD", "LOAD_SUPER_ATTR"}


def _dis_loads(code: types.CodeType) -> list:
    return [ins.argval for ins in dis.get_instructions(code) if ins.opname in _LOADS]


class _Base:
    def g(self, x):
        return x


class _Child(_Base):
    def f(self):
        y = super().g(self.a.b)  # LOAD_SUPER_ATTR on 3.12+
        return self.c.method(y) + super().g(1)


def _many_attributes():
    """More than 256 names: the later ones need EXTENDED_ARG."""
    src = "def f(o):\n" + "\n".join(f"    v{i} = o.attr{i}.m{i}()" for i in range(300))
    ns: dict = {}
    exec(compile(src, "<many>", "exec"), ns)
    return ns["f"]


def test_raw_attribute_loads_match_dis():
    codes = [_Child.f.__code__, _many_attributes().__code__, guards.read_names.__code__,
             dis.get_instructions.__code__]
    for code in codes:
        assert guards._attribute_loads(code) == _dis_loads(code)
    assert len(guards._attribute_loads(codes[1])) == 600


def test_read_names_has_loads_strings_and_nested_code():
    def outer(self):
        def inner():
            return self.hidden
        key = "by_name"
        return getattr(self, key), self.shown, inner
    names = guards.read_names([outer])
    assert {"hidden", "by_name", "shown"} <= names
    assert "outer" not in names and "self" not in names
