"""``mindspore._extends``: the paths under it that user code imports."""
