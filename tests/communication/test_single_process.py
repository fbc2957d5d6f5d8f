"""Communication, the parallel context and the collectives in one process (a world of
one): values, errors and texts against real MindSpore (fixtures/mindspore_reference.json,
recorded by fixtures/record_mindspore.py), and the IR order of collectives."""
import json
import os
import warnings

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops
from graphkiln.common import comm_engine
from graphkiln.communication import (
    GlobalComm,
    create_group,
    get_group_size,
    get_local_rank,
    get_rank,
    init,
    release,
)
from graphkiln.nn.wrap.grad_reducer import plan_buckets
from graphkiln.parallel._auto_parallel_context import auto_parallel_context

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "mindspore_reference.json")) as f:
    REF = json.load(f)


@pytest.fixture(autouse=True)
def _fresh_parallel_context():
    yield
    ms.reset_auto_parallel_context()


def test_defaults_match_mindspore():
    for key, value in REF["defaults"].items():
        assert ms.get_auto_parallel_context(key) == value, key
    assert ms.ParallelMode.MODE_LIST == REF["modes"]
    assert ms.context.ParallelMode.DATA_PARALLEL == "data_parallel"


def test_set_and_reset_match_mindspore():
    ms.context.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                         gradients_mean=True, device_num=2)
    got = [ms.get_auto_parallel_context(k)
           for k in ("parallel_mode", "gradients_mean", "device_num")]
    assert got == REF["after_set"]
    assert auto_parallel_context().get_parallel_mode() == "data_parallel"
    ms.context.reset_auto_parallel_context()
    assert [ms.get_auto_parallel_context(k)
            for k in ("parallel_mode", "gradients_mean", "device_num")] == REF["after_reset"]


@pytest.mark.parametrize("case,call", [
    ("bad_mode", lambda: ms.set_auto_parallel_context(parallel_mode="foo")),
    ("bad_key", lambda: ms.set_auto_parallel_context(foo=1)),
    ("bad_get", lambda: ms.get_auto_parallel_context("foo")),
    ("bad_mean", lambda: ms.set_auto_parallel_context(gradients_mean=1)),
    ("bad_device_num", lambda: ms.set_auto_parallel_context(device_num=0)),
])
def test_errors_match_mindspore(case, call):
    kind, text = REF["errors"][case]
    with pytest.raises({"ValueError": ValueError, "TypeError": TypeError}[kind]) as info:
        call()
    assert str(info.value).splitlines()[0] == text


def test_sharding_modes_run_as_data_parallel_and_say_so():
    with pytest.warns(UserWarning, match="as data parallel"):
        ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
    assert ms.get_auto_parallel_context("parallel_mode") == "semi_auto_parallel"
    assert nn.TrainOneStepCell(_net(), nn.SGD(_net().trainable_params(), 0.1)).reducer_flag


def _net():
    return nn.Dense(3, 2)


def test_world_of_one_without_a_launcher():
    assert [get_rank(), get_group_size(), get_local_rank()] == REF["before_init"]
    init()
    assert GlobalComm.INITED and GlobalComm.WORLD_COMM_GROUP == "mccl_world_group"
    assert (get_rank(), get_group_size(), ms.get_auto_parallel_context("device_num")) == (0, 1, 1)
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    for op in (ops.AllReduce(), ops.AllGather(), ops.ReduceScatter(), ops.AlltoAll(1, 0, 1)):
        np.testing.assert_array_equal(op(x).asnumpy(), x.asnumpy())
    release()
    assert not GlobalComm.INITED


def test_argument_errors():
    with pytest.raises(TypeError, match="'backend_name' must be a string"):
        init(1)
    with pytest.raises(RuntimeError, match="must be one of 'hccl', 'nccl' and 'mccl'"):
        init("gloo")
    with pytest.raises(TypeError, match="'group' must be type of string"):
        get_rank(0)
    with pytest.raises(ValueError, match="size must be larger than 1"):
        create_group("g", [0])
    with pytest.raises(ValueError, match="group 'nope' does not exist"):
        ops.AllReduce(group="nope")(Tensor(np.ones(2, np.float32)))
    with pytest.raises(ValueError, match="'op' must be one of"):
        ops.AllReduce("avg")(Tensor(np.ones(2, np.float32)))
    with pytest.raises(TypeError, match="'x' type must be one of"):
        ops.AllReduce()(Tensor(np.ones(2, np.bool_)))
    with pytest.raises(ValueError, match="'split_count' must equal the group size 1"):
        ops.AlltoAll(2, 0, 0)(Tensor(np.ones(2, np.float32)))


def test_timeout_setting_is_checked(monkeypatch):
    monkeypatch.setenv(comm_engine.TIMEOUT_ENV, "soon")
    with pytest.raises(ValueError, match="must be a number of seconds"):
        comm_engine.timeout_seconds()
    monkeypatch.setenv(comm_engine.TIMEOUT_ENV, "2.5")
    assert comm_engine.timeout_seconds() == 2.5


