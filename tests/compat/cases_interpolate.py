"""``ops.interpolate``: every mode MindSpore 2.10 runs on CPU, up and down, with and without
``align_corners``, by size and by scale factor, its gradient and its argument errors.
Written against the ``mindspore`` API: ``fixtures/record.py interpolate`` runs them on real
MindSpore, ``test_interpolate_recorded.py`` on graphkiln."""
import numpy as np


def image(ms, *shape):
    n = int(np.prod(shape))
    return ms.Tensor(((np.arange(n) * 37) % 23).astype(np.float32).reshape(shape) / 7.0)


def _both(ms, fn, *args):
    return fn(*args), ms.jit(fn)(*args)


def _interp(ms, x, **kw):
    def resize(t):
        return ms.ops.interpolate(t, **kw)
    return _both(ms, resize, x)


def nearest_4d_size(ms):
    return _interp(ms, image(ms, 1, 2, 3, 4), size=(5, 7), mode="nearest")


def nearest_4d_scale(ms):
    return _interp(ms, image(ms, 2, 1, 3, 3), scale_factor=(2.0, 1.5), mode="nearest")


nearest_4d_scale.phrase = "'scale_factor' option cannot currently be set"


def nearest_3d_scale(ms):
    return _interp(ms, image(ms, 1, 2, 5), scale_factor=1.6, mode="nearest")


def nearest_3d_down(ms):
    return _interp(ms, image(ms, 1, 2, 9), size=4, mode="nearest")


def nearest_5d(ms):
    return _interp(ms, image(ms, 1, 1, 2, 3, 2), size=(3, 4, 5), mode="nearest")


def nearest_exact_4d(ms):
    return _interp(ms, image(ms, 1, 1, 5, 4), size=(3, 6), mode="nearest-exact")


def linear_3d(ms):
    x = image(ms, 1, 2, 5)
    return (_interp(ms, x, size=8, mode="linear"),
            _interp(ms, x, size=3, mode="linear", align_corners=True))


def bilinear_up_down(ms):
    x = image(ms, 1, 2, 4, 5)
    return (_interp(ms, x, size=(7, 3), mode="bilinear"),
            _interp(ms, x, size=(7, 3), mode="bilinear", align_corners=True),
            _interp(ms, x, scale_factor=(1.5, 0.5), mode="bilinear",
                    recompute_scale_factor=True))


def bicubic(ms):
    x = image(ms, 1, 1, 4, 4)
    return (_interp(ms, x, size=(6, 5), mode="bicubic"),
            _interp(ms, x, size=(3, 7), mode="bicubic", align_corners=True))


def trilinear(ms):
    return _interp(ms, image(ms, 1, 1, 2, 3, 4), size=(3, 5, 2), mode="trilinear")


def area_4d(ms):
    return _interp(ms, image(ms, 1, 2, 7, 5), size=(3, 2), mode="area")


def bilinear_gradient(ms):
    x = image(ms, 1, 2, 3, 4)
    w = ms.Tensor(np.linspace(-1, 1, 2 * 5 * 6, dtype=np.float32).reshape(1, 2, 5, 6))

    def loss(t):
        return (ms.ops.interpolate(t, size=(5, 6), mode="bilinear") * w).sum()
    return ms.grad(loss)(x), ms.jit(ms.grad(loss))(x)


def nearest_gradient(ms):
    x = image(ms, 1, 1, 3, 4)
    w = ms.Tensor(np.linspace(-1, 1, 6 * 5, dtype=np.float32).reshape(1, 1, 6, 5))

    def loss(t):
        return (ms.ops.interpolate(t, size=(6, 5), mode="nearest") * w).sum()
    return ms.grad(loss)(x)


def bilinear_on_3d(ms):
    return ms.ops.interpolate(image(ms, 1, 2, 5), size=4, mode="bilinear")


bilinear_on_3d.phrase = "bilinear only support '[4]'D, but got 3D"


def align_corners_with_nearest(ms):
    return ms.ops.interpolate(image(ms, 1, 1, 2, 2), size=(3, 3), mode="nearest",
                              align_corners=True)


align_corners_with_nearest.phrase = "align_corners"


def size_and_scale_factor(ms):
    return ms.ops.interpolate(image(ms, 1, 1, 2, 2), size=(3, 3), scale_factor=2.0)


size_and_scale_factor.phrase = "scale_factor"


def neither_size_nor_scale(ms):
    return ms.ops.interpolate(image(ms, 1, 1, 2, 2))


neither_size_nor_scale.phrase = "scale_factor"


def unknown_mode(ms):
    return ms.ops.interpolate(image(ms, 1, 1, 2, 2), size=(3, 3), mode="cubic")


unknown_mode.phrase = "mode"


CASES = [nearest_4d_size, nearest_4d_scale, nearest_3d_scale, nearest_3d_down, nearest_5d,
         nearest_exact_4d, linear_3d, bilinear_up_down, bicubic, trilinear, area_4d,
         bilinear_gradient, nearest_gradient, bilinear_on_3d, align_corners_with_nearest,
         size_and_scale_factor, neither_size_nor_scale, unknown_mode]
