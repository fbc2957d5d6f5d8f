"""``graphkiln.train.summary`` (``mindspore.train.summary``): ``SummaryRecord`` and
MindSpore's summary file format."""
from .summary_record import SummaryRecord

__all__ = ["SummaryRecord"]
