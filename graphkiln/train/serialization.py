"""Checkpoints in MindSpore's own formats: ``.ckpt`` (protobuf, optionally encrypted) and
``.safetensors``. Files written here load in MindSpore and the other way round; without
encryption the bytes are the ones MindSpore writes for the same parameters."""
from __future__ import annotations

import binascii
import logging
import math
import os
import re
import stat
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import safetensors
import safetensors.numpy
from google.protobuf.message import DecodeError

import graphkiln.train.ckpt_crypto as ckpt_crypto

from ..common import dtype as mstype
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..nn import Cell
from .checkpoint_proto import Checkpoint
from .model_export import export, load  # noqa: F401  (mindspore.train.serialization's)

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net", "load_checkpoint_async",
           "ckpt_to_safetensors", "safetensors_to_ckpt", "async_ckpt_thread_status", "export"]

SLICE_BYTES = 512 * 1024 * 1024  # a tensor larger than this is written as several slices
_CRC_MARK = b"crc_num"
_CRC_TAIL = len(_CRC_MARK) + 10
_FORMATS = ("ckpt", "safetensors")
_SAVE_LOCK = threading.RLock()
_async_saves: list[threading.Thread] = []
logger = logging.getLogger("graphkiln.train")


# ----------------------------------------------------------------------------- writing

