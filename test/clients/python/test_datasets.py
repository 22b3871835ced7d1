"""Datasets with the platform's Python SDK (foundry-platform-sdk 1.111.0), unmodified, with pyarrow and pandas
(pinned in requirements.txt), against a live emulator (docs/datasets.md).

What the installed package does (read from foundry_sdk/v2/datasets and foundry_sdk/_core):
- file paths go into the URL through `quote(path, safe="")`, so `/` arrives as %2F;
- uploads send the raw bytes as application/octet-stream; `transactionRid`, or `branchName` + `transactionType`;
- `read_table` asks for application/octet-stream and wraps the bytes in ArrowTableResponse, whose to_pandas()
  runs `pyarrow.ipc.open_stream(bytes).read_all().to_pandas()`; `columns` goes out as a repeated parameter;
- errors: the envelope's errorName picks the typed class (OpenTransactionAlreadyExists, ...), whose bases follow
  the errorCode (ConflictError, NotFoundError, BadRequestError)."""

from __future__ import annotations

import uuid

import pandas as pd
import pytest
from foundry_sdk import Config, FoundryClient, UserTokenAuth
from foundry_sdk.v2.core.errors import InvalidFilePath, InvalidPageSize, InvalidParameterCombination
from foundry_sdk.v2.filesystem.errors import ResourceNameAlreadyExists
from foundry_sdk.v2.datasets.errors import (
    BranchNotFound,
    DatasetViewNotFound,
    DatasetNotFound,
    FileNotFound,
    FileNotFoundOnBranch,
    OpenTransactionAlreadyExists,
    ReadTableError,
    SchemaNotFound,
    TransactionNotOpen,
)

SCOPES = ["api:datasets-read", "api:datasets-write"]
FOLDER = "ri.compass.main.folder.data"
SCHEMA = {
    "fieldSchemaList": [
        {"name": "sensor", "type": "STRING", "nullable": True},
        {"name": "value", "type": "DOUBLE", "nullable": True},
        {"name": "count", "type": "LONG", "nullable": True},
        {"name": "ok", "type": "BOOLEAN", "nullable": True},
        {"name": "at", "type": "TIMESTAMP", "nullable": True},
    ]
}
HEADER = b"sensor,value,count,ok,at\n"


@pytest.fixture
def client(emulator) -> FoundryClient:
    return FoundryClient(auth=UserTokenAuth(token=emulator.token("alice", SCOPES)), hostname=f"localhost:{emulator.port}", config=Config(scheme="http"))


def new_dataset(client: FoundryClient):
    return client.datasets.Dataset.create(name=f"readings-{uuid.uuid4().hex[:8]}", parent_folder_rid=FOLDER)


def test_a_script_writes_a_snapshot_and_reads_it_into_pandas(client):
    ds = new_dataset(client)
    assert ds.parent_folder_rid == FOLDER
    tx = client.datasets.Dataset.Transaction.create(ds.rid, transaction_type="SNAPSHOT", branch_name="master")
    assert tx.status == "OPEN" and tx.transaction_type == "SNAPSHOT"
    body = HEADER + b"a,1.5,10,true,2026-01-01T00:00:00Z\nb,,20,false,2026-01-02T12:30:00Z\n"
    uploaded = client.datasets.Dataset.File.upload(ds.rid, "data/part-0.csv", body, transaction_rid=tx.rid)
    assert uploaded.path == "data/part-0.csv" and uploaded.size_bytes == len(body)
    committed = client.datasets.Dataset.Transaction.commit(ds.rid, tx.rid)
    assert committed.status == "COMMITTED" and committed.closed_time is not None
    client.datasets.Dataset.put_schema(ds.rid, schema=SCHEMA)

    files = list(client.datasets.Dataset.File.list(ds.rid))
    assert [f.path for f in files] == ["data/part-0.csv"]
    assert client.datasets.Dataset.File.content(ds.rid, "data/part-0.csv").startswith(HEADER)

    frame = client.datasets.Dataset.read_table(ds.rid, format="ARROW").to_pandas()
    assert list(frame.columns) == ["sensor", "value", "count", "ok", "at"]
    assert str(frame["value"].dtype) == "float64"
    assert str(frame["count"].dtype) == "int64"
    assert str(frame["ok"].dtype) == "bool"
    assert str(frame["at"].dtype) == "datetime64[us, UTC]"
    assert frame["sensor"].tolist() == ["a", "b"]
    assert frame["value"].iloc[0] == 1.5 and pd.isna(frame["value"].iloc[1])
    assert frame["at"].iloc[1] == pd.Timestamp("2026-01-02T12:30:00Z")

    some = client.datasets.Dataset.read_table(ds.rid, format="ARROW", columns=["count", "sensor"], row_limit=1).to_pandas()
    assert list(some.columns) == ["count", "sensor"] and some["count"].tolist() == [10]

    csv = client.datasets.Dataset.read_table(ds.rid, format="CSV")
    assert bytes(csv).decode().splitlines()[0] == "sensor,value,count,ok,at"


