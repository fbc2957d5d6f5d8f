"""Shared by the export tests: the four nets (``fixtures/export_nets.py``, imported with
``mindspore`` meaning graphkiln) and what MindSpore 2.10 recorded (``record_export.py``)."""
import json
from pathlib import Path

from graphkiln import compat

FIXTURES = Path(__file__).parent / "fixtures"
NETS = compat.import_mindspore_module(FIXTURES / "export_nets.py")
RECORDED = json.loads((FIXTURES / "ms_export.json").read_text())
VARIANTS = {"": None, "_dyn": 3}  # file suffix -> the batch its run uses (None: fixed)