def atomic_write(path: str, write: Callable[[str], None], mode: int = stat.S_IRUSR) -> None:
    """``write(tmp)`` next to ``path``, fsync, then rename over it and give it ``mode``
    (checkpoints: read-only by the owner, as MindSpore leaves them)."""
    directory = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp", dir=directory)
    os.close(fd)
    try:
        write(tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        if os.path.exists(path):
            os.chmod(path, stat.S_IWUSR | stat.S_IRUSR)
        os.replace(tmp, path)
        os.chmod(path, mode)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def _ckpt_messages(records: list[tuple[str, list, str, np.ndarray]]):
    """One serialized ``Checkpoint`` message per tensor slice, in file order."""
    for name, dims, type_name, array in records:
        slices = [array]
        if array.nbytes > SLICE_BYTES:
            slices = np.array_split(array, math.ceil(array.nbytes / SLICE_BYTES))
        for part in slices:
            msg = Checkpoint()
            value = msg.value.add()
            value.tag = name
            value.tensor.dims.extend(dims)
            value.tensor.tensor_type = type_name
            value.tensor.tensor_content = part.tobytes()
            yield msg.SerializeToString()


def _record(name: str, data, snapshot: bool) -> tuple[str, list, str, np.ndarray]:
    """``(name, dims, tensor_type, array)`` as MindSpore stores a value; ``snapshot`` copies
    the array (a background save must not see later updates)."""
    if isinstance(data, str):
        return name, [0], "str", np.array(data)
    array = data.asnumpy()
    array = np.array(array, order="C", copy=True) if snapshot else np.asarray(array, order="C")
    return name, list(data.shape), str(data.dtype), array


def _write_ckpt(path: str, records, enc_key, enc_mode: str, crc_check: bool) -> None:
    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            if enc_key is not None:
                f.write(ckpt_crypto.encrypt(b"".join(_ckpt_messages(records)), enc_key,
                                            enc_mode))
                return
            crc = 0
            for message in _ckpt_messages(records):
                f.write(message)
                if crc_check:
                    crc = binascii.crc32(message, crc)
            if crc_check:
                f.write(_CRC_MARK + crc.to_bytes(10, "big"))
    atomic_write(path, write)


def _write_safetensors(path: str, records, crc_check: bool) -> None:
    tensors = {}
    for name, _, type_name, array in sorted(records, key=lambda r: r[0]):
        if type_name == "str":
            raise TypeError(f"For 'save_checkpoint', the safetensors format cannot store the "
                            f"string value '{name}'; use format='ckpt'.")
        tensors[name] = array
    metadata = {"format": "ms"}
    if crc_check:
        crc = 0
        for name, array in tensors.items():
            crc = binascii.crc32(array.tobytes(), binascii.crc32(name.encode(), crc))
        metadata["crc_num"] = str(crc)
    atomic_write(path, lambda tmp: safetensors.numpy.save_file(
        tensors, tmp, metadata=metadata if tensors else None))


def _params_of(save_obj, choice_func) -> list[tuple[str, object]]:
    """``(name, Tensor or str)`` pairs from a Cell, a list or a dict, as MindSpore reads them."""
    chosen = (lambda name: True) if choice_func is None else choice_func
    if isinstance(save_obj, Cell):
        return [(p.name, p) for _, p in save_obj.parameters_and_names() if chosen(p.name)]
    if isinstance(save_obj, dict):
        pairs = []
        for key, value in save_obj.items():
            if not isinstance(key, str):
                raise TypeError("For save_checkpoint, when save_obj is made up by dict, the key "
                                f"should be str and value should be Parameter, but got the type "
                                f"of key is {type(key)} and the type of value is {type(value)}")
            if chosen(key):
                value = Tensor(value) if isinstance(value, np.ndarray) else value
                pairs.append((key, value))
        return pairs
    pairs = []
    for item in save_obj:
        if isinstance(item, dict):
            if "name" not in item or "data" not in item:
                raise TypeError("For save_checkpoint, save_obj should be a list of dict items, "
                                "and the dict should have key values 'name' and 'value', but got "
                                f"{type(item)} and {item}.")
            if not isinstance(item["name"], str):
                raise TypeError("For save_checkpoint, when save_obj is a list of dict items, the "
                                f"name in dict should be string, but got {type(item['name'])}.")
            if not isinstance(item["data"], Tensor):
                raise TypeError("For save_checkpoint, when save_obj is a list of dict items, the "
                                f"data in dict should be parameter, but got {type(item['data'])}.")
            name, data = item["name"], item["data"]
        elif isinstance(item, Parameter):
            name, data = item.name, item
        else:
            raise TypeError("For save_checkpoint, when save_obj is made up by list of Parameter,"
                            f"the param should be parameter, but got {type(item)}")
        if chosen(name):
            pairs.append((name, data))
    return pairs


def _check_append_dict(append_dict) -> dict:
    if append_dict is None:
        return {}
    if not isinstance(append_dict, dict):
        raise TypeError("For 'save_checkpoint', the argument 'append_dict' must be dict, but got "
                        f"{type(append_dict)}.")
    for key, value in append_dict.items():
        if not isinstance(key, str) or not isinstance(value, (int, float, bool, str, Tensor)):
            raise TypeError("For 'save_checkpoint', the type of dict 'append_info' must be key: "
                            "string, value: int, float, bool or Generator, but got key: "
                            f"{type(key)}, value: {type(value)}")
    return append_dict


def _check_type(name: str, value, types, owner: str):
    if not isinstance(value, types) or (bool not in _as_tuple(types) and isinstance(value, bool)
                                        and int in _as_tuple(types)):
        names = " or ".join(t.__name__ for t in _as_tuple(types))
        raise TypeError(f"For '{owner}', the type of '{name}' should be {names}, but got "
                        f"{type(value).__name__}.")
    return value


def _as_tuple(types) -> tuple:
    return types if isinstance(types, tuple) else (types,)


def _check_format(fmt, owner: str) -> str:
    if fmt not in _FORMATS:
        raise ValueError(f"For '{owner}', the format must be 'safetensors' or 'ckpt', but got "
                         f"{fmt}.")
    return fmt


def _check_no_encryption(owner: str, kind: str, key, mode: str) -> None:
    """safetensors files are never encrypted: ``<kind>_key``/``<kind>_mode`` must keep their
    defaults."""
    if key is not None:
        name, value, default = f"{kind}_key", key, None
    elif mode != "AES-GCM":
        name, value, default = f"{kind}_mode", mode, "AES-GCM"
    else:
        return
    raise ValueError(f"For '{owner}', when format is 'safetensors', the parameter '{name}' must "
                     f"be set to default value '{default}', but got '{value}'.")


def _save_file_name(ckpt_file_name, fmt: str) -> str:
    if not isinstance(ckpt_file_name, str):
        raise TypeError(f"For 'save_checkpoint', the parameter {ckpt_file_name} for checkpoint "
                        f"file name is invalid,'ckpt_file_name' must be string, but got "
                        f"{type(ckpt_file_name)}.")
    path = os.path.realpath(ckpt_file_name)
    if os.path.isdir(path):
        raise IsADirectoryError(f"For 'save_checkpoint', the parameter `ckpt_file_name`: {path} "
                                f"is a directory, it must be a file name.")
    return path if path.endswith(fmt) else f"{path}.{fmt}"


def wait_async_saves() -> None:
    """Block until every asynchronous checkpoint save has finished."""
    while _async_saves:
        _async_saves.pop(0).join()


def save_checkpoint(save_obj, ckpt_file_name: str, integrated_save: bool = True,
                    async_save: bool | str = False, append_dict: dict | None = None,
                    enc_key: bytes | None = None, enc_mode: str = "AES-GCM",
                    choice_func: Callable[[str], bool] | None = None, crc_check: bool = False,
                    format: str = "ckpt", **kwargs) -> None:  # noqa: A002 (MindSpore's name)
    """Save a Cell's parameters, a list of Parameters / ``{"name", "data"}`` dicts, or a dict of
    name -> Parameter (as :func:`load_checkpoint` returns) to ``ckpt_file_name``.

    ``async_save`` (True, "thread" or "process") writes in a background thread from a snapshot
    of the values taken before returning. ``integrated_save`` matters only for sliced
    (model-parallel) weights, which graphkiln does not have."""
    fmt = _check_format(format, "save_checkpoint")
    if not isinstance(save_obj, (Cell, list, dict)):
        raise TypeError("For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list "
                        f"or dict, but got {type(save_obj)}.")
    path = _save_file_name(ckpt_file_name, fmt)
    _check_type("integrated_save", integrated_save, bool, "save_checkpoint")
    if not isinstance(async_save, (bool, str)):
        raise TypeError("For 'save_checkpoint', the parameter 'async_save' must be bool or str, "
                        f"but got {type(async_save)}.")
    if isinstance(async_save, str) and async_save not in ("process", "thread"):
        raise ValueError("For 'save_checkpoint', the argument 'async_save' can only be 'process' "
                         f"or 'thread',but got {async_save}.")
    append_dict = _check_append_dict(append_dict)
    _check_type("enc_key", enc_key, (type(None), bytes), "save_checkpoint")
    _check_type("enc_mode", enc_mode, str, "save_checkpoint")
    _check_type("crc_check", crc_check, bool, "save_checkpoint")
    if fmt == "safetensors":
        _check_no_encryption("save_checkpoint", "enc", enc_key, enc_mode)
    if enc_key is not None:
        ckpt_crypto.check_mode(enc_mode, enc_key, "save_checkpoint")
    pairs = _params_of(save_obj, choice_func)
    for key, value in append_dict.items():
        pairs.append((key, value if isinstance(value, (str, Tensor)) else Tensor(value)))
    records = [_record(name, data, snapshot=bool(async_save)) for name, data in pairs]

    def write() -> None:
        with _SAVE_LOCK:
            if fmt == "ckpt":
                _write_ckpt(path, records, enc_key, enc_mode, crc_check)
            else:
                _write_safetensors(path, records, crc_check)

    wait_async_saves()
    if async_save:
        thread = threading.Thread(target=write, name="asyn_save_ckpt")
        _async_saves.append(thread)
        thread.start()
    else:
        write()


def async_ckpt_thread_status() -> bool:
    """True while an asynchronous checkpoint save is still writing."""
    return any(t.is_alive() for t in _async_saves)


# ----------------------------------------------------------------------------- reading

def _check_prefix(prefix):
    if prefix is None:
        return None
    if not isinstance(prefix, (str, list, tuple)):
        raise TypeError("For 'load_checkpoint', the type of 'specify_prefix' or 'filter_prefix' "
                        f"must be string, list[string] or tuple[string], but got {type(prefix)}.")
    prefix = (prefix,) if isinstance(prefix, str) else tuple(prefix)
    if not prefix:
        raise ValueError("For 'load_checkpoint', the argument 'specify_prefix' or "
                         "'filter_prefix' can't be empty when 'specify_prefix' or "
                         "'filter_prefix' is list or tuple.")
    for index, pre in enumerate(prefix):
        if not isinstance(pre, str):
            raise TypeError("For 'load_checkpoint', when 'specify_prefix' or 'filter_prefix' is "
                            f"list or tuple, the element in it must be string, but got "
                            f"{type(pre)} at index {index}.")
        if pre == "":
            raise ValueError("For 'load_checkpoint', the value of 'specify_prefix' or "
                             "'filter_prefix' can't include ''.")
    return prefix


def _check_load_file(path, fmt: str) -> str:
    if not isinstance(path, str):
        raise TypeError("For 'load_checkpoint', the argument 'ckpt_file_name' must be string, "
                        f"but got {type(path)}.")
    if not path.endswith(fmt):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file format must same with "
                         f"'format', but got file_name:'{path}', format:'{fmt}'")
    path = os.path.realpath(path)
    if not os.path.exists(path):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file: {path} does not exist, "
                         f"please check whether the 'ckpt_file_name' is correct.")
    return path


