"""Census APIs (ranked by use in real programs): ``ops.Sort``/``sort``/``argsort``,
``ops.Unstack``/``unstack``, ``ops.Identity``/``identity``, ``Tensor.swapaxes``/``value``,
``C.ones_like``, ``nn.IGamma``, ``IOU``, ``BoundingBoxEncode``, ``CheckValid``,
``SoftmaxCrossEntropyWithLogits``, ``Eye``/``eye``, ``GatherD``/``gather_elements``,
``Pad``. Written against the ``mindspore`` API: ``fixtures/record.py census`` runs them on
real MindSpore, ``test_census_recorded.py`` on graphkiln (``ms`` is either package;
``_both`` runs a case eagerly and through ``ms.jit``)."""
import numpy as np


def mat(ms):
    return ms.Tensor(np.array([[3.0, 1.0, 2.0, 1.0], [0.0, 5.0, -1.0, 5.0],
                               [2.5, 2.5, 7.0, -3.0]], np.float32))


def ints(ms):
    return ms.Tensor(np.array([[4, -2, 9], [1, 1, 0]], np.int32))


def _both(ms, fn, *args):
    """``fn(*args)`` eagerly and compiled."""
    return fn(*args), ms.jit(fn)(*args)




def sort_default(ms):
    return _both(ms, ms.ops.Sort(), mat(ms))


def sort_axis0_descending(ms):
    return _both(ms, ms.ops.Sort(axis=0, descending=True), mat(ms))


def sort_ints_functional(ms):
    return ms.ops.sort(ints(ms), 1, True), ms.ops.argsort(ints(ms)), ints(ms).argsort(0)


def sort_grad(ms):
    sort = ms.ops.Sort(axis=-1)
    weights = ms.Tensor(np.arange(4, dtype=np.float32))

    def weighted_sorted_sum(x):
        return (sort(x)[0] * weights).sum()
    return ms.grad(weighted_sorted_sum)(mat(ms)), ms.jit(ms.grad(weighted_sorted_sum))(mat(ms))


def unstack_axes(ms):
    return (ms.ops.Unstack()(mat(ms)), ms.ops.Unstack(axis=-1)(mat(ms)),
            ms.ops.unstack(ints(ms), 1))


def unstack_grad(ms):
    unstack = ms.ops.Unstack(axis=0)

    def weighted(x):
        a, b, c = unstack(x)
        return (a * 2 + b * b - c).sum()
    return ms.grad(weighted)(mat(ms)), ms.jit(ms.grad(weighted))(mat(ms))


def identity_and_value(ms):
    x = mat(ms)
    return ms.ops.Identity()(x), ms.ops.functional.identity(x), x.value(), x.swapaxes(0, 1)


def fill_like_nested(ms):
    from mindspore.ops import composite as C
    nested = (mat(ms), [ints(ms), (ms.Tensor(np.ones(2, np.float16)),)])
    return C.ones_like(nested), C.ones_like(mat(ms)), C.ones_like(3)


def igamma_cell(ms):
    a = ms.Tensor(np.array([0.5, 2.29, 6.0], np.float32))
    x = ms.Tensor(np.array([1.5, 4.22, 3.0], np.float32))
    return ms.nn.IGamma()(a, x), ms.ops.lgamma(x), ms.ops.digamma(x)


def boxes(ms, rows):
    return ms.Tensor(np.array(rows, np.float32))


ANCHORS = [[0, 0, 10, 10], [5, 5, 15, 20], [2, 3, 4, 8], [1.5, 2, 30, 9]]
TRUTH = [[0, 0, 10, 10], [6, 4, 12, 12], [20, 20, 25, 24]]


def iou_modes(ms):
    a, g = boxes(ms, ANCHORS), boxes(ms, TRUTH)
    return _both(ms, ms.ops.operations.IOU(), a, g), ms.ops.operations.IOU(mode="iof")(a, g)


def bounding_box_encode(ms):
    gt = boxes(ms, [[1, 1, 9, 12], [5, 5, 15, 20], [0, 0, 6, 6], [3, 2, 20, 14]])
    plain = ms.ops.operations.BoundingBoxEncode()
    scaled = ms.ops.operations.BoundingBoxEncode(means=(0.1, -0.1, 0.0, 0.2),
                                                 stds=(0.1, 0.1, 0.2, 0.2))
    return _both(ms, plain, boxes(ms, ANCHORS), gt), scaled(boxes(ms, ANCHORS), gt)


def check_valid(ms):
    b = boxes(ms, [[0, 0, 13, 11], [0, 0, 14, 11], [0, 0, 13, 12], [-1, 0, 5, 5],
                   [0, -0.5, 5, 5], [0, 0, 27, 23]])
    op = ms.ops.operations.CheckValid()
    return tuple(_both(ms, op, b, ms.Tensor(np.array(m, np.float32)))
                 for m in ([12, 14, 1], [12, 14, 2], [12, 14, 0.5]))