def test_every_transaction_type_branches_and_a_read_in_the_past(client):
    ds = new_dataset(client)
    first = client.datasets.Dataset.File.upload(ds.rid, "a.csv", HEADER + b"a,1,1,true,2026-01-01T00:00:00Z\n", branch_name="master", transaction_type="SNAPSHOT")
    client.datasets.Dataset.put_schema(ds.rid, schema=SCHEMA)
    client.datasets.Dataset.File.upload(ds.rid, "b.csv", HEADER + b"b,2,2,true,2026-01-01T00:00:00Z\n", transaction_type="APPEND")
    client.datasets.Dataset.File.upload(ds.rid, "a.csv", HEADER + b"a2,3,3,true,2026-01-01T00:00:00Z\n", transaction_type="UPDATE")
    delete = client.datasets.Dataset.Transaction.create(ds.rid, transaction_type="DELETE")
    client.datasets.Dataset.File.delete(ds.rid, "b.csv", transaction_rid=delete.rid)
    client.datasets.Dataset.Transaction.commit(ds.rid, delete.rid)

    now = client.datasets.Dataset.read_table(ds.rid, format="ARROW", columns=["sensor"]).to_pandas()
    assert now["sensor"].tolist() == ["a2"]
    past = client.datasets.Dataset.read_table(ds.rid, format="ARROW", columns=["sensor"], end_transaction_rid=first.transaction_rid).to_pandas()
    assert past["sensor"].tolist() == ["a"]

    branch = client.datasets.Dataset.Branch.create(ds.rid, name="old", transaction_rid=first.transaction_rid)
    assert branch.transaction_rid == first.transaction_rid
    assert [b.name for b in client.datasets.Dataset.Branch.list(ds.rid)] == ["master", "old"]
    history = [t.transaction_type for t in client.datasets.Dataset.Branch.transactions(ds.rid, "master")]
    assert history == ["DELETE", "UPDATE", "APPEND", "SNAPSHOT"]
    aborted = client.datasets.Dataset.Transaction.create(ds.rid, transaction_type="SNAPSHOT", branch_name="old")
    client.datasets.Dataset.File.upload(ds.rid, "gone.csv", b"x", transaction_rid=aborted.rid)
    assert client.datasets.Dataset.Transaction.abort(ds.rid, aborted.rid).status == "ABORTED"
    assert [f.path for f in client.datasets.Dataset.File.list(ds.rid, branch_name="old")] == ["a.csv"]
    client.datasets.Dataset.Branch.delete(ds.rid, "old")


def test_the_error_classes_the_sdk_raises(client):
    ds = new_dataset(client)
    # No committed transaction yet: no view to attach a schema to.
    with pytest.raises(DatasetViewNotFound) as no_view:
        client.datasets.Dataset.put_schema(ds.rid, schema=SCHEMA)
    assert no_view.value.parameters == {"datasetRid": ds.rid, "branch": "master"}
    with pytest.raises(ResourceNameAlreadyExists):
        client.datasets.Dataset.create(name=ds.name, parent_folder_rid=FOLDER)
    tx = client.datasets.Dataset.Transaction.create(ds.rid, transaction_type="SNAPSHOT")
    with pytest.raises(OpenTransactionAlreadyExists):
        client.datasets.Dataset.Transaction.create(ds.rid, transaction_type="APPEND")
    client.datasets.Dataset.Transaction.commit(ds.rid, tx.rid)
    with pytest.raises(TransactionNotOpen) as closed:
        client.datasets.Dataset.File.upload(ds.rid, "late.csv", b"x", transaction_rid=tx.rid)
    assert closed.value.parameters["transactionStatus"] == "COMMITTED"
    with pytest.raises(DatasetNotFound):
        client.datasets.Dataset.get("ri.foundry.main.dataset.nope")
    with pytest.raises(BranchNotFound):
        client.datasets.Dataset.Branch.get(ds.rid, "nope")
    with pytest.raises(FileNotFound):
        client.datasets.Dataset.File.get(ds.rid, "nope.csv")
    with pytest.raises(SchemaNotFound):
        client.datasets.Dataset.read_table(ds.rid, format="ARROW")
    client.datasets.Dataset.File.upload(ds.rid, "bad.csv", HEADER + b"a,notanumber,1,true,2026-01-01T00:00:00Z\n")
    client.datasets.Dataset.put_schema(ds.rid, schema=SCHEMA)
    with pytest.raises(ReadTableError) as bad:
        client.datasets.Dataset.read_table(ds.rid, format="CSV")
    assert bad.value.parameters["message"] == 'bad.csv line 2, column "value": "notanumber" is not a number'


