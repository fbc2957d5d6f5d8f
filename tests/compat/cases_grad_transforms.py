"""Whole-Jacobian and higher-order front ends: ``jacfwd``, ``jacrev``, ``jet``, ``derivative``,
``linearize``, and their errors; ``custom_vjp``; ``cell_attr_register``; the
``ops.function`` module paths. Written against the ``mindspore`` API:
``fixtures/record.py grad_transforms`` runs them on real MindSpore, ``test_grad_transforms.py``
on graphkiln (``ms`` is either package)."""
import importlib

import numpy as np


def m(ms, rows, dtype=np.float32):
    return ms.Tensor(np.array(rows, dtype))


def two_by_two(ms):
    return m(ms, [[1, 2], [3, 4]]), m(ms, [[-2, 3], [-1, 2]]), m(ms, [[0, 3], [5, -1]])


def poly(x, y, z):
    return x ** 2 + y ** 2 + z ** 2, x * y * z


def mixed(x, y):
    """Non-diagonal Jacobians: a matrix product, a reduction, a broadcast."""
    return x @ y + x.sum(), (x * y.mean()).sin()


def with_aux(x, y):
    return (x * y).exp(), x + y, x - y


def cube(x):
    return x ** 3


def double(x):
    return x * 2


def square_sum(v):
    return (v * v).sum()


def sin(x):
    return x.sin()


def exp_sin(x):
    return x.sin().exp()


def x_cos_x(x):
    return x * x.cos()


def sin_cos(x, y):
    return x.sin() * y.cos()


def exp_ratio(x, y):
    return x.exp() * y / (y * y + 1)


def cubed(x):
    return x * x * x


def sin_and_square(x):
    return x.sin(), x * x


def sin_matmul(a, b):
    return (a @ b).sin()


def cube_and_exp(a):
    return a ** 3, 2 * a.exp()


def jacfwd_one_in_one_out(ms):
    x, _, _ = two_by_two(ms)
    return ms.ops.jacfwd(cube)(x)


def jacfwd_positions_two_outputs(ms):
    return ms.ops.jacfwd(poly, grad_position=(1, 2))(*two_by_two(ms))


def jacfwd_matmul(ms):
    x, y, _ = two_by_two(ms)
    return ms.ops.jacfwd(mixed, grad_position=(0, 1))(x, y)


def jacfwd_has_aux_three_outputs(ms):
    x, y, _ = two_by_two(ms)
    return ms.ops.jacfwd(with_aux, 1, has_aux=True)(x * 0.1, y * 0.1)


def jacfwd_in_jit(ms):
    @ms.jit
    def f(x, y, z):
        return ms.ops.jacfwd(poly, 0, has_aux=True)(x, y, z)
    return f(*two_by_two(ms))


def jacrev_one_in_one_out(ms):
    x, _, _ = two_by_two(ms)
    return ms.ops.jacrev(cube)(x)


def jacrev_positions_two_outputs(ms):
    return ms.ops.jacrev(poly, grad_position=(1, 2))(*two_by_two(ms))


def jacrev_matmul(ms):
    x, y, _ = two_by_two(ms)
    return ms.ops.jacrev(mixed, grad_position=(0, 1))(x, y)


def jacrev_has_aux_three_outputs(ms):
    x, y, _ = two_by_two(ms)
    return ms.ops.jacrev(with_aux, 1, has_aux=True)(x * 0.1, y * 0.1)


def jacrev_vector_to_scalar(ms):
    return ms.ops.jacrev(square_sum)(m(ms, [1, -2, 3]))


def jacfwd_position_out_of_range(ms):
    return ms.ops.jacfwd(poly, grad_position=3)(*two_by_two(ms))


jacfwd_position_out_of_range.phrase = "grad_position must belong to [0, args_num)"


def jacrev_has_aux_not_bool(ms):
    return ms.ops.jacrev(poly, has_aux=1)


jacrev_has_aux_not_bool.phrase = "The 'has_aux' must be bool type"


def jacfwd_has_aux_single_output(ms):
    x, _, _ = two_by_two(ms)
    return ms.ops.jacfwd(double, has_aux=True)(x)


jacfwd_has_aux_single_output.phrase = "requires more than one outputs"


def jet_sin_curve(ms):
    series = m(ms, [[1, 2], [3, 0.5], [0.7, -1]])
    return ms.ops.jet(sin, m(ms, [0.5, 1.0]), series)


def jet_two_inputs(ms):
    series = m(ms, [[1, 2], [3, 0.5], [0.7, -1]])
    p = m(ms, [0.5, 1.0])
    return ms.ops.jet(exp_ratio, (p, p * 2), (series, series))


def jet_first_order_only(ms):
    return ms.ops.jet(x_cos_x, m(ms, [1.0, 2.0]), m(ms, [1.0, -1.0]))


def jet_int_inputs(ms):
    return ms.ops.jet(cubed, m(ms, [1, 2], np.int32), m(ms, [[1, 1], [2, 0]], np.int32))


def jet_two_outputs(ms):
    series = m(ms, [[1, 1], [0, 0]])
    return ms.ops.jet(sin_and_square, m(ms, [1.0, 2.0]), series)


def jet_in_cell(ms):
    class LogReciprocal(ms.nn.Cell):
        def construct(self, a):
            return ms.ops.mul(ms.ops.add(ms.ops.div(1, ms.ops.log(a)), 2), 3)

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = LogReciprocal()

        def construct(self, x, s):
            return ms.ops.jet(self.inner, x, s)
    return Net()(m(ms, [2.0, 3.0]), m(ms, [[1, 1], [0, 0], [0, 0]]))