def iou_bad_width(ms):
    return ms.ops.operations.IOU()(boxes(ms, [[0, 0, 1, 1, 0]]), boxes(ms, TRUTH))


iou_bad_width.phrase = "anchor_boxes.shape[1] must be equal to 4, but got 5"


def softmax_cross_entropy(ms):
    logits = mat(ms)
    labels = ms.Tensor(np.array([[0, 1, 0, 0], [0.2, 0.3, 0.5, 0], [0.25] * 4], np.float32))
    op = ms.ops.operations.SoftmaxCrossEntropyWithLogits()
    weights = ms.Tensor(np.array([1.0, -2.0, 0.5], np.float32))

    def weighted_loss(x, y):
        return (op(x, y)[0] * weights).sum()
    return (_both(ms, op, logits, labels), ms.grad(weighted_loss, (0, 1))(logits, labels),
            ms.jit(ms.grad(weighted_loss, (0, 1)))(logits, labels))


def eye_sizes(ms):
    return (ms.ops.eye(3), ms.ops.eye(2, 4, ms.int32), ms.ops.Eye()(3, 2, ms.bool_),
            ms.ops.Eye()(1, 1, ms.float16))


def gather_d(ms):
    index = ms.Tensor(np.array([[0, 3, 3], [1, -1, 2]], np.int32))
    rows = ms.Tensor(np.array([[0, 2, 2, 1], [1, 0, 0, 2]], np.int64))
    weights = ms.Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))

    def weighted(x):
        return (ms.ops.GatherD()(x, 1, index) * weights).sum()
    return (_both(ms, ms.ops.GatherD(), mat(ms), 1, index),
            ms.ops.gather_elements(mat(ms), 0, rows), ms.grad(weighted)(mat(ms)),
            ms.jit(ms.grad(weighted))(mat(ms)))


def gather_d_out_of_range(ms):
    return ms.ops.GatherD()(mat(ms), 1, ms.Tensor(np.array([[0, 4]], np.int32))).asnumpy()


gather_d_out_of_range.phrase = "the value of 'index' must be in [-4, 4), but got: 4"


def pad(ms):
    x = mat(ms)
    op = ms.ops.Pad(((1, 0), (0, 2)))
    weights = ms.Tensor(np.arange(24, dtype=np.float32).reshape(4, 6))

    def weighted(v):
        return (op(v) * weights).sum()
    return _both(ms, op, x), ms.grad(weighted)(x), ms.jit(ms.grad(weighted))(x)


def pad_list_paddings(ms):
    return ms.ops.Pad([[1, 0], [0, 0]])(mat(ms))


pad_list_paddings.phrase = "the type of 'paddings' should be 'tuple'"


def cube(ms):
    return ms.Tensor(np.arange(60, dtype=np.float32).reshape(3, 4, 5))


def strided_slice_masks(ms):
    P = ms.ops.operations
    x = cube(ms)
    return (_both(ms, P.StridedSlice(), x, (0, 1, 0), (3, 4, 5), (2, 1, 2)),
            _both(ms, P.StridedSlice(begin_mask=0b101, end_mask=0b010), x, (1, 1, 3),
                  (2, 3, 4), (1, 1, 1)),
            _both(ms, P.StridedSlice(shrink_axis_mask=0b010), x, (0, 2, 0), (3, 3, 5),
                  (1, 1, 2)),
            _both(ms, P.StridedSlice(), x, (2, -1, 4), (0, -4, 0), (-1, -1, -2)),
            _both(ms, P.StridedSlice(), x, (0, 1), (9, 9), (1, 1)))


def strided_slice_grad(ms):
    op = ms.ops.operations.StridedSlice(shrink_axis_mask=0b100)
    w = ms.Tensor(np.array([[1.0, -2.0], [3.0, 0.5]], np.float32))

    def weighted(x):
        return (op(x, (1, 0, 2), (3, 4, 3), (1, 2, 1)) * w).sum()
    return ms.grad(weighted)(cube(ms)), ms.jit(ms.grad(weighted))(cube(ms))


CASES = [sort_default, sort_axis0_descending, sort_ints_functional, sort_grad, unstack_axes,
         unstack_grad, identity_and_value, fill_like_nested, igamma_cell, iou_modes,
         bounding_box_encode, check_valid, iou_bad_width, softmax_cross_entropy, eye_sizes,
         gather_d, gather_d_out_of_range, pad, pad_list_paddings, strided_slice_masks,
         strided_slice_grad]
