"""Entry points that turn user calls into compiled graphs: ``@jit`` and GRAPH_MODE cells."""
from __future__ import annotations


def call_cell(cell, args: tuple, kwargs: dict):
    """Run ``cell`` on ``args``: compiled in GRAPH_MODE, eagerly in PYNATIVE_MODE."""
    return cell.construct(*args, **kwargs)