def test_collectives_are_ordered_effects_never_merged_or_dropped():
    """Two identical AllReduces (a CSE candidate) and an unused AllGather (a DCE
    candidate) all stay, in program order, in the generated code."""
    ms.set_context(mode=ms.GRAPH_MODE)

    @ms.jit
    def f(x):
        a = ops.AllReduce(ops.ReduceOp.MAX)(x)
        b = ops.AllReduce()(x)
        c = ops.AllReduce()(x)
        ops.AllGather()(x)  # result unused
        ops.Barrier()()
        return a + b + c

    x = Tensor(np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(f(x).asnumpy(), 3 * x.asnumpy())
    calls = [line.split("(")[0].split("= ")[1] + ("(max)" if "'max'" in line else "")
             for line in ms.compile_info(f).source.splitlines() if "k_" in line
             and any(n in line for n in ("AllReduce", "AllGather", "Barrier"))]
    names = [c.split("_")[1] + ("(max)" if "(max)" in c else "") for c in calls]
    assert names == ["AllReduce(max)", "AllReduce", "AllReduce", "AllGather", "Barrier"]


def test_buckets_fuse_consecutive_gradients_of_one_dtype():
    ps = [Parameter(Tensor(np.zeros(s, dt)), name=f"p{i}") for i, (s, dt) in enumerate(
        [((256, 256), np.float32), ((256,), np.float32), ((4,), np.float16),
         ((1024, 1024), np.float32), ((8,), np.float32)])]
    assert plan_buckets(ps) == [[0, 1], [2], [3, 4]]
    assert plan_buckets(ps, bucket_bytes=300_000) == [[0, 1], [2], [3], [4]]


def test_reducer_in_a_training_step_of_one_process():
    """gradients_mean over a world of one changes nothing: same weights as stand-alone."""
    def train(parallel):
        ms.reset_auto_parallel_context()
        if parallel:
            ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                         gradients_mean=True)
        net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                   nn.SGD(net.trainable_params(), 0.1))
        assert step.reducer_flag is parallel
        x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
        for _ in range(3):
            step(x, Tensor(np.ones((2, 2), np.float32)))
        return net.weight.asnumpy()

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(train(True), train(False))


def test_point_to_point_and_rooted_functions_check_their_arguments():
    """comm_func's argument errors (MindSpore's types and texts), and the ones a world of
    one process or a compiled graph gives."""
    from graphkiln.communication import comm_func
    init()
    x = Tensor(np.ones((2, 3), np.float32))
    for call, error, text in (
            (lambda: comm_func.send([1], 0), TypeError,
             "For send, the input tensor must be tensor"),
            (lambda: comm_func.recv(x, src="0"), TypeError, "For recv, the src must be int"),
            (lambda: comm_func.isend(np.ones(2), 0), TypeError,
             "For isend, the input tensor must be tensor"),
            (lambda: comm_func.scatter_tensor(x, src=1.0), TypeError,
             "For scatter_tensor, the src must be int"),
            (lambda: comm_func.gather_into_tensor(x, dst="0"), TypeError,
             "For gather_into_tensor, the dst must be int"),
            (lambda: comm_func.P2POp("send", x, 1), ValueError,
             "Expected ``op`` to be of type ``isend`` or `irecv``, but got send"),
            (lambda: comm_func.P2POp("isend", x, 1, tag=1), NotImplementedError,
             "``tag`` not support yet."),
            (lambda: comm_func.batch_isend_irecv([]), TypeError,
             "p2p_op_list can not be empty list."),
            (lambda: comm_func.send(x, 0), RuntimeError,
             "For 'Send', group 'mccl_world_group' has only this process: there is no peer"),
            (lambda: ops.Receive(0, 0, [2], ms.bool_)(), TypeError,
             "For 'Receive', the 'dtype' must be one of"),
            (lambda: ops.Reduce(1)(x), ValueError,
             "For 'Reduce', 'dest_rank' must be a rank of group 'hccl_world_group' in [0, 1)"),
            (lambda: comm_func.all_to_all_single_with_output_shape((3, 3), x, [1], [2]),
             comm_engine.CommMismatchError, "expects [3] elements from the ranks, which send "
                                            "it [6]"),
            (lambda: ms.jit(lambda t: comm_func.irecv(t))(x), RuntimeError,
             "For irecv, only PyNative mode is supported"),
            (lambda: ms.vmap(lambda t: ops.Send(0, 0)(t))(x), ValueError,
             "vmap does not support side effects inside the vmapped function, but it calls "
             "'Send'")):
        with pytest.raises(error) as e:
            call()
        assert text in str(e.value)
    # a world of one: rooted collectives give the input
    np.testing.assert_array_equal(comm_func.reduce(x, 0).asnumpy(), x.asnumpy())
    np.testing.assert_array_equal(comm_func.gather_into_tensor(x).asnumpy(), x.asnumpy())
