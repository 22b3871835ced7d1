"""Streams with the platform's Python SDK (foundry-platform-sdk 1.111.0), unmodified, against a live emulator
(docs/streams.md).

What the installed package does (read from foundry_sdk/v2/streams and foundry_sdk/_core):
- create, get and reset go to the api gateway (`{hostname}/api/v2/streams/...`);
- publish_record(s), publish_binary_record, get_records and get_end_offsets are HIGH_SCALE endpoints: with a
  hostname they go to `{hostname}/api/v2/highScale/...`; with a service-discovery file
  (FOUNDRY_SERVICE_DISCOVERY_V2) to its `stream-proxy` or `stream_proxy` URL, which the platform (and run-module)
  sets to `{base}/stream-proxy/api`;
- get_records sends `limit`, `partitionId` and `startOffset` (a long, as text) as query parameters and parses a
  list of {offset, value}; get_end_offsets parses {partitionId: offset};
- errors: the envelope's errorName picks the typed class (RecordDoesNotMatchStreamSchema is a BadRequestError)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pydantic
import pytest
from foundry_sdk import Config, FoundryClient, UserTokenAuth
from conftest import PYTHON
from foundry_sdk import BadRequestError, NotFoundError
from foundry_sdk.v2.streams.errors import RecordDoesNotMatchStreamSchema, RecordDoesNotMatchStreamSchemaParameters

SCOPES = ["api:streams-read", "api:streams-write", "api:datasets-read"]
FOLDER = "ri.compass.main.folder.data"
SCHEMA = {
    "fields": [
        {"name": "id", "schema": {"nullable": False, "dataType": {"type": "string"}}},
        {"name": "temperature", "schema": {"nullable": True, "dataType": {"type": "double"}}},
    ]
}


@pytest.fixture
def client(emulator) -> FoundryClient:
    return FoundryClient(auth=UserTokenAuth(token=emulator.token("alice", SCOPES)), hostname=f"localhost:{emulator.port}", config=Config(scheme="http"))


@pytest.fixture
def discovered_client(emulator, tmp_path, monkeypatch) -> FoundryClient:
    """A client that finds its endpoints in a service-discovery file, as a module on the platform does."""
    base = f"http://localhost:{emulator.port}"
    discovery = tmp_path / "discovery.yml"
    # The api gateway names a port where nothing listens: only the high-scale calls, sent to stream_proxy, can work.
    discovery.write_text(f'api_gateway:\n  - "http://127.0.0.1:9/api"\nstream_proxy:\n  - "{base}/stream-proxy/api"\n')
    monkeypatch.setenv("FOUNDRY_SERVICE_DISCOVERY_V2", str(discovery))
    monkeypatch.setenv("FOUNDRY_HOSTNAME", f"localhost:{emulator.port}")
    return FoundryClient(auth=UserTokenAuth(token=emulator.token("alice", SCOPES)), config=Config(scheme="http"))


def new_stream(client: FoundryClient):
    return client.streams.Dataset.create(name=f"readings-{uuid.uuid4().hex[:8]}", parent_folder_rid=FOLDER, schema=SCHEMA)


def test_create_publish_read_offsets_reset(client):
    ds = new_stream(client)
    assert ds.rid.startswith("ri.foundry.main.dataset.")
    stream = client.streams.Dataset.Stream.get(ds.rid, "master")
    assert stream.branch_name == "master" and stream.partitions_count == 1 and stream.stream_type == "LOW_LATENCY"

    client.streams.Dataset.Stream.publish_record(ds.rid, "master", record={"id": "a", "temperature": 20.5})
    client.streams.Dataset.Stream.publish_records(ds.rid, "master", records=[{"id": "b", "temperature": 21.0}, {"id": "c"}])
    assert client.streams.Dataset.Stream.get_end_offsets(ds.rid, "master") == {"0": 3}

    records = client.streams.Dataset.Stream.get_records(ds.rid, "master", limit=10, partition_id="0")
    assert [(r.offset, r.value) for r in records] == [(0, {"id": "a", "temperature": 20.5}), (1, {"id": "b", "temperature": 21.0}), (2, {"id": "c"})]
    page = client.streams.Dataset.Stream.get_records(ds.rid, "master", limit=1, partition_id="0", start_offset=2)
    assert [r.offset for r in page] == [2]

    reset = client.streams.Dataset.Stream.reset(ds.rid, "master")
    assert reset.view_rid != stream.view_rid
    assert client.streams.Dataset.Stream.get_end_offsets(ds.rid, "master") == {"0": 0}
    assert client.streams.Dataset.Stream.get_records(ds.rid, "master", limit=10, partition_id="0") == []


def test_high_scale_calls_through_the_discovered_stream_proxy(client, discovered_client):
    ds = new_stream(client)
    discovered_client.streams.Dataset.Stream.publish_records(ds.rid, "master", records=[{"id": str(i)} for i in range(5)])
    assert discovered_client.streams.Dataset.Stream.get_end_offsets(ds.rid, "master") == {"0": 5}
    assert [r.value["id"] for r in discovered_client.streams.Dataset.Stream.get_records(ds.rid, "master", limit=3, partition_id="0", start_offset=2)] == ["2", "3", "4"]


def test_named_errors(client):
    """The SDK maps only each call's permission errors to typed classes; others arrive as the errorCode's base
    class (BadRequestError, NotFoundError) carrying errorName and parameters, which must fit the typed class's
    parameters (RecordDoesNotMatchStreamSchemaParameters) so that code catching by name works."""
    ds = new_stream(client)
    with pytest.raises(BadRequestError) as err:
        client.streams.Dataset.Stream.publish_record(ds.rid, "master", record={"id": "a", "temperature": "hot"})
    assert err.value.name == "RecordDoesNotMatchStreamSchema"
    assert err.value.parameters["fieldName"] == "temperature"
    typed = pydantic.TypeAdapter(RecordDoesNotMatchStreamSchemaParameters).validate_python(err.value.parameters)
    assert typed["datasetRid"] == ds.rid and typed["branchName"] == "master"
    assert issubclass(RecordDoesNotMatchStreamSchema, BadRequestError)
    with pytest.raises(BadRequestError) as batch:
        client.streams.Dataset.Stream.publish_records(ds.rid, "master", records=[{"id": "ok"}, {"id": 3}])
    assert batch.value.parameters["recordIndex"] == 1
    assert client.streams.Dataset.Stream.get_end_offsets(ds.rid, "master") == {"0": 0}
    with pytest.raises(NotFoundError) as missing:
        client.streams.Dataset.Stream.get(ds.rid, "nope")
    assert missing.value.name == "StreamNotFound" and missing.value.parameters["streamBranchName"] == "nope"
    with pytest.raises(BadRequestError) as past:
        client.streams.Dataset.Stream.get_records(ds.rid, "master", limit=10, partition_id="0", start_offset=5)
    assert past.value.parameters["parameter"] == "startOffset"


PIPELINE_MODULE = str(Path(__file__).resolve().parents[2] / "fixtures" / "pipeline-modules" / "py_pipeline.py")


def test_plain_http_pipeline_module_through_run_module(client, start_module):
    """The getting-started pipeline, in plain HTTP, run by run-module: every input record reaches the output
    exactly once, doubled, and the build token is refused (403) on a stream the app did not declare."""
    count = 40
    records = [{"id": f"p{i}", "x": i} for i in range(count)]
    client.streams.Dataset.Stream.publish_records("ri.foundry.main.dataset.py-in", "master", records=records[: count // 2])
    module = start_module(
        "rt-py-pipeline",
        "ri.foundry.main.deployed-app.py-pipeline",
        [PYTHON, PIPELINE_MODULE],
        env={"EXPECT_RECORDS": str(count), "UNDECLARED_RID": "ri.foundry.main.dataset.py-secret"},
    )
    module.output.wait_for(r"pipeline mode: resources input, output", timeout=60)
    client.streams.Dataset.Stream.publish_records("ri.foundry.main.dataset.py-in", "master", records=records[count // 2 :])
    assert module.process.wait(timeout=90) == 0, "\n".join(module.output.matching(r".*"))
    assert module.output.matching(r"pipeline moved 40 records; undeclared answered 403 ResourceNotDeclared")
    out = client.streams.Dataset.Stream.get_records("ri.foundry.main.dataset.py-out", "master", limit=100, partition_id="0")
    assert [r.offset for r in out] == list(range(count))
    assert sorted((r.value["id"], r.value["twice"]) for r in out) == sorted((r["id"], r["x"] * 2) for r in records)
