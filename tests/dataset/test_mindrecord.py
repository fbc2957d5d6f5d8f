"""MindRecord: files written by MindSpore 2.10 (fixtures/ms_written.*) read here, and files
written here laid out as MindSpore lays them out."""
import os
import sqlite3

import numpy as np
import pytest

import graphkiln.dataset as ds
from graphkiln.mindrecord import FileWriter
from graphkiln.mindrecord.shard_format import ShardReader, compress_ints, decompress_ints

from .fixtures.mindrecord_rows import SCHEMA, rows

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "ms_written.mindrecord0")


def _check_rows(got: list[dict], want: list[dict]) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g["file_name"] == w["file_name"] and g["file_name"].dtype.kind == "U"
        assert g["label"] == w["label"] and g["label"].dtype == np.int32
        assert g["data"].dtype.kind == "S" and g["data"].tobytes() == w["data"]
        np.testing.assert_array_equal(g["arr"], w["arr"])
        assert g["arr"].dtype == np.float32
        np.testing.assert_array_equal(g["mat"], w["mat"])
        assert g["mat"].dtype == np.int64 and g["mat"].shape == (2, 2)
        assert g["score"] == w["score"] and g["score"].dtype == np.float64


def test_reads_mindspore_written_shards():
    data = ds.MindDataset(FIXTURE, shuffle=False)
    assert data.get_col_names() == sorted(SCHEMA)
    assert data.get_dataset_size() == len(rows())
    _check_rows(list(data.create_dict_iterator(output_numpy=True, num_epochs=1)), rows())


def test_one_listed_shard_reads_only_that_shard():
    data = ds.MindDataset([FIXTURE], shuffle=False, columns_list=["label"])
    labels = [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]
    assert labels == list(range(12))  # 24 rows over 2 shards: the first half


def test_written_files_round_trip_and_match_mindspore_layout(tmp_path):
    path = str(tmp_path / "gk.mindrecord")
    writer = FileWriter(path, shard_num=2)
    writer.set_header_size(1 << 14)
    writer.set_page_size(1 << 15)
    writer.add_schema(SCHEMA, "fixture")
    writer.add_index(["label"])
    writer.write_raw_data(rows())
    writer.commit()
    data = ds.MindDataset(path + "0", shuffle=False)
    _check_rows(list(data.create_dict_iterator(output_numpy=True, num_epochs=1)), rows())
    mine, theirs = ShardReader(path + "1").header, ShardReader(FIXTURE[:-1] + "1").header
    for key in ("header_size", "page_size", "index_fields", "schema", "shard_id", "version"):
        assert mine[key] == theirs[key], key
    assert mine["shard_addresses"] == ["gk.mindrecord0", "gk.mindrecord1"]
    assert oct(os.stat(path + "0").st_mode & 0o777) == "0o600"
    with sqlite3.connect(path + "0.db") as con, sqlite3.connect(FIXTURE + ".db") as ref:
        sql = "select sql from sqlite_master where name='INDEXES'"
        assert con.execute(sql).fetchone() == ref.execute(sql).fetchone()
        q = "select ROW_ID, ROW_GROUP_ID, label_0 from INDEXES order by ROW_ID"
        assert con.execute(q).fetchall() == ref.execute(q).fetchall()
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


def test_integer_compression_round_trips_every_width():
    values = np.array([0, -1, 127, -128, 300, -40000, 2**31 - 1, 2**40, -2**63], np.int64)
    packed = compress_ints(values)
    assert packed[:4] == (9).to_bytes(4, "big")
    np.testing.assert_array_equal(decompress_ints(packed, np.int64), values)


def test_writer_refuses_existing_files_and_bad_schemas(tmp_path):
    path = str(tmp_path / "a.mindrecord")
    w = FileWriter(path)
    w.add_schema({"x": {"type": "int32"}})
    w.write_raw_data([{"x": 1}])
    w.commit()
    with pytest.raises(RuntimeError, match="already exist"):
        FileWriter(path)
    FileWriter(path, overwrite=True)
    with pytest.raises(ValueError, match="type"):
        FileWriter(str(tmp_path / "b.mindrecord")).add_schema({"x": {"type": "int8"}})
    with pytest.raises(ValueError, match="lacks"):
        w2 = FileWriter(str(tmp_path / "c.mindrecord"))
        w2.add_schema({"x": {"type": "int32"}})
        w2.write_raw_data([{"y": 1}])


def test_open_for_append(tmp_path):
    path = str(tmp_path / "a.mindrecord")
    w = FileWriter(path)
    w.add_schema({"x": {"type": "int64"}})
    w.write_raw_data([{"x": i} for i in range(3)])
    w.commit()
    w = FileWriter.open_for_append(path)
    w.write_raw_data([{"x": 10}])
    w.commit()
    got = [int(r[0]) for r in ds.MindDataset(path, shuffle=False).create_tuple_iterator(
        output_numpy=True)]
    assert got == [0, 1, 2, 10]


def test_bad_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.mindrecord"
    bad.write_bytes(b"\x05\x00\x00\x00\x00\x00\x00\x00nope!")
    with pytest.raises(RuntimeError, match="not a MindRecord file"):
        ds.MindDataset(str(bad))
    with pytest.raises(RuntimeError, match="does not exist"):
        ds.MindDataset(str(tmp_path / "missing.mindrecord"))


def test_images_stored_as_bytes_decode(tmp_path):
    from .fixtures.make_files import encoded, image
    img = image(10, 12)
    path = str(tmp_path / "img.mindrecord")
    w = FileWriter(path)
    w.add_schema({"image": {"type": "bytes"}, "label": {"type": "int32"}})
    w.write_raw_data([{"image": encoded(img, "PNG"), "label": 3}])
    w.commit()
    data = ds.MindDataset(path).map(ds.vision.Decode(), ["image"])
    got, label = next(iter(data.create_tuple_iterator(output_numpy=True)))
    np.testing.assert_array_equal(got, img)
    assert int(label) == 3
