"""The Python platform SDK's `client.ontologies` namespace (foundry-platform-sdk, pinned) against every route of
the typed ontology (docs in README: ontology objects, links, object sets, queries and actions), on the seed the
TypeScript ontology tests use. Each call goes through the SDK's own response models, so a field the models
require and the service leaves out fails here as it fails for a user (issue 25)."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import pytest
from foundry_sdk import Config, FoundryClient, UserTokenAuth
from foundry_sdk.v2.ontologies import models as m

from conftest import HERE, ROOT, Emulator, Lines, cli_command, stop

ONTOLOGY = "acme"


@pytest.fixture(scope="module")
def acme():
    folder = tempfile.mkdtemp(prefix="pe-python-acme-")
    config = Path(folder) / "platform-emulator.yaml"
    config.write_text((HERE / "acme-ontology.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    command = cli_command() + ["--config", str(config), "--port", "0"]
    env = {**os.environ, "PORT": "", "PLATFORM_EMULATOR_CONFIG": ""}
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = Lines(process.stdout)
    try:
        url = output.wait_for(r"platform-emulator listening on (http://\S+)", timeout=90).group(1)
        yield Emulator(url, process, output)
    finally:
        stop(process)


@pytest.fixture(scope="module")
def ontologies(acme):
    token = acme.token("dev", ["api:ontologies-read", "api:ontologies-write"])
    return FoundryClient(auth=UserTokenAuth(token=token), hostname=f"localhost:{acme.port}", config=Config(scheme="http")).ontologies


def test_ontology_get_list_full_metadata_and_load_metadata(ontologies):
    assert ontologies.Ontology.get(ONTOLOGY).api_name == ONTOLOGY
    assert [o.api_name for o in ontologies.Ontology.list().data] == [ONTOLOGY]
    full = ontologies.Ontology.get_full_metadata(ONTOLOGY)
    assert isinstance(full, m.OntologyFullMetadata)
    assert set(full.object_types) == {"Employee", "Office"}
    assert set(full.action_types) == set(full.action_types_full_metadata) >= {"promoteEmployee", "hireEmployee"}
    greet = next(q for key, q in full.query_types.items() if q.api_name == "greet")
    assert greet.parameters["name"].required is True and greet.parameters["times"].required is False
    assert greet.type_references == {}
    loaded = ontologies.Ontology.load_metadata(ONTOLOGY, action_types=["promoteEmployee"], interface_types=[], link_types=[], object_types=["Office"], query_types=[])
    assert "Office" in loaded.object_types  # every part of a small seeded ontology is loaded


def test_object_types_and_their_links(ontologies):
    assert [t.api_name for t in ontologies.Ontology.ObjectType.list(ONTOLOGY).data] == ["Employee", "Office"]
    employee = ontologies.Ontology.ObjectType.get(ONTOLOGY, "Employee")
    assert employee.primary_key == "employeeId"
    full = ontologies.Ontology.ObjectType.get_full_metadata(ONTOLOGY, "Employee")
    assert full.object_type.api_name == "Employee"
    links = ontologies.Ontology.ObjectType.list_outgoing_link_types(ONTOLOGY, "Employee").data
    assert {link.api_name for link in links} >= {"office", "mentors"}
    assert ontologies.Ontology.ObjectType.get_outgoing_link_type(ONTOLOGY, "Employee", "office").object_type_api_name == "Office"


def test_query_types_get_and_list(ontologies):
    listed = ontologies.Ontology.QueryType.list(ONTOLOGY).data
    assert {q.api_name for q in listed} == {"greet", "headcount", "untyped"}
    greet = ontologies.Ontology.QueryType.get(ONTOLOGY, "greet")
    assert (greet.version, greet.parameters["name"].required, greet.type_references) == ("1.2.0", True, {})
    headcount = ontologies.Ontology.QueryType.get(ONTOLOGY, "headcount")
    assert headcount.parameters["office"].required is True


def test_action_types_get_and_list(ontologies):
    assert {a.api_name for a in ontologies.Ontology.ActionType.list(ONTOLOGY).data} >= {"promoteEmployee", "fireEmployee"}
    promote = ontologies.Ontology.ActionType.get(ONTOLOGY, "promoteEmployee")
    assert set(promote.parameters) == {"employee", "newTitle"}


def test_objects_list_get_search_count_and_aggregate(ontologies):
    page = ontologies.OntologyObject.list(ONTOLOGY, "Office", order_by="properties.officeId:asc")
    assert [o["officeId"] for o in page.data] == ["ldn", "nyc", "sfo"]
    alice = ontologies.OntologyObject.get(ONTOLOGY, "Employee", "1")
    assert (alice["fullName"], alice["__primaryKey"]) == ("Alice Adams", 1)
    found = ontologies.OntologyObject.search(ONTOLOGY, "Employee", select=["fullName"], where={"type": "in", "field": "employeeId", "value": [2, 3]})
    assert sorted(o["fullName"] for o in found.data) == ["Bob Brown", "Carol Chen"]
    assert ontologies.OntologyObject.count(ONTOLOGY, "Employee").count == 5
    aggregated = ontologies.OntologyObject.aggregate(ONTOLOGY, "Employee", aggregation=[{"type": "count", "name": "n"}], group_by=[{"type": "exact", "field": "officeId"}])
    counts = {tuple(g.group.values()): g.metrics[0].value for g in aggregated.data}
    assert counts[("nyc",)] == 2


def test_linked_objects(ontologies):
    mentors = ontologies.LinkedObject.list_linked_objects(ONTOLOGY, "Employee", "3", "mentors")
    assert sorted(o["employeeId"] for o in mentors.data) == [1, 2]
    office = ontologies.LinkedObject.get_linked_object(ONTOLOGY, "Employee", "1", "office", "nyc")
    assert office["name"] == "New York"


def test_object_sets_load_load_multiple_types_and_aggregate(ontologies):
    engineers = {"type": "filter", "objectSet": {"type": "base", "objectType": "Employee"}, "where": {"type": "eq", "field": "title", "value": "Engineer"}}
    loaded = ontologies.OntologyObjectSet.load(ONTOLOGY, object_set=engineers, select=["fullName"])
    assert sorted(o["fullName"] for o in loaded.data) == ["Bob Brown", "Carol Chen"]
    offices = {"type": "searchAround", "objectSet": engineers, "link": "office"}
    both = ontologies.OntologyObjectSet.load_multiple_object_types(ONTOLOGY, object_set={"type": "union", "objectSets": [offices]}, select=[])
    assert sorted(o["officeId"] for o in both.data) == ["ldn", "nyc"]
    aggregated = ontologies.OntologyObjectSet.aggregate(ONTOLOGY, object_set=engineers, aggregation=[{"type": "max", "field": "salary", "name": "top"}], group_by=[])
    assert aggregated.data[0].metrics[0].value == 130000


def test_queries_execute(ontologies):
    assert ontologies.Query.execute(ONTOLOGY, "greet", parameters={"name": "Zoe"}).value == "hello Zoe"
    assert ontologies.Query.execute(ONTOLOGY, "headcount", parameters={"office": "nyc"}).value == 2


def test_actions_apply_and_apply_batch(ontologies):
    validated = ontologies.Action.apply(ONTOLOGY, "promoteEmployee", parameters={"employee": 4, "newTitle": "Lead"}, options={"mode": "VALIDATE_ONLY"})
    assert validated.validation.result == "VALID"
    ontologies.Action.apply(ONTOLOGY, "promoteEmployee", parameters={"employee": 4, "newTitle": "Lead"})
    assert ontologies.OntologyObject.get(ONTOLOGY, "Employee", "4")["title"] == "Lead"
    ontologies.Action.apply_batch(ONTOLOGY, "promoteEmployee", requests=[{"parameters": {"employee": 5, "newTitle": "Engineer"}}])
    assert ontologies.OntologyObject.get(ONTOLOGY, "Employee", "5")["title"] == "Engineer"
