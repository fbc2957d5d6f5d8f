"""Random operators draw MindSpore 2.10 CPU's numbers: the streams recorded by
``fixtures/record_random_streams.py`` (PyNative, GRAPH_MODE cells and ``@jit`` functions,
after ``set_seed`` and with explicit seeds), replayed bit for bit; and graphkiln's own
checks of the engines and the seed counters."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.common import philox, std_random

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
sys.path.insert(0, HERE)
from random_stream_cases import CASES  # noqa: E402

with open(os.path.join(HERE, "random_streams.json")) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize("name", sorted(CASES))
def test_recorded_streams(name):
    got = CASES[name](ms)
    want = RECORDED[name]
    assert len(got) == len(want)
    for i, (t, (dtype, shape, values)) in enumerate(zip(got, want)):
        assert (str(t.dtype), list(t.shape)) == (dtype, shape), i
        np.testing.assert_array_equal(t.asnumpy().astype(float).ravel(), values, err_msg=str(i))


def test_cases_are_recorded():
    assert sorted(RECORDED) == sorted(CASES)


def test_seed_mix_is_one_philox_block():
    # Philox4x32-10 of the counter (1, 0, 0, 0) under the mixing key, its first two words
    words = philox._encrypt([np.array([v], np.uint32) for v in (1, 0, 0, 0)],
                            0x3EC8F720, 0x02461E29)
    assert philox.mix_seeds(1, 0) == int(words[1][0]) << 32 | int(words[0][0])
    assert philox.mix_seeds(1, 0) != philox.mix_seeds(0, 1)


def test_minstd_matches_its_recurrence():
    engine = std_random.MinstdRand0(12345)
    x, want = 12345, []
    for _ in range(5000):
        x = x * 16807 % 2147483647
        want.append(x)
    np.testing.assert_array_equal(engine.draw(3000), want[:3000])
    np.testing.assert_array_equal(engine.draw(2000), want[3000:])
    assert std_random.MinstdRand0(0).draw(1)[0] == 16807  # seed 0 is taken as 1


def test_normals_leave_the_engine_after_the_last_pair_used():
    a, b = std_random.MinstdRand0(7), std_random.MinstdRand0(7)
    first = a.normal_floats(9)
    both = b.normal_floats(10)
    np.testing.assert_array_equal(first, both[:9])  # an odd count drops the last x m
    assert a.state == b.state
    assert np.isfinite(a.normal_floats(10001)).all()


def test_logf_is_close_to_the_true_log():
    x = np.random.default_rng(0).random(10000).astype(np.float32) + np.float32(1e-6)
    got = std_random.logf(x).astype(np.float64)
    np.testing.assert_allclose(got, np.log(x.astype(np.float64)), rtol=2e-7, atol=1e-7)
    assert std_random.logf(np.float32([1.0]))[0] == 0


def test_uniform_ints_cover_the_range():
    draws = std_random.Mt19937(3).uniform_ints(5000, -2, 2)
    assert draws.dtype == np.int32 and set(draws.tolist()) == {-2, -1, 0, 1, 2}


def test_seed_counters_restart_with_set_seed():
    ms.set_seed(3)
    a, b = ops.randn(5).asnumpy(), ops.randn(5).asnumpy()
    assert not np.array_equal(a, b)
    ms.set_seed(3)
    np.testing.assert_array_equal(ops.randn(5).asnumpy(), a)
    # each function keeps its own counter
    np.testing.assert_array_equal(ops.standard_normal((5,)).asnumpy(), a)


def test_seed_errors():
    with pytest.raises(TypeError, match=r"For 'randn', the 'seed' must be int, but got "
                                        r"'float'"):
        ops.randn(2, seed=1.5)
    with pytest.raises(ValueError, match=r"For 'randn', the 'seed' must be int and must >= 0, "
                                         r"but got '-1' with type 'int'"):
        ops.randn(2, seed=-1)


def test_graph_nodes_never_merge_and_runs_advance():
    ms.set_seed(2)

    @ms.jit
    def f(x):
        op = ops.StandardNormal(4, 5)
        return op((6,)) + x, op((6,)) + x

    a, b = f(Tensor(np.zeros(6, np.float32)))
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())  # two nodes, two fresh kernels
    c, _ = f(Tensor(np.zeros(6, np.float32)))
    assert not np.array_equal(a.asnumpy(), c.asnumpy())  # a second run draws further on
    assert ms.compile_info(f).count("StandardNormal") == 2


def test_unseeded_draws_differ():
    op = ops.UniformReal()
    assert not np.array_equal(op((8,)).asnumpy(), op((8,)).asnumpy())


def test_choice_with_mask_gives_true_coordinates_at_any_rank():
    # MindSpore 2.10's CPU kernel mis-splits flat positions for rank >= 3; these are right
    x = np.random.default_rng(1).random((2, 3, 4)) > 0.4
    index, mask = ops.RandomChoiceWithMask(30, 1, 1)(Tensor(x))
    picked = index.asnumpy()[mask.asnumpy()]
    assert len(picked) == x.sum() and x[tuple(picked.T)].all()
    assert len({tuple(p) for p in picked}) == len(picked)


def test_rejection_samplers_refuse_what_never_returns_on_mindspore():
    # MindSpore 2.10's RandomPoisson/RandomGamma CPU kernels loop forever on these
    shape = Tensor(np.array([3], np.int32))
    with pytest.raises(ValueError, match="'rate' must not contain NaN"):
        ops.RandomPoisson(1, 2)(shape, Tensor(np.array([1.0, np.nan], np.float32)))
    with pytest.raises(ValueError, match="'alpha' must be non-negative"):
        ops.RandomGamma(1, 2)(shape, Tensor(np.array([1.0, -1.0], np.float32)))
    with pytest.raises(ValueError, match="'alpha' must be non-negative"):
        ops.random_gamma(shape, Tensor(np.array([np.nan], np.float32)), seed=3)


def test_multinomial_with_replacement_refuses_bad_weights():
    for w in ([[1.0, -1.0]], [[0.0, 0.0]]):
        with pytest.raises(ValueError, match="MultinomialWithReplacement"):
            ops.multinomial_with_replacement(Tensor(np.array(w, np.float32)), 1, 2, 2, True)


def test_double_stream_gives_back_what_it_did_not_use():
    a, b = std_random.Mt19937(77), std_random.Mt19937(77)
    stream = a.double_stream()
    taken = [next(stream) for _ in range(70)]  # past the first block of 64
    stream.close()
    want = b.canonical_doubles(71)
    assert taken == want[:70].tolist()
    assert a.canonical_doubles(1)[0] == want[70]
