"""Spec: "Using jit_class" — every example prints what the spec prints; both errors."""
import numpy as np
import pytest

import graphkiln as ms
import graphkiln.nn as nn


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)


def test_class_attribute(capsys):
    @ms.jit_class
    class InnerNet:
        value = ms.Tensor(np.array([1, 2, 3]))

    class Net(nn.Cell):
        def construct(self):
            return InnerNet().value

    net = Net()
    out = net()
    print(out)
    assert capsys.readouterr().out == "[1 2 3]\n"


def test_decorating_a_cell_is_a_type_error():
    with pytest.raises(TypeError) as e:
        @ms.jit_class
        class Net(nn.Cell):
            def construct(self, x):
                return x
    # MindSpore 2.10 names the class by its repr (the tutorial's static-graph expert page)
    assert str(e.value) == ("Decorator jit_class is used for user-defined classes and "
                            "cannot be used for nn.Cell: <class 'tests.spec.test_jit_class."
                            "test_decorating_a_cell_is_a_type_error.<locals>.Net'>.")


def test_nested_jit_classes_in_a_cell(capsys):
    @ms.jit_class
    class Inner:
        def __init__(self):
            self.value = ms.Tensor(np.array([1, 2, 3]))

    @ms.jit_class
    class InnerNet:
        def __init__(self):
            self.inner = Inner()

    class Net(nn.Cell):
        def __init__(self):
            super(Net, self).__init__()
            self.inner_net = InnerNet()

        def construct(self):
            out = self.inner_net.inner.value
            return out

    net = Net()
    out = net()
    print(out)
    assert capsys.readouterr().out == "[1 2 3]\n"


@ms.jit_class
class ActNet:
    def __init__(self, val):
        self.number = val

    def act(self, x, y):
        return self.number * (x + y)


class AttrNet(nn.Cell):
    def __init__(self):
        super(AttrNet, self).__init__()
        self.inner_net = ActNet(2)

    def construct(self, x, y):
        return self.inner_net.number + self.inner_net.act(x, y)


def test_attributes_and_methods(capsys):
    x = ms.Tensor(2, dtype=ms.int32)
    y = ms.Tensor(3, dtype=ms.int32)
    net = AttrNet()
    out = net(x, y)
    print(out)
    assert capsys.readouterr().out == "12\n"
    assert out.dtype == ms.int32


def test_instance_created_in_construct(capsys):
    @ms.jit_class
    class InnerNet:
        def __init__(self, val):
            self.number = val + 3

    class Net(nn.Cell):
        def construct(self):
            net = InnerNet(2)
            return net.number

    net = Net()
    out = net()
    print(out)
    assert capsys.readouterr().out == "5\n"


@ms.jit_class
class CallNet:
    def __init__(self, number):
        self.number = number

    def __call__(self, x, y):
        return self.number * (x + y)


class UsesCallNet(nn.Cell):
    def construct(self, x, y):
        net = CallNet(2)
        out = net(x, y)
        return out


def test_calling_an_instance(capsys):
    x = ms.Tensor(2, dtype=ms.int32)
    y = ms.Tensor(3, dtype=ms.int32)
    net = UsesCallNet()
    out = net(x, y)
    print(out)
    assert capsys.readouterr().out == "10\n"


def test_calling_an_instance_without_call_is_a_value_error():
    @ms.jit_class
    class InnerNet:
        def __init__(self, number):
            self.number = number

    class Net(nn.Cell):
        def construct(self, x, y):
            net = InnerNet(2)
            out = net(x, y)
            return out

    x = ms.Tensor(2, dtype=ms.int32)
    y = ms.Tensor(3, dtype=ms.int32)
    net = Net()
    with pytest.raises(ValueError) as e:
        net(x, y)
    assert str(e.value).splitlines()[0] == (
        "MsClassObject: 'InnerNet' has no __call__ function, please check the code.")


def test_subclass_of_jit_class_is_a_jit_class_and_branches_compile():
    class Scaled(CallNet):
        def __call__(self, x, y):
            if x > y:  # a tensor condition inside a jit-class method
                return self.number * x
            return self.number * y

    class Net(nn.Cell):
        def construct(self, x, y):
            return Scaled(3)(x, y)

    x, y = ms.Tensor(2, dtype=ms.int32), ms.Tensor(5, dtype=ms.int32)
    assert Net()(x, y).asnumpy() == 15
    net = Net()
    assert net(y, x).asnumpy() == 15
    assert ms.compile_info(net).count("Switch") == 1


def test_jit_class_created_in_a_loop_with_constants():
    class Net(nn.Cell):
        def construct(self, x):
            out = x
            for k in range(3):
                out = CallNet(k)(out, x)
            return out

    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    expected = x.asnumpy()
    for k in range(3):
        expected = k * (expected + x.asnumpy())
    np.testing.assert_allclose(Net()(x).asnumpy(), expected)


def test_pynative_ignores_the_decorator():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    x = ms.Tensor(2, dtype=ms.int32)
    y = ms.Tensor(3, dtype=ms.int32)
    assert AttrNet()(x, y).asnumpy() == 12
    assert UsesCallNet()(x, y).asnumpy() == 10