def _read_ckpt_message(path: str, dec_key, dec_mode: str, crc_check: bool):
    with open(path, "rb") as f:
        content = f.read()
    if dec_key is not None:
        ckpt_crypto.check_mode(dec_mode, dec_key, "load_checkpoint")
        try:
            content = ckpt_crypto.decrypt(content, dec_key, dec_mode)
        except ValueError as e:
            raise ValueError(f"Failed to read the checkpoint file {path}. The file may be "
                             f"encrypted or tempered with, please pass in the correct 'dec_key' "
                             f"or check the file integrity. ({e})") from e
    if content[-_CRC_TAIL:-10] == _CRC_MARK:
        crc = int.from_bytes(content[-10:], "big")
        content = content[:-_CRC_TAIL]
        if crc_check and binascii.crc32(content) != crc:
            raise ValueError("For 'load_checkpoint', the crc check is failed, please check "
                             "whether the ckpt file is damaged.")
    msg = Checkpoint()
    try:
        msg.ParseFromString(content)
    except DecodeError as e:
        if dec_key is not None:  # CBC with a wrong key can unpad cleanly into garbage
            hint = " It may be encrypted with another key: check the 'dec_key' and 'dec_mode'."
        elif ckpt_crypto.is_encrypted(content):
            hint = " It looks encrypted: pass its 'dec_key' and 'dec_mode'."
        else:
            hint = ""
        raise ValueError(f"Failed to read the checkpoint file {path}. The file may be "
                         f"corrupted, and the content cannot be parsed.{hint}") from e
    return msg


