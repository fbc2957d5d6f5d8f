"""Complex tensors: creation, printing, ``Complex``/``real``/``imag``/``conj``/``angle``/``abs``,
arithmetic and matmul, and gradients with MindSpore's convention (the cotangent of
``a + bi`` is ``da + db i``; a real input gets the real part). Written against the
``mindspore`` API: ``fixtures/record.py complex`` runs them on real MindSpore,
``test_complex.py`` on graphkiln (``ms`` is either package)."""
import numpy as np


def z(ms):
    return ms.Tensor(np.array([1 + 2j, 0.5 - 1j], np.complex64))


def w(ms):
    return ms.Tensor(np.array([2 - 1j, 3 + 0.5j], np.complex64))


def r(ms):
    return ms.Tensor(np.array([0.5, -1.5], np.float32))


_ops = None  # the ops module of the package under test (MindSpore parses the functions)


def _use(ms):
    global _ops
    _ops = ms.ops


def part_real(x):
    return _ops.real(x)


def part_imag(x):
    return _ops.imag(x)


def conjugate(x):
    return _ops.conj(x)


def modulus(x):
    return _ops.abs(x)


def argument(x):
    return _ops.angle(x)


def make_complex(a, b):
    return _ops.Complex()(a, b)


def rotate(a):
    return _ops.Complex()(a, a * 2)


def creation_and_text(ms):
    t = ms.Tensor(np.array([[1.5 - 2j, 0], [-3j, 4 + 0.25j]], np.complex128))
    return (repr(z(ms)), str(z(ms)), repr(t), ms.Tensor(1 + 2j).dtype == ms.complex128,
            ms.Tensor([1 + 2j, 3]).dtype == ms.complex128, z(ms).dtype == ms.complex64)


def parts_and_arithmetic(ms):
    _use(ms)
    x, y = z(ms), w(ms)
    return (part_real(x), part_imag(x), conjugate(x), argument(x), modulus(x),
            make_complex(r(ms), r(ms) * 2), x + y, x - y, x * y, x / y, x * 2, -x,
            ms.ops.matmul(x.reshape(1, 2), y.reshape(2, 1)))


def grads_of_complex_inputs(ms):
    _use(ms)
    g = ms.ops.GradOperation()
    gs = ms.ops.GradOperation(sens_param=True)
    x = z(ms)
    return (g(part_real)(x), g(part_imag)(x), gs(conjugate)(x, w(ms)), g(modulus)(x),
            g(argument)(x))


def grads_of_real_inputs(ms):
    _use(ms)
    g = ms.ops.GradOperation(get_all=True)
    gs = ms.ops.GradOperation(get_all=True, sens_param=True)
    return (g(make_complex)(r(ms), r(ms) * 2), gs(make_complex)(r(ms), r(ms) * 2, w(ms)),
            g(part_imag)(r(ms)), g(part_real)(r(ms)), g(rotate)(r(ms)))


def complex_parts_of_different_dtypes(ms):
    return ms.ops.Complex()(r(ms), ms.Tensor(np.array([1.0, 2.0], np.float64)))


complex_parts_of_different_dtypes.phrase = "the input type must be same"


CASES = [creation_and_text, parts_and_arithmetic, grads_of_complex_inputs,
         grads_of_real_inputs, complex_parts_of_different_dtypes]
