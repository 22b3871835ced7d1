"""Functions served by compute modules (docs/functions.md), from the platform's Python SDK (foundry-platform-sdk
1.111.0): a module written with foundry-compute-modules 0.34.0 (modules/functions_app.py), started through
`run-module`, is called through `ontologies.Query.execute`, `functions.Query.execute` and `functions.Query.get`."""

from __future__ import annotations

import json

import pytest
from foundry_sdk import Config, FoundryClient, UserTokenAuth
from foundry_sdk._errors.palantir_rpc_exception import PalantirRPCException

from conftest import FUNCTIONS_APP, MULTIPLEXER, PYTHON, wait_until

APP = "ri.foundry.main.deployed-app.py-functions"
RUNTIME = "rt-py-functions"
ADD = "com.pyfns.computemodules.add"


@pytest.fixture(scope="module")
def client(emulator, start_module) -> FoundryClient:
    start_module(RUNTIME, APP, command=[PYTHON, FUNCTIONS_APP])
    token = emulator.token(scopes=["api:ontologies-read", "api:functions-execute"])

    def registered():
        status, raw = emulator.request("GET", f"{MULTIPLEXER}/schemas?rid={APP}", token=token)
        return status == 200 and len(json.loads(raw)) >= 4

    wait_until(registered, timeout=90, what="the module's function schemas")
    return FoundryClient(auth=UserTokenAuth(token=token), hostname=f"localhost:{emulator.port}", config=Config(scheme="http"))


def test_ontologies_query_execute_runs_the_module(client):
    assert client.ontologies.Query.execute("sales", ADD, parameters={"a": 20, "b": 22}).value == 42
    summary = client.ontologies.Query.execute(
        "sales",
        "com.pyfns.computemodules.summarize",
        parameters={"title": "q4", "day": "2023-12-31", "amounts": [1.0], "labels": ["x"], "weights": [{"key": "w", "value": 2}]},
    )
    assert summary.value == {"title": "Q4", "day_after": "2024-01-01", "total": 3.0, "distinct": ["x"]}


def test_functions_query_get_and_execute(client):
    query = client.functions.Query.get(ADD)
    assert query.api_name == ADD
    assert query.version == "0.0.0"
    assert set(query.parameters) == {"a", "b"}
    assert client.functions.Query.execute(ADD, parameters={"a": 1, "b": 2}).value == 3


def test_a_raising_function_is_a_query_runtime_error(client):
    with pytest.raises(PalantirRPCException) as raised:
        client.ontologies.Query.execute("sales", "com.pyfns.computemodules.fail", parameters={"message": "out of stock"})
    assert raised.value.name == "QueryRuntimeError"
    assert raised.value.parameters["message"] == "out of stock"


def test_a_wrong_parameter_type_is_refused(client):
    with pytest.raises(PalantirRPCException) as raised:
        client.functions.Query.execute(ADD, parameters={"a": "one", "b": 2})
    assert raised.value.name == "InvalidParameterValue"
    assert raised.value.parameters["parameterId"] == "a"
