"""``mindspore.log``: MindSpore's logger (``logger.info``/``warning``/``error``...).

One ``logging.Logger`` named ``mindspore``; its level follows ``GLOG_v`` as MindSpore's does
(0 debug, 1 info, 2 warning, the default, 3 error), and ``get_level`` reports it that way.
"""
from __future__ import annotations

import logging
import os
import sys

_LEVELS = {"0": logging.DEBUG, "1": logging.INFO, "2": logging.WARNING, "3": logging.ERROR}
_GLOG = {logging.DEBUG: "0", logging.INFO: "1", logging.WARNING: "2", logging.ERROR: "3"}

_logger = logging.getLogger("mindspore")
if not _logger.handlers:
    _handler = logging.StreamHandler(sys.stderr)
    _handler.setFormatter(logging.Formatter(
        "[%(levelname)s] ME(%(process)d:%(thread)d,%(processName)s):%(asctime)s "
        "[%(filename)s:%(lineno)d] %(message)s"))
    _logger.addHandler(_handler)
    _logger.propagate = False
_logger.setLevel(_LEVELS.get(os.environ.get("GLOG_v", "2").strip(), logging.WARNING))


def debug(msg, *args, **kwargs) -> None:
    _logger.debug(msg, *args, stacklevel=2, **kwargs)


def info(msg, *args, **kwargs) -> None:
    _logger.info(msg, *args, stacklevel=2, **kwargs)


def warning(msg, *args, **kwargs) -> None:
    _logger.warning(msg, *args, stacklevel=2, **kwargs)


def error(msg, *args, **kwargs) -> None:
    _logger.error(msg, *args, stacklevel=2, **kwargs)


def critical(msg, *args, **kwargs) -> None:
    _logger.critical(msg, *args, stacklevel=2, **kwargs)


def exception(msg, *args, **kwargs) -> None:
    _logger.exception(msg, *args, stacklevel=2, **kwargs)


def get_level() -> str:
    """The level as MindSpore's ``GLOG_v`` digit ('2' by default)."""
    return _GLOG.get(_logger.level, "2")


def get_log_config() -> dict:
    return {"GLOG_v": get_level()}


warn = warning