def jet_wrong_series_shape(ms):
    return ms.ops.jet(sin, m(ms, [0.5, 1.0]), m(ms, [[1, 2, 3]]))


jet_wrong_series_shape.phrase = "the shape of each element must be the same as the primals"


def jet_mixed_dtypes(ms):
    return ms.ops.jet(sin, m(ms, [0.5, 1.0]), m(ms, [[1, 2]], np.float64))


jet_mixed_dtypes.phrase = "must be the same and belong to"


def derivative_order_4(ms):
    return ms.ops.derivative(exp_sin, m(ms, [[1, 2], [3, 4]]), 4)


def derivative_order_1(ms):
    return ms.ops.derivative(sin, m(ms, [0.5, -1.0]), 1)


def derivative_two_inputs(ms):
    return ms.ops.derivative(sin_cos, (m(ms, [1.0, 2.0]), m(ms, [0.5, 0.25])), 3)


def derivative_order_zero(ms):
    return ms.ops.derivative(sin, m(ms, [1.0]), 0)


derivative_order_zero.phrase = "value of order should not be less than 1"


def linearize_matmul(ms):
    x = m(ms, [[1, 2, 3], [3, 4, 5]])
    y = m(ms, [[1, 2], [3, 4], [5, 6]])
    out, jvp_fn = ms.ops.linearize(sin_matmul, (x, y))
    v = (m(ms, [[1, 1, 1], [1, 1, 1]]), m(ms, [[1, 1], [1, 1], [0, 0]]))
    return out, jvp_fn(v), jvp_fn((v[0] * 2, v[1] * 0))


def linearize_two_outputs(ms):
    x = m(ms, [[1, 2], [3, 4]])
    out, jvp_fn = ms.ops.linearize(cube_and_exp, x)
    return out, jvp_fn(m(ms, [[0, 1], [2, 3]]))


def _grad_func(ms):
    return importlib.import_module(f"{ms.__name__}.ops.function.grad.grad_func")


def scaled_sum(x, y):
    return 2 * x + y


def scaled_sum_bprop(x, y, out, dout):
    return 2 * dout, 2 * y


def custom_vjp_through_vjp(ms):
    fn = _grad_func(ms).custom_vjp(scaled_sum)
    fn.defbwd(scaled_sum_bprop)
    out, vjp_fn = ms.ops.vjp(fn, m(ms, [1.0, 2.0]), m(ms, [3.0, -1.0]))
    return out, vjp_fn(m(ms, [1.0, 0.5]))


def custom_vjp_inside_jit_and_grad(ms):
    fn = _grad_func(ms).custom_vjp(scaled_sum)
    fn.defbwd(scaled_sum_bprop)

    @ms.jit
    def outer(x, y):
        return (fn(x, y) * x).sum() + y.sum()
    return ms.grad(outer, (0, 1))(m(ms, [1.0, 2.0]), m(ms, [3.0, -1.0]))


def custom_vjp_body_reads_a_cell_weight(ms):
    class Scale(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.array([3.0], np.float32)), name="w")

        def construct(self, x):
            return x * self.w

    def body(x):
        return Scale()(x)

    def body_bprop(x, out, dout):
        return (x + dout,)
    fn = _grad_func(ms).custom_vjp(body)
    fn.defbwd(body_bprop)
    return ms.ops.GradOperation(get_all=True)(fn)(m(ms, [1.0, 2.0]))


def cell_attr_register_records_arguments(ms):
    extends = importlib.import_module(f"{ms.__name__}._extends")

    class Block(ms.nn.Cell):
        @extends.cell_attr_register
        def __init__(self, width, act="relu", scale=1.5):
            super().__init__()
            self.width = width

    class Named(ms.nn.Cell):
        @extends.cell_attr_register(attrs=["width", "missing"])
        def __init__(self, width):
            super().__init__()
            self.width = width
    return Block(4, act="tanh").cell_init_args, Named(7).cell_init_args


def ops_function_module_paths(ms):
    function = importlib.import_module(f"{ms.__name__}.ops.function")
    math_func = importlib.import_module(f"{ms.__name__}.ops.function.math_func")
    x = m(ms, [0.5, 1.0])
    return (function.sin(x), math_func.exp(x), function.grad(sin)(x),
            _grad_func(ms).jacrev(sin)(x))


CASES = [jacfwd_one_in_one_out, jacfwd_positions_two_outputs, jacfwd_matmul,
         jacfwd_has_aux_three_outputs, jacfwd_in_jit, jacrev_one_in_one_out,
         jacrev_positions_two_outputs, jacrev_matmul, jacrev_has_aux_three_outputs,
         jacrev_vector_to_scalar, jacfwd_position_out_of_range, jacrev_has_aux_not_bool,
         jacfwd_has_aux_single_output, jet_sin_curve, jet_two_inputs, jet_first_order_only,
         jet_int_inputs, jet_two_outputs, jet_in_cell, jet_wrong_series_shape, jet_mixed_dtypes,
         derivative_order_4, derivative_order_1, derivative_two_inputs, derivative_order_zero,
         linearize_matmul, linearize_two_outputs, custom_vjp_through_vjp,
         custom_vjp_inside_jit_and_grad, custom_vjp_body_reads_a_cell_weight,
         cell_attr_register_records_arguments, ops_function_module_paths]
