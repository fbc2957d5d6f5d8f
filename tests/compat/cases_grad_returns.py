"""What ``ms.grad`` and ``GradOperation`` return in the edge cases of MindSpore's
tests/st/compiler/gradient/test_grad_return_type.py: one Parameter as ``weights`` (its
gradient alone), outputs that are not Tensors (numbers, strings, None, shapes: no gradient
flows from them), constant inputs with ``return_ids``, and the errors for an empty or
out-of-range ``grad_position``. ``fixtures/record.py grad_returns`` runs them on MindSpore,
``test_grad_returns.py`` on graphkiln (``ms`` is either package)."""
import numpy as np


def ivec(ms, *v):
    return ms.Tensor(np.array(v, np.int32))


def _net(ms):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ivec(ms, 6), name="w")
            self.b = ms.Parameter(ivec(ms, 2), name="b")

        def construct(self, x, y):
            return self.w * x + self.b * y
    return Net()


def _const_net(ms):
    class Net(ms.nn.Cell):
        def construct(self, x):
            return 3
    return Net()


def _mixed_net(ms):
    class Net(ms.nn.Cell):
        def construct(self, x):
            return x * 3, "a", None
    return Net()


def _shape_net(ms):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.shape = ms.ops.Shape()

        def construct(self, x):
            return self.shape(x)
    return Net()


def _add_net(ms):
    class Net(ms.nn.Cell):
        def construct(self, x, y):
            return x + y
    return Net()


def grad_position_and_one_weight(ms):
    net = _net(ms)
    return ms.grad(net, 0, net.w)(ivec(ms, 10), ivec(ms, 20))


def grad_one_weight_only(ms):
    net = _net(ms)
    return ms.grad(net, None, net.w)(ivec(ms, 10), ivec(ms, 20))


def grad_one_weight_with_ids(ms):
    net = _net(ms)
    return ms.grad(net, (0, 1), net.w, return_ids=True)(ivec(ms, 10), ivec(ms, 20))


def grad_constant_inputs_with_ids(ms):
    return ms.grad(_add_net(ms), return_ids=True)(1, 2)


def gradop_constant_output(ms):
    return ms.ops.GradOperation(get_all=True)(_const_net(ms))(ivec(ms, 10))


def grad_constant_output(ms):
    return ms.grad(_const_net(ms))(ivec(ms, 10))


def gradop_string_and_none_outputs(ms):
    return ms.ops.GradOperation()(_mixed_net(ms))(ivec(ms, 10))


def gradop_shape_output_with_sens(ms):
    x = ivec(ms, 1, 2, 3, 4)
    return ms.ops.GradOperation(get_all=True, sens_param=True)(_shape_net(ms))(x, (4,))


def grad_empty_position(ms):
    net = _net(ms)
    return ms.grad(net, (), net.w)(ivec(ms, 10), ivec(ms, 20))


grad_empty_position.phrase = "grad_position should not be empty"


def grad_both_none(ms):
    return ms.grad(_net(ms), None, None)(ivec(ms, 10), ivec(ms, 20))


def grad_position_out_of_range(ms):
    """GRAPH_MODE raises IndexError, PYNATIVE_MODE RuntimeError."""
    return ms.grad(_net(ms), (0, 2))(ivec(ms, 10), ivec(ms, 20))


grad_position_out_of_range.phrase = "Position index 2 is exceed input size"


def gradop_weights_from_an_empty_list_attribute(ms):
    class Wrap(ms.nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.params = net.trainable_params()
            self.grad_op = ms.ops.GradOperation(get_all=True, get_by_list=True)

        def construct(self, x, y):
            return self.grad_op(self.net, self.params)(x, y)
    return Wrap(_add_net(ms))(ivec(ms, 10), ivec(ms, 20))


CASES = [grad_position_and_one_weight, grad_one_weight_only, grad_one_weight_with_ids,
         grad_constant_inputs_with_ids, gradop_constant_output, grad_constant_output,
         gradop_string_and_none_outputs, gradop_shape_output_with_sens, grad_empty_position,
         grad_both_none, grad_position_out_of_range, gradop_weights_from_an_empty_list_attribute]