def test_files_listed_under_a_prefix_and_schemas_kept_per_branch(client):
    """pathPrefix (sent by File.list) narrows the list; a schema put on a branch does not change its parent's."""
    D = client.datasets.Dataset
    ds = new_dataset(client)
    tx = D.Transaction.create(ds.rid, transaction_type="SNAPSHOT")
    for path in ["logs/a.txt", "data/part-0.csv", "data/part-1.csv"]:
        D.File.upload(ds.rid, path, b"a\n1\n", transaction_rid=tx.rid)
    D.Transaction.commit(ds.rid, tx.rid)
    assert [f.path for f in D.File.list(ds.rid, path_prefix="data/")] == ["data/part-0.csv", "data/part-1.csv"]
    assert [f.path for f in D.File.list(ds.rid, path_prefix="logs/a.txt")] == ["logs/a.txt"]

    long_a = {"fieldSchemaList": [{"name": "a", "type": "LONG", "nullable": True}]}
    D.put_schema(ds.rid, schema=long_a)
    D.Branch.create(ds.rid, name="dev")
    assert [f.name for f in D.get_schema(ds.rid, branch_name="dev").schema_.field_schema_list] == ["a"]
    D.put_schema(ds.rid, branch_name="dev", schema={"fieldSchemaList": [{"name": "zz", "type": "STRING", "nullable": True}]})
    assert [f.name for f in D.get_schema(ds.rid).schema_.field_schema_list] == ["a"]
    assert [f.name for f in D.get_schema(ds.rid, branch_name="dev").schema_.field_schema_list] == ["zz"]


def test_branch_transactions_and_a_deleted_branch(client):
    """Branch.transaction_rid is the newest OPEN or COMMITTED transaction; deleting a branch aborts its open one."""
    D = client.datasets.Dataset
    ds = new_dataset(client)
    first = D.File.upload(ds.rid, "old.txt", b"1", transaction_type="SNAPSHOT").transaction_rid
    opened = D.Transaction.create(ds.rid, transaction_type="UPDATE")
    assert D.Branch.get(ds.rid, "master").transaction_rid == opened.rid
    D.Transaction.abort(ds.rid, opened.rid)
    assert D.Branch.get(ds.rid, "master").transaction_rid == first

    D.Branch.create(ds.rid, name="b", transaction_rid=first)
    orphan = D.Transaction.create(ds.rid, transaction_type="UPDATE", branch_name="b")
    D.File.upload(ds.rid, "stale.txt", b"2", transaction_rid=orphan.rid)
    D.Branch.delete(ds.rid, "b")
    assert D.Transaction.get(ds.rid, orphan.rid).status == "ABORTED"
    D.Branch.create(ds.rid, name="b", transaction_rid=first)
    with pytest.raises(TransactionNotOpen):
        D.Transaction.commit(ds.rid, orphan.rid)
    D.Transaction.create(ds.rid, transaction_type="UPDATE", branch_name="b")
    assert [f.path for f in D.File.list(ds.rid, branch_name="b")] == ["old.txt"]


def test_the_typed_errors_of_paths_pages_and_missing_files(client):
    """Each refusal arrives as the class the SDK lists for that call, with the parameters it parses."""
    D = client.datasets.Dataset
    ds = new_dataset(client)
    D.File.upload(ds.rid, "a.txt", b"a")
    with pytest.raises(InvalidFilePath) as bad_path:
        D.File.upload(ds.rid, "/abs", b"x")
    assert bad_path.value.parameters["filePath"] == "/abs"
    with pytest.raises(InvalidPageSize) as bad_size:
        list(D.File.list(ds.rid, page_size=0))
    assert bad_size.value.parameters["pageSize"] == 0
    with pytest.raises(FileNotFoundOnBranch) as no_content:
        D.File.content(ds.rid, "missing.txt")
    assert no_content.value.parameters == {"datasetRid": ds.rid, "branchName": "master", "path": "missing.txt"}
    with pytest.raises(FileNotFoundOnBranch):
        D.File.delete(ds.rid, "missing.txt")
    D.Branch.create(ds.rid, name="other")
    deleting = D.Transaction.create(ds.rid, transaction_type="DELETE")
    with pytest.raises(InvalidParameterCombination):
        D.File.delete(ds.rid, "a.txt", transaction_rid=deleting.rid, branch_name="other")


