"""The graphkiln version (the one place it is written; pyproject.toml reads it from here)."""
__version__ = "0.1.0"
# the MindSpore release whose behaviour and files graphkiln follows (MINDIR, dump metadata)
MINDSPORE_VERSION = "2.10.0"
