"""MindSpore's ``# @jit.cond: True`` / ``False`` comment on an ``if`` line: the condition
folds to that value while the function converts (MindSpore 2.10: f1 -> 1, f2 -> 0 for
x = 2; tests/st/compiler/boost_parse)."""
from graphkiln import Tensor, jit


@jit
def folded_true(x):
    if x == 2:  # @jit.cond: True
        return 1
    return 0


@jit
def folded_false(x):
    if x == 2:  # @jit.cond: False
        return 1
    return 0


@jit
def not_folded(x):
    if x == 2:  # a plain comment
        return 1
    return 0


def test_the_comment_decides_the_branch():
    assert folded_true(Tensor(2)) == 1
    assert folded_true(Tensor(3)) == 1  # folded: the value is not looked at
    assert folded_false(Tensor(2)) == 0
    assert not_folded(Tensor(2)) == 1 and not_folded(Tensor(3)) == 0