def test_parquet_decimals_keep_their_scale(client):
    import decimal

    import pyarrow as pa
    import pyarrow.parquet as pq

    D = client.datasets.Dataset
    ds = new_dataset(client)
    amounts = [decimal.Decimal("0.50"), decimal.Decimal("1.23"), decimal.Decimal("-7.00"), None]
    sink = pa.BufferOutputStream()
    pq.write_table(pa.table({"amount": pa.array(amounts, pa.decimal128(10, 2))}), sink)
    D.File.upload(ds.rid, "part-0.parquet", sink.getvalue().to_pybytes(), transaction_type="SNAPSHOT")
    D.put_schema(ds.rid, schema={"fieldSchemaList": [{"name": "amount", "type": "DECIMAL", "nullable": True, "precision": 10, "scale": 2}]})
    frame = D.read_table(ds.rid, format="ARROW").to_pandas()
    assert frame["amount"].tolist()[:3] == ["0.50", "1.23", "-7.00"]
    assert bytes(D.read_table(ds.rid, format="CSV")).decode() == "amount\n0.50\n1.23\n-7.00\n\n"


def test_parquet_list_items_keep_their_type(client):
    import datetime

    import pyarrow as pa
    import pyarrow.parquet as pq

    D = client.datasets.Dataset
    ds = new_dataset(client)
    table = pa.table(
        {
            "days": pa.array([[datetime.date(2026, 1, 2), None]], pa.list_(pa.date32())),
            "at": pa.array([[datetime.datetime(2026, 1, 1, 10, tzinfo=datetime.timezone.utc)]], pa.list_(pa.timestamp("us", tz="UTC"))),
            "ids": pa.array([[9007199254740993]], pa.list_(pa.int64())),
        }
    )
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    D.File.upload(ds.rid, "part-0.parquet", sink.getvalue().to_pybytes(), transaction_type="SNAPSHOT")
    array_of = lambda item: {"type": "ARRAY", "nullable": True, "arraySubtype": {"type": item, "nullable": True}}
    D.put_schema(ds.rid, schema={"fieldSchemaList": [{"name": "days", **array_of("DATE")}, {"name": "at", **array_of("TIMESTAMP")}, {"name": "ids", **array_of("LONG")}]})
    row = D.read_table(ds.rid, format="ARROW").to_pandas().iloc[0]
    assert list(row["days"]) == [datetime.date(2026, 1, 2), None]
    assert [pd.Timestamp(v).value for v in row["at"]] == [pd.Timestamp("2026-01-01T10:00:00Z").value]
    assert list(row["ids"]) == [9007199254740993]
    csv = bytes(D.read_table(ds.rid, format="CSV")).decode()
    assert csv == 'days,at,ids\n"[""2026-01-02"",null]","[""2026-01-01T10:00:00.000Z""]",[9007199254740993]\n'


def parquet_of(table) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()