def _tensor_from(tag: str, dims, type_name: str, content: bytes, path: str):
    if type_name == "str":
        return str(np.frombuffer(content, f"U{len(content) // 4}")[0])
    try:
        dtype = mstype.from_name(type_name)
    except (KeyError, ValueError) as e:
        raise ValueError(f"For 'load_checkpoint', the parameter '{tag}' in {path} has type "
                         f"'{type_name}', which graphkiln does not support.") from e
    shape = tuple(dims) if list(dims) != [0] else ()
    expected = int(np.prod(shape)) * np.dtype(dtype.np_dtype).itemsize
    if len(content) != expected:
        raise ValueError(f"Failed to read the checkpoint file {path}: the parameter '{tag}' has "
                         f"{len(content)} bytes, but its shape {list(shape)} and type "
                         f"{type_name} need {expected}. The file may be truncated or damaged.")
    array = np.frombuffer(content, dtype.np_dtype).reshape(shape).copy()
    return Parameter(Tensor(array, dtype), name=tag)


def _chosen(tag: str, specify_prefix, filter_prefix, choice_func) -> bool:
    if specify_prefix and not tag.startswith(specify_prefix):
        return False
    if filter_prefix and tag.startswith(filter_prefix):
        return False
    if specify_prefix is None and filter_prefix is None and choice_func is not None:
        return bool(choice_func(tag))
    return True


