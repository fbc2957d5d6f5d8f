"""MAELoss, RMSELoss, SoftMarginLoss, MultiMarginLoss, MultilabelMarginLoss,
TripletMarginLoss, TripletMarginWithDistanceLoss, PoissonNLLLoss, DiceLoss,
MultiClassDiceLoss and FocalLoss against MindSpore 2.10 (fixtures/record_loss_breadth.py;
the losses without a MindSpore CPU kernel against NumPy), in PYNATIVE and GRAPH mode,
gradients against MindSpore's and finite differences, and argument errors."""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures"))
from breadth_check import MODES, Family  # noqa: E402
from loss_breadth_cases import losses  # noqa: E402

FAMILY = Family("loss_breadth", losses)


def _reduce(v, reduction):
    return {"mean": np.mean, "sum": np.sum}.get(reduction, lambda a: a)(v)


def _soft_margin(reduction):
    return lambda x, y: _reduce(np.log1p(np.exp(-y.astype(np.float64) * x)), reduction)


def _multilabel(reduction, squeeze=False):
    def ref(x, t):
        x2, t2 = np.atleast_2d(x).astype(np.float64), np.atleast_2d(t)
        out = []
        for xs, ts in zip(x2, t2):
            labels = []
            for v in ts:
                if v < 0:
                    break
                labels.append(v)
            others = [k for k in range(len(xs)) if k not in labels]
            out.append(sum(max(0.0, 1 - (xs[j] - xs[k])) for j in labels for k in others)
                       / len(xs))
        out = np.array(out)
        return _reduce(out[0] if squeeze and reduction == "none" else out, reduction)
    return ref


def _triplet(p, swap, margin, reduction, eps=1e-6):
    def dist(a, b):
        return np.sum(np.abs(a - b + eps) ** p, -1) ** (1 / p)

    def ref(a, pos, neg):
        a, pos, neg = (v.astype(np.float64) for v in (a, pos, neg))
        d_neg = dist(a, neg)
        if swap:
            d_neg = np.minimum(d_neg, dist(pos, neg))
        return _reduce(np.maximum(dist(a, pos) - d_neg + margin, 0), reduction)
    return ref


REFS = {f"soft_margin_{r}": _soft_margin(r) for r in ("mean", "sum", "none")}
REFS.update({f"multilabel_margin_{r}": _multilabel(r) for r in ("mean", "sum", "none")})
REFS["multilabel_margin_1d"] = _multilabel("mean", squeeze=True)
REFS["triplet"] = _triplet(2, False, 1.0, "mean")
REFS["triplet_p1_swap"] = _triplet(1, True, 0.3, "none")
DIFF_MS = sorted(n for n, c in FAMILY.cases.items()
                 if c[2] and f"losses/{n}/dx{c[2][0]}" in FAMILY.arrays)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(FAMILY.cases))
def test_value_matches_mindspore(name, mode):
    FAMILY.check_value(name, mode, REFS, rtol=2e-5)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", DIFF_MS)
def test_gradient_matches_mindspore(name, mode):
    FAMILY.check_grad(name, mode, rtol=2e-4)


@pytest.mark.parametrize("name,position", [
    ("soft_margin_mean", 0), ("multilabel_margin_sum", 0), ("triplet", 0), ("triplet", 2),
    ("triplet_p1_swap", 0), ("multi_margin_p2_w", 0), ("poisson_nll_full", 0),
    ("focal_index_w", 0), ("rmse", 1)])
def test_gradient_matches_finite_differences(name, position):
    FAMILY.check_finite_differences(name, position)


def test_weighted_dice_gradient_matches_finite_differences():
    # float32 class weights: differences in float32
    FAMILY.check_finite_differences("multi_dice_w", float32=True)


@pytest.mark.parametrize("name", FAMILY.error_names())
def test_errors_have_mindspore_types(name):
    FAMILY.check_error(name)


@pytest.mark.parametrize("mode", MODES)
def test_sampled_softmax_draws_its_own_sample(mode):
    import graphkiln as ms
    from graphkiln import Tensor, nn

    ms.set_context(mode=MODES[mode])
    r = np.random.default_rng(0)
    w, b = r.standard_normal((20, 4)).astype(np.float32), np.zeros(20, np.float32)
    x, y = r.standard_normal((3, 4)).astype(np.float32), np.array([[1], [7], [19]], np.int32)
    fixed = nn.SampledSoftmaxLoss(5, 20, seed=3)
    a = fixed(Tensor(w), Tensor(b), Tensor(y), Tensor(x)).asnumpy()
    again = nn.SampledSoftmaxLoss(5, 20, seed=3)(Tensor(w), Tensor(b), Tensor(y),
                                                 Tensor(x)).asnumpy()
    assert a.shape == (3,) and np.isfinite(a).all() and (a > 0).all()
    np.testing.assert_array_equal(a, again)  # a seed fixes the sample
    free = nn.SampledSoftmaxLoss(5, 20)
    draws = [free(Tensor(w), Tensor(b), Tensor(y), Tensor(x)).asnumpy() for _ in range(4)]
    assert any(not np.array_equal(draws[0], d) for d in draws[1:])