def test_parquet_values_as_pyarrow_writes_them_keep_their_meaning(client):
    """decimal256, nanosecond and far timestamps, large_list, and columns read under STRING (docs/datasets.md, "Parquet")."""
    import datetime
    import decimal

    import pyarrow as pa

    D = client.datasets.Dataset
    ds = new_dataset(client)
    utc = datetime.timezone.utc
    table = pa.table(
        {
            "big": pa.array([decimal.Decimal("1.25"), decimal.Decimal("-123456789012345678901234567890.12"), None], pa.decimal256(40, 2)),
            # pandas' default unit: cut to the microsecond, toward the past.
            "ns": pa.array([1_767_225_600_123_456_789, -1_001, 9_214_646_399_999_999_999], pa.timestamp("ns", tz="UTC")),
            "far": pa.array([datetime.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=utc), datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=utc), None], pa.timestamp("us", tz="UTC")),
            "tags": pa.array([[1.5, 2.0], [], None], pa.large_list(pa.float64())),
            "raw": pa.array([b"plain text", "caf\u00e9".encode(), None], pa.binary()),
            "day": pa.array([datetime.date(2026, 1, 2), datetime.date(1969, 12, 31), None], pa.date32()),
        }
    )
    D.File.upload(ds.rid, "part-0.parquet", parquet_of(table), transaction_type="SNAPSHOT")
    field = lambda name, kind, **more: {"name": name, "type": kind, "nullable": True, **more}
    D.put_schema(
        ds.rid,
        schema={
            "fieldSchemaList": [
                field("big", "DECIMAL", precision=38, scale=2),
                field("ns", "TIMESTAMP"),
                field("far", "TIMESTAMP"),
                field("tags", "ARRAY", arraySubtype={"type": "DOUBLE", "nullable": True}),
                field("raw", "STRING"),
                field("day", "STRING"),
            ]
        },
    )
    arrow = D.read_table(ds.rid, format="ARROW").to_pandas()
    assert arrow["big"].tolist() == ["1.25", "-123456789012345678901234567890.12", None]
    assert [pd.Timestamp(v).value for v in arrow["ns"]] == [1_767_225_600_123_456_000, -2_000, 9_214_646_399_999_999_000]
    assert [None if pd.isna(v) else pd.Timestamp(v).isoformat() for v in arrow["far"]] == ["9999-12-31T23:59:59.999999+00:00", "1969-12-31T23:59:59.999999+00:00", None]
    assert [None if v is None else list(v) for v in arrow["tags"]] == [[1.5, 2.0], [], None]
    assert arrow["raw"].tolist() == ["plain text", "caf\u00e9", None]
    assert arrow["day"].tolist() == ["2026-01-02", "1969-12-31", None]
    csv = bytes(D.read_table(ds.rid, format="CSV")).decode()
    assert csv.splitlines() == [
        "big,ns,far,tags,raw,day",
        "1.25,2026-01-01T00:00:00.123Z,9999-12-31T23:59:59.999Z,\"[1.5,2]\",plain text,2026-01-02",
        "-123456789012345678901234567890.12,1969-12-31T23:59:59.999Z,1969-12-31T23:59:59.999Z,[],caf\u00e9,1969-12-31",
        ",2261-12-31T23:59:59.999Z,,,,",
    ]


def test_parquet_values_that_do_not_fit_their_column_are_refused_not_changed(client):
    import datetime

    import pyarrow as pa

    D = client.datasets.Dataset
    field = lambda name, kind: {"name": name, "type": kind, "nullable": True}
    cases = [
        ("count", pa.array([3.0, 1.5], pa.float64()), "LONG", 'row 2, column "count": "1.5" is not a long integer'),
        ("count", pa.array(["7", "x1"], pa.string()), "LONG", 'row 2, column "count": "x1" is not a long integer'),
        ("ratio", pa.array([1.0, 1e300], pa.float64()), "FLOAT", 'row 2, column "ratio": "1e+300" is not a 32-bit float (out of range)'),
        ("when", pa.array([datetime.time(1, 2, 3)], pa.time64("us")), "STRING", 'column "when" is Time'),
    ]
    for name, values, kind, message in cases:
        ds = new_dataset(client)
        D.File.upload(ds.rid, "part-0.parquet", parquet_of(pa.table({name: values})), transaction_type="SNAPSHOT")
        D.put_schema(ds.rid, schema={"fieldSchemaList": [field(name, kind)]})
        for fmt in ("ARROW", "CSV"):
            with pytest.raises(ReadTableError) as refused:
                D.read_table(ds.rid, format=fmt)
            assert message in refused.value.parameters["message"], (kind, fmt, refused.value.parameters)


def test_csv_numbers_as_pandas_writes_them(client):
    D = client.datasets.Dataset
    ds = new_dataset(client)
    frame = pd.DataFrame({"value": [1.5, float("inf"), float("-inf"), float("nan")], "ratio": [0.1, 2.5, -1.0, None]})
    D.File.upload(ds.rid, "part-0.csv", frame.to_csv(index=False).encode(), transaction_type="SNAPSHOT")
    D.put_schema(ds.rid, schema={"fieldSchemaList": [{"name": "value", "type": "DOUBLE", "nullable": True}, {"name": "ratio", "type": "FLOAT", "nullable": True}]})
    back = D.read_table(ds.rid, format="ARROW").to_pandas()
    assert back["value"].tolist()[:3] == [1.5, float("inf"), float("-inf")] and pd.isna(back["value"].iloc[3])
    assert bytes(D.read_table(ds.rid, format="CSV", columns=["ratio"])).decode() == "ratio\n0.1\n2.5\n-1\n\n"
    D.File.upload(ds.rid, "part-1.csv", b"value,ratio\n0x10,1\n", transaction_type="SNAPSHOT")
    with pytest.raises(ReadTableError) as refused:
        D.read_table(ds.rid, format="ARROW")
    assert refused.value.parameters["message"] == 'part-1.csv line 2, column "value": "0x10" is not a number'