def _load_ckpt(path, dec_key, dec_mode, crc_check, chosen) -> dict:
    msg = _read_ckpt_message(path, dec_key, dec_mode, crc_check)
    params: dict = {}
    pending: list[bytes] = []
    values = msg.value
    for i, value in enumerate(values):
        if not chosen(value.tag):
            continue
        if not value.HasField("tensor"):
            raise ValueError(f"For 'load_checkpoint', the entry '{value.tag}' in {path} is a "
                             f"MapParameter, which graphkiln does not support.")
        pending.append(value.tensor.tensor_content)
        if i + 1 == len(values) or values[i + 1].tag != value.tag:
            params[value.tag] = _tensor_from(value.tag, value.tensor.dims,
                                             value.tensor.tensor_type, b"".join(pending), path)
            pending = []
    return params


def _load_safetensors(path, crc_check: bool, chosen) -> dict:
    params: dict = {}
    try:
        with safetensors.safe_open(path, framework="np") as f:
            metadata = f.metadata() or {}
            crc = 0
            for key in sorted(f.keys()):
                array = f.get_tensor(key)
                if crc_check:
                    crc = binascii.crc32(array.tobytes(), binascii.crc32(key.encode(), crc))
                if chosen(key):
                    params[key] = Parameter(Tensor(array), name=key)
    except safetensors.SafetensorError as e:
        raise ValueError(f"Failed to read the checkpoint file {path}. The file may be "
                         f"corrupted, and the content cannot be parsed. ({e})") from e
    if crc_check and "crc_num" in metadata and int(metadata["crc_num"]) != crc:
        raise ValueError("For 'load_checkpoint', the crc check has failed. Please check whether "
                         "the ckpt file is damaged.")
    return params


def load_checkpoint(ckpt_file_name: str, net: Cell | None = None, strict_load: bool = False,
                    filter_prefix=None, dec_key: bytes | None = None, dec_mode: str = "AES-GCM",
                    specify_prefix=None, choice_func: Callable[[str], bool] | None = None,
                    crc_check: bool = False, remove_redundancy: bool = False,
                    format: str = "ckpt") -> dict:  # noqa: A002
    """Read a checkpoint into ``{name: Parameter}`` (strings stay ``str``); with ``net``, also
    load it into the network (see :func:`load_param_into_net`)."""
    specify_prefix = _check_prefix(specify_prefix)
    filter_prefix = _check_prefix(filter_prefix)
    _check_type("dec_key", dec_key, (type(None), bytes), "load_checkpoint")
    _check_type("dec_mode", dec_mode, str, "load_checkpoint")
    _check_type("crc_check", crc_check, bool, "load_checkpoint")
    if format not in _FORMATS:
        raise ValueError("For 'load_checkpoint', the checkpoint file should end with '.ckpt' or "
                         "'.safetensors', please input the correct 'format'.")
    if format == "safetensors":
        _check_no_encryption("load_checkpoint", "dec", dec_key, dec_mode)
    path = _check_load_file(ckpt_file_name, format)

    def chosen(tag: str) -> bool:
        return _chosen(tag, specify_prefix, filter_prefix, choice_func)

    if format == "ckpt":
        params = _load_ckpt(path, dec_key, dec_mode, crc_check, chosen)
    else:
        params = _load_safetensors(path, crc_check, chosen)
    if not params:
        raise ValueError("The loaded parameter dict is empty after filter or specify, please "
                         "check whether 'filter_prefix' or 'specify_prefix' are set correctly.")
    if net is not None:
        load_param_into_net(net, params, strict_load)
    return params


class ParamDictFuture:
    """What :func:`load_checkpoint_async` returns: ``result()`` waits for the dict."""

    def __init__(self, executor: ThreadPoolExecutor, future):
        self._executor = executor
        self._future = future

    def result(self) -> dict:
        try:
            return self._future.result()
        finally:
            self._executor.shutdown()


