"""``mindspore.communication.management``: join the world, ranks, sizes and groups.

Without a launcher, ``init()`` gives a world of one process (MindSpore raises a
RuntimeError there), so a data-parallel script also runs alone, unchanged.
"""
from __future__ import annotations

from ..common import comm_engine as engine
from ..ops.defs.collective import WORLD_COMM_GROUP as HCCL_WORLD_COMM_GROUP
from ..parallel import context as parallel_context

NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = engine.WORLD
_BACKENDS = ("hccl", "nccl", "mccl")


class GlobalComm:
    """The communication backend, the world group's name and whether ``init`` ran."""
    BACKEND = "hccl"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False


def init(backend_name: str | None = None) -> None:
    """Join the process world the launcher started (``graphkiln msrun``, ``mpiexec``);
    a world of one process without a launcher. graphkiln runs every backend on MPI."""
    if backend_name is not None and not isinstance(backend_name, str):
        raise TypeError(f"For 'init', the argument 'backend_name' must be a string, but got "
                        f"the type : {type(backend_name)}")
    if backend_name is not None and backend_name not in _BACKENDS:
        raise RuntimeError(f"For 'init', the argument 'backend_name' must be one of 'hccl', "
                           f"'nccl' and 'mccl', but got '{backend_name}'.")
    world = engine.init_world()
    parallel_context.bind_world(world.size, world.rank)
    GlobalComm.BACKEND = "mccl"
    GlobalComm.WORLD_COMM_GROUP = MCCL_WORLD_COMM_GROUP
    GlobalComm.INITED = True


def release() -> None:
    """Free the groups and leave the world (``init`` joins it again)."""
    engine.release()
    parallel_context.bind_world(1, 0)
    GlobalComm.INITED = False


def _check_group(api: str, group) -> str:
    if not isinstance(group, str):
        raise TypeError(f"For '{api}', the argument 'group' must be type of string, but got "
                        f"'group' type : {type(group)}.")
    return group


def get_rank(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """This process's rank in ``group`` (0 before ``init``)."""
    return engine.group(_check_group("get_rank", group)).rank


def get_group_size(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """How many processes ``group`` has (1 before ``init``)."""
    return engine.group(_check_group("get_group_size", group)).size


def get_local_rank(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """This process's rank among the world's processes on this machine."""
    _check_group("get_local_rank", group)
    return engine.world().local_rank


def get_local_rank_size(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """How many of the world's processes run on this machine."""
    _check_group("get_local_rank_size", group)
    return engine.world().local_size


def get_world_rank_from_group_rank(group: str, group_rank_id: int) -> int:
    g = engine.group(_check_group("get_world_rank_from_group_rank", group))
    if not 0 <= group_rank_id < g.size:
        raise ValueError(f"For 'get_world_rank_from_group_rank', 'group_rank_id' must be in "
                         f"[0, {g.size}), but got {group_rank_id}.")
    return g.world_ranks[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id: int, group: str) -> int:
    g = engine.group(_check_group("get_group_rank_from_world_rank", group))
    if world_rank_id not in g.world_ranks:
        raise ValueError(f"For 'get_group_rank_from_world_rank', rank {world_rank_id} is not "
                         f"in group '{group}' (ranks {g.world_ranks}).")
    return g.world_ranks.index(world_rank_id)


def get_process_group_ranks(group: str = GlobalComm.WORLD_COMM_GROUP) -> list[int]:
    return list(engine.group(_check_group("get_process_group_ranks", group)).world_ranks)


def create_group(group: str, rank_ids: list[int], options=None) -> None:
    """Create ``group`` of the world ranks ``rank_ids``; every process must call it."""
    _check_group("create_group", group)
    if not isinstance(rank_ids, list):
        raise TypeError(f"For 'create_group', the argument 'rank_ids' must be type of list, "
                        f"but got 'rank_ids' type : {type(rank_ids)}.")
    if len(rank_ids) < 2:
        raise ValueError(f"For 'create_group', the argument 'rank_ids' size must be larger "
                         f"than 1, but got {rank_ids}.")
    engine.create_group(group, rank_ids)


def destroy_group(group: str) -> None:
    """Destroy a group made by ``create_group`` (not the world group)."""
    engine.destroy_group(_check_group("destroy_group", group))


def get_comm_name(group: str = GlobalComm.WORLD_COMM_GROUP) -> str:
    return engine.group(_check_group("get_comm_name", group)).name
