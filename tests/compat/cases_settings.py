"""Process settings that scripts set and read back: ``mindspore.runtime`` memory and
executor settings, ``set_algo_parameters``, legacy primitive names and the optimizer's
parallel flags. Written against the ``mindspore`` API: ``fixtures/record.py settings``
runs them on real MindSpore, ``test_settings_recorded.py`` on graphkiln."""
import numpy as np

ALGO_KEYS = ("fully_use_devices", "elementwise_op_strategy_follow",
             "tensor_slice_align_enable", "tensor_slice_align_size", "enable_algo_approxi",
             "algo_approxi_epsilon")


def algo_parameters_set_get_reset(ms):
    from mindspore.parallel import get_algo_parameters, reset_algo_parameters
    before = tuple(get_algo_parameters(k) for k in ALGO_KEYS)
    ms.set_algo_parameters(fully_use_devices=True, tensor_slice_align_size=64,
                           algo_approxi_epsilon=0.3, enable_algo_approxi=True)
    during = tuple(ms.get_algo_parameters(k) for k in ALGO_KEYS)
    reset_algo_parameters()
    return before, during, tuple(get_algo_parameters(k) for k in ALGO_KEYS)


def algo_parameters_unknown_key(ms):
    ms.set_algo_parameters(fully_use_device=True)


algo_parameters_unknown_key.phrase = "Set context keyword fully_use_device is not recognized!"


def algo_parameters_wrong_type(ms):
    ms.set_algo_parameters(fully_use_devices=1)


algo_parameters_wrong_type.phrase = "The parameter 'fully_use_devices' must be <class 'bool'>"


def algo_parameters_align_size_range(ms):
    ms.set_algo_parameters(tensor_slice_align_size=2048)


algo_parameters_align_size_range.phrase = "Align_size must be in [1, 1024], but got 2048"


def algo_parameters_epsilon_range(ms):
    ms.set_algo_parameters(algo_approxi_epsilon=1.5)


algo_parameters_epsilon_range.phrase = "'epsilon' must be in (0, 1]"


def get_algo_parameters_unknown_key(ms):
    ms.get_algo_parameters("align")


get_algo_parameters_unknown_key.phrase = "Get context keyword align is not recognized!"


def set_memory_bad_format(ms):
    ms.runtime.set_memory("2G")


set_memory_bad_format.phrase = "The '2G' is illegal, it must be match regular"


def set_memory_zero(ms):
    ms.runtime.set_memory("1GB", "0GB")


set_memory_zero.phrase = "The '0GB' is illegal"


def set_memory_bad_level(ms):
    ms.runtime.set_memory("1GB", optimize_level="O2")


set_memory_bad_level.phrase = "The optimize_level must be one of ['O0', 'O1'], but got O2"


def set_memory_twice(ms):
    try:
        ms.runtime.set_memory("1GB", "1GB", "4GB", "O1")
    except RuntimeError:  # the recording process runs every mode in one process
        pass
    ms.runtime.set_memory("2GB")


set_memory_twice.phrase = "The 'set_memory' can not be set repeatedly."


def memory_statistics_on_cpu(ms):
    x = ms.ops.ones((256, 256), ms.float32) + 1
    r = ms.runtime
    return (x.sum(), r.memory_stats(), r.memory_allocated(), r.max_memory_allocated(),
            r.memory_reserved(), r.max_memory_reserved())


def legacy_primitive_names(ms):
    P = ms.ops.operations
    a = ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    return P.Pack(axis=1)([a, a * 2]), P.Unpack(axis=0)(a), P.TensorAdd()(a, a)


def optimizer_parallel_flags(ms):
    net = ms.nn.Dense(2, 1)
    opt = ms.nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return opt.use_parallel, opt.param_length


CASES = [algo_parameters_set_get_reset, algo_parameters_unknown_key,
         algo_parameters_wrong_type, algo_parameters_align_size_range,
         algo_parameters_epsilon_range, get_algo_parameters_unknown_key,
         set_memory_bad_format, set_memory_zero, set_memory_bad_level, set_memory_twice,
         memory_statistics_on_cpu, legacy_primitive_names, optimizer_parallel_flags]