def load_checkpoint_async(ckpt_file_name: str, net: Cell | None = None,
                          strict_load: bool = False, filter_prefix=None,
                          dec_key: bytes | None = None, dec_mode: str = "AES-GCM",
                          specify_prefix=None, choice_func=None) -> ParamDictFuture:
    """:func:`load_checkpoint` in a background thread."""
    fmt = "safetensors" if str(ckpt_file_name).endswith(".safetensors") else "ckpt"
    executor = ThreadPoolExecutor(max_workers=1)
    future = executor.submit(load_checkpoint, ckpt_file_name, net, strict_load, filter_prefix,
                             dec_key, dec_mode, specify_prefix, choice_func, format=fmt)
    return ParamDictFuture(executor, future)


# ----------------------------------------------------------------------------- into a network

_FLOATS = {mstype.float16, mstype.float32, mstype.float64}
_INTS = {mstype.int8, mstype.int16, mstype.int32, mstype.int64}


def _update_param(param: Parameter, new, strict_load: bool) -> None:
    """Copy ``new`` into ``param`` with MindSpore's shape and dtype rules."""
    if param.shape != new.shape:
        extra = new.shape[len(param.shape):]
        if len(new.shape) > len(param.shape) and all(d == 1 for d in extra):
            param.set_data(Tensor(new.asnumpy().reshape(param.shape), param.dtype))
            return
        raise RuntimeError(
            f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same "
            f"shape as {param.name} in the argument 'parameter_dict'. But got its shape "
            f"{param.shape} in the argument 'net' and shape {new.shape} in the argument "
            f"'parameter_dict'.May you need to check whether the checkpoint you loaded is "
            f"correct or the batch size and so on in the 'net' and 'parameter_dict' are same.")
    if param.dtype != new.dtype:
        if not strict_load and ({param.dtype, new.dtype} <= _FLOATS
                                or {param.dtype, new.dtype} <= _INTS):
            param.set_data(Tensor(new.asnumpy(), param.dtype))
            return
        raise RuntimeError(
            f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same "
            f"type as {param.name} in the argument 'parameter_dict'. but got its type "
            f"{param.dtype} in the argument 'net' and type {new.dtype} in the argument "
            f"'parameter_dict'.May you need to check whether the checkpoint you loaded is "
            f"correct.")
    param.set_data(new)


def _load_with_prefix(net: Cell, parameter_dict: dict, not_loaded: list, strict_load) -> None:
    """Load the rest when the checkpoint names carry an extra prefix (``network.fc.weight``)."""
    while not_loaded:
        prefix = next((key[:-len(name)] for name in not_loaded for key in parameter_dict
                       if key.endswith(name) and key != name), None)
        if prefix is None:
            return
        for _, param in net.parameters_and_names():
            key = prefix + param.name
            if param.name in not_loaded and isinstance(parameter_dict.get(key), Tensor):
                _update_param(param, parameter_dict[key], strict_load)
                not_loaded.remove(param.name)
        if all(prefix + name not in parameter_dict for name in not_loaded):
            return


def load_param_into_net(net: Cell, parameter_dict: dict, strict_load: bool = False,
                        remove_redundancy: bool = False) -> tuple[list, list]:
    """Load ``parameter_dict`` into ``net`` by parameter name; returns
    ``(param_not_load, ckpt_not_load)``: the network's names that got no value and the
    checkpoint's names that went nowhere."""
    if not isinstance(net, Cell):
        raise TypeError("For 'load_param_into_net', the argument 'net' should be a Cell, but got "
                        f"{type(net)}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError("For 'load_param_into_net', the argument 'parameter_dict' should be a "
                        f"dict, but got {type(parameter_dict)}.")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Parameter, str, list)):
            raise TypeError("For 'parameter_dict', the element in the argument 'parameter_dict' "
                            f"should be a 'str' and 'Parameter' , but got {type(key)} and "
                            f"{type(value)}.")
    _check_type("strict_load", strict_load, bool, "load_param_into_net")
    param_not_load: list = []
    ckpt_not_load = list(parameter_dict)
    for _, param in net.parameters_and_names():
        if param.name in parameter_dict:
            new = parameter_dict[param.name]
            if not isinstance(new, Tensor):
                continue
            _update_param(param, new, strict_load)
            ckpt_not_load.remove(param.name)
        elif not param.name.startswith("accu_grads"):
            param_not_load.append(param.name)
    if param_not_load and not strict_load:
        _load_with_prefix(net, parameter_dict, param_not_load, strict_load)
    if param_not_load:
        logger.warning("For 'load_param_into_net', %d parameters in the 'net' are not loaded, "
                       "because they are not in the 'parameter_dict', please check whether the "
                       "network structure is consistent when training and loading checkpoint.",
                       len(param_not_load))
        logger.warning("%s are not loaded.", param_not_load)
    return param_not_load, ckpt_not_load


