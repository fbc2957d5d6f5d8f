"""Transforms beyond the recorded fixtures: randomness, composition, PIL inputs, legacy
module paths, and the message when the image library is missing."""
import subprocess
import sys

import numpy as np
import pytest

import graphkiln as ms
import graphkiln.dataset as ds
import graphkiln.dataset.transforms as T
import graphkiln.dataset.vision as V

from .fixtures.make_files import encoded, image


@pytest.fixture(autouse=True)
def _seed():
    saved = ds.config.get_seed()
    ds.config.set_seed(11)
    yield
    ds.config.set_seed(saved)


def _outputs(op, x, n: int = 30) -> list:
    """``op`` on ``n`` copies of ``x`` in a seeded one-worker map: ``n`` successive draws
    of its stream (an eager call under a seed draws the stream's first value every time,
    as MindSpore's eager ops do)."""
    data = ds.NumpySlicesDataset(np.stack([x] * n), ["x"], shuffle=False)
    data = data.map(op, num_parallel_workers=1)
    return [r[0] for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def test_random_apply_choice_and_compose_draw_from_the_seed():
    x = np.arange(6)
    apply = T.RandomApply([lambda a: a + 100], prob=0.5)
    choice = T.RandomChoice([lambda a: a * 0, lambda a: a * 2])
    outs = {tuple(o) for o in _outputs(apply, x) + _outputs(choice, x)}
    assert outs == {tuple(x), tuple(x + 100), tuple(x * 0), tuple(x * 2)}
    assert len({tuple(apply(x)) for _ in range(10)}) == 1  # eager: the seed's first draw
    assert T.Compose([V.RandomHorizontalFlip(1.0), V.HWC2CHW()]).random


def test_random_ops_cover_their_range():
    img = image(16, 16)
    crops = {o.tobytes() for o in _outputs(V.RandomCrop(8), img)}
    assert len(crops) > 10 and all(len(c) == 8 * 8 * 3 for c in crops)
    flips = {o.tobytes() for o in _outputs(V.RandomVerticalFlip(), img)}
    assert flips == {img.tobytes(), img[::-1].tobytes()}
    rrc = V.RandomResizedCrop(10)(img)
    assert rrc.shape == (10, 10, 3) and rrc.dtype == np.uint8
    rot = V.RandomRotation(45, expand=True)(img)
    assert rot.shape[0] >= 16
    adj = V.RandomColorAdjust(0.4, 0.4, 0.4, 0.1)(img)
    assert adj.shape == img.shape and adj.dtype == np.uint8
    dec = V.RandomCropDecodeResize(12)(np.frombuffer(encoded(img, "PNG"), np.uint8))
    assert dec.shape == (12, 12, 3)


def test_cutout_and_augment_ranges():
    img = np.full((12, 12, 3), 200, np.uint8)
    out = V.CutOut(4, num_patches=2)(img)  # squares may reach past the edges, as MindSpore's
    assert out.shape == img.shape and (out[..., 0] == 0).sum() <= 32
    chw = V.CutOut(5, is_hwc=False)(img.transpose(2, 0, 1))
    assert (chw[0] == 0).sum() <= 25 and (chw == 0).any(axis=0).sum() == (chw[0] == 0).sum()
    bits = {int(o.max()) for o in _outputs(V.RandomPosterize((1, 4)), img)}
    assert bits <= {128, 192, 192 + 8, 200} and len(bits) > 1
    assert {o[0, 0, 0] for o in _outputs(V.RandomSolarize((0, 255)), img)} == {55, 200}


def test_pil_inputs_follow_pillow():
    from PIL import Image
    img = image(20, 30)
    pil = V.Decode(to_pil=True)(np.frombuffer(encoded(img, "PNG"), np.uint8))
    assert isinstance(pil, Image.Image)
    np.testing.assert_array_equal(np.asarray(pil), img)
    resized = V.Resize((10, 12))(pil)
    want = np.asarray(Image.fromarray(img).resize((12, 10), Image.BILINEAR))
    np.testing.assert_array_equal(np.asarray(resized), want)
    assert np.asarray(V.CenterCrop(8)(pil)).shape == (8, 8, 3)
    np.testing.assert_array_equal(np.asarray(V.ToPIL()(img)), img)
    chw = V.ToTensor()(V.RandomHorizontalFlip(1.0)(pil))
    np.testing.assert_allclose(chw, img[:, ::-1].transpose(2, 0, 1) / 255, rtol=1e-6)


def test_tensor_inputs_and_eager_outputs():
    out = T.TypeCast(ms.float32)(ms.Tensor(np.array([1, 2])))
    assert isinstance(out, np.ndarray) and out.dtype == np.float32
    a, b = T.Duplicate()(np.array([1, 2]))
    assert a is not b and (a == b).all()


def test_legacy_module_paths():
    import graphkiln.dataset.transforms.c_transforms as C2
    import graphkiln.dataset.transforms.py_transforms as P2
    import graphkiln.dataset.vision.c_transforms as C
    import graphkiln.dataset.vision.py_transforms as P
    assert C.Resize is V.Resize and C2.TypeCast is T.TypeCast and P2.Compose is T.Compose
    img = image(8, 8)
    pil = P.Decode()(np.frombuffer(encoded(img, "PNG"), np.uint8))
    chw = P.Normalize([0.5] * 3, [0.5] * 3)(P.ToTensor()(pil))
    np.testing.assert_allclose(chw, (img.transpose(2, 0, 1) / 255 - 0.5) / 0.5, atol=1e-6)


def test_transforms_in_a_pipeline():
    imgs = np.stack([image(12, 12, seed=i) for i in range(6)])
    data = ds.NumpySlicesDataset({"image": imgs, "label": np.arange(6)}, shuffle=False)
    data = data.map([V.RandomCrop(8), V.Rescale(1 / 255, 0), V.HWC2CHW()], "image",
                    num_parallel_workers=2)
    data = data.map([T.TypeCast(ms.int32), T.OneHot(6)], "label").batch(3)
    shapes = [(a.shape, b.shape, b.dtype) for a, b in data.create_tuple_iterator()]
    assert shapes == [((3, 3, 8, 8), (3, 6), ms.int32)] * 2


def test_argument_errors():
    with pytest.raises(ValueError, match="prob"):
        V.RandomHorizontalFlip(1.5)
    with pytest.raises(TypeError, match="size"):
        V.Resize("big")
    with pytest.raises(ValueError, match="std"):
        V.Normalize([1, 2, 3], [1, 0, 1])
    with pytest.raises(RuntimeError, match="crop size is bigger"):
        V.RandomCrop(20)(image(8, 8))
    with pytest.raises(TypeError, match="data_type"):
        T.TypeCast("float99")
    with pytest.raises(RuntimeError, match="outside"):
        T.OneHot(3)(np.array([5]))


def test_without_opencv_non_image_pipelines_work_and_vision_says_what_to_install():
    code = ("import sys; sys.modules['cv2'] = None\n"
            "import numpy as np, graphkiln.dataset as ds\n"
            "d = ds.NumpySlicesDataset([1, 2], shuffle=False)\n"
            "d = d.map(ds.transforms.TypeCast(np.int8))\n"
            "assert [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)] == [1, 2]\n"
            "try:\n"
            "    ds.vision.Resize(4)(np.zeros((8, 8, 3), np.uint8))\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert "pip install 'graphkiln[dataset]'" in out.stdout


# error types MindSpore 2.10 raises for these arguments (checked side by side with it)
AFFINE_ERRORS = [
    (lambda v: v.RandomAffine(-1), ValueError),
    (lambda v: v.RandomAffine((5, 1)), ValueError),
    (lambda v: v.RandomAffine(0, translate=(0.1, 0.2, 0.3)), TypeError),
    (lambda v: v.RandomAffine(0, translate=(2, 0.1)), ValueError),
    (lambda v: v.RandomAffine(0, scale=(2, 1)), ValueError),
    (lambda v: v.RandomAffine(0, scale=(1, 2, 3)), TypeError),
    (lambda v: v.RandomAffine(0, shear=-3), ValueError),
    (lambda v: v.RandomAffine(0, shear=(3, 1)), ValueError),
    (lambda v: v.RandomAffine(0, shear=(1, 2, 3)), TypeError),
    (lambda v: v.RandomAffine(0, fill_value=300), ValueError),
    (lambda v: v.Affine(200, [0, 0], 1, 0), ValueError),
    (lambda v: v.Affine(0, [0, 0], -1, 0), ValueError),
    (lambda v: v.Affine(0, [0, 0, 0], 1, 0), TypeError),
]


@pytest.mark.parametrize("build, error", AFFINE_ERRORS)
def test_affine_bad_arguments(build, error):
    with pytest.raises(error):
        build(ds.vision)


def test_random_affine_draws_within_its_ranges():
    img = np.zeros((21, 21), np.uint8)
    img[10, 10] = 255
    ds.config.set_seed(0)
    op = ds.vision.RandomAffine(0, translate=(-0.2, 0.2, -0.2, 0.2))
    moved = {tuple(np.argwhere(o)[0]) for o in _outputs(op, img, 60)}
    assert len(moved) > 10  # it moves the dot around...
    assert all(abs(r - 10) <= 5 and abs(c - 10) <= 5 for r, c in moved)  # ...within 0.2 * 21
