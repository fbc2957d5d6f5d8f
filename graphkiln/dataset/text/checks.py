"""Argument checks shared by the text ops, with MindSpore's error types."""
from __future__ import annotations


def check_bool(value, name: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"Argument {name} with value {value!r} is not of type [<class 'bool'>], "
                        f"but got {type(value)}.")
    return value


def check_str(value, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"Argument {name} with value {value!r} is not of type "
                        f"[<class 'str'>], but got {type(value)}.")
    return value