# ----------------------------------------------------------------------------- conversion

def _convert(file_path: str, save_path, name_map, file_name_regex, dst: str) -> None:
    src = "ckpt" if dst == "safetensors" else "safetensors"
    owner = "ckpt_to_safetensors" if dst == "safetensors" else "safetensors_to_ckpt"
    if not os.path.isdir(file_path) and not os.path.isfile(file_path):
        raise ValueError(f"For {owner}, the input path must be a valid path or file, but got "
                         f"{file_path}")
    if save_path and os.path.splitext(save_path)[1]:
        raise ValueError(f"For {owner}, the save_path must be a directory, but got '{save_path}'")
    if name_map is not None and not isinstance(name_map, dict):
        raise ValueError(f"For {owner}, the type of 'name_map' must be a directory, but got "
                         f"'{type(name_map)}'")
    if os.path.isfile(file_path):
        if not file_path.endswith(f".{src}"):
            raise ValueError(f"For {owner}, the input file must be a .{src} file, but got "
                             f"{file_path}")
        if file_name_regex is not None and not re.findall(file_name_regex, file_path):
            raise ValueError(f"For {owner}, the input file does not match the regular "
                             f"expression.")
        tasks = [(file_path, save_path or os.path.dirname(file_path))]
    else:
        ranks = [d for d in sorted(os.listdir(file_path))
                 if d.startswith("rank") and os.path.isdir(os.path.join(file_path, d))]
        if not ranks:
            raise ValueError(f"For '{owner}', no directories starting with 'rank' found in "
                             f"{file_path}.")
        tasks = []
        for rank in ranks:
            src_dir = os.path.join(file_path, rank)
            dst_dir = os.path.join(save_path, rank) if save_path else src_dir
            tasks += [(os.path.join(src_dir, f), dst_dir) for f in sorted(os.listdir(src_dir))
                      if f.endswith(f".{src}")
                      and (file_name_regex is None or re.search(file_name_regex, f))]
    for src_file, dst_dir in tasks:
        os.makedirs(dst_dir, exist_ok=True)
        params = load_checkpoint(src_file, format=src)
        if name_map:
            params = {name_map.get(k, k): v for k, v in params.items()}
        dst_name = os.path.basename(src_file)[:-len(src)] + dst
        save_checkpoint(params, os.path.join(dst_dir, dst_name), format=dst)


def ckpt_to_safetensors(file_path: str, save_path: str | None = None,
                        name_map: dict | None = None, file_name_regex: str | None = None,
                        processes_num: int = 1) -> None:
    """Convert a ``.ckpt`` file (or ``rank*/`` directories of them) to ``.safetensors``.
    Files are converted one after another whatever ``processes_num`` says."""
    _convert(file_path, save_path, name_map, file_name_regex, "safetensors")


def safetensors_to_ckpt(file_path: str, save_path: str | None = None,
                        name_map: dict | None = None, file_name_regex: str | None = None,
                        processes_num: int = 1) -> None:
    """Convert a ``.safetensors`` file (or ``rank*/`` directories of them) to ``.ckpt``."""
    _convert(file_path, save_path, name_map, file_name_regex, "ckpt")

