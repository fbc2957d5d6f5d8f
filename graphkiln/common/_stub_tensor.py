"""``mindspore.common._stub_tensor``: MindSpore 2.10 keeps ``StubTensor`` as an empty class
that no operation returns (old code imports it and sets attributes on it)."""


class StubTensor:
    """MindSpore's placeholder class: operations return ``Tensor``, never this."""
