"""TFRecordDataset against MindSpore 2.10's results on the same files
(fixtures/record_tfrecord.py)."""
import json
import os

import pytest

import graphkiln as ms
import graphkiln.dataset as ds

from .fixtures.tfrecord_cases import (
    build_and_describe,
    cases,
    example_proto,
    sorted_rows,
    write_files,
)

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tfrecord_reference.json")) as _f:
    REFERENCE = json.load(_f)


@pytest.fixture(scope="module")
def paths(tmp_path_factory):
    return write_files(str(tmp_path_factory.mktemp("tfrecord")))


@pytest.mark.parametrize("name", sorted(k for k in REFERENCE if k != "shuffled_content"))
def test_tfrecord_matches_mindspore(name, paths):
    got, want = build_and_describe(cases(ds, ms, paths)[name]), dict(REFERENCE[name])
    if name == "shuffled_size":  # the shuffle streams differ (docs/dataset.md)
        got.pop("digest"), want.pop("digest")
    assert got == want


def test_shuffle_keeps_every_row_and_reorders(paths):
    built = cases(ds, ms, paths)["shuffled_size"]
    assert sorted_rows(built()) == REFERENCE["shuffled_content"]
    ds.config.set_seed(3)
    orders = [next(iter(built().create_tuple_iterator(output_numpy=True)))[0].ravel().tolist()
              for _ in range(2)]
    assert orders[0] == orders[1] and orders[0] != sorted(orders[0])


def test_error_messages_name_the_problem(paths):
    with pytest.raises(RuntimeError, match="Column shape of ints defined in schema"):
        describe_rows(cases(ds, ms, paths)["bad_shape"]())
    with pytest.raises(RuntimeError, match="Feature name: nope is required in schema"):
        describe_rows(cases(ds, ms, paths)["missing_feature"]())
    with pytest.raises(RuntimeError, match="not a valid TFRecord"):
        describe_rows(cases(ds, ms, paths)["bad_file"]())
    with pytest.raises(ValueError, match="compression_type"):
        ds.TFRecordDataset(paths["plain0"], compression_type="LZ4")


def describe_rows(dataset):
    return list(dataset.create_tuple_iterator(output_numpy=True))


def test_checksums_are_tensorflows():
    # CRC-32C check value of "123456789" (RFC 3720) is 0xE3069283; TFRecord masks it.
    crc = 0xE3069283
    assert example_proto.masked_crc32c(b"123456789") == (
        ((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def test_schema_json_round_trip(paths):
    schema = ds.Schema(paths["schema"])
    assert schema.num_rows == 3 and [c["name"] for c in schema.columns] == ["ints", "vec"]
    again = ds.Schema()
    again.from_json(json.loads(schema.to_json()))
    assert again.to_json() == schema.to_json()
    with pytest.raises(TypeError, match="Unknown column type"):
        schema.add_column("x", de_type="complex7")
