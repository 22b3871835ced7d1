"""The directory through the platform's Python SDK (foundry-platform-sdk 1.111.0), unmodified: admin.User.get
and list (paged by the SDK's iterator), admin.Group.get, filesystem.Resource.get_by_path, and the typed
exceptions of unknown ids (docs/directory.md). A server of its own, seeded with groups and a tree."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import pytest
from foundry_sdk import Config, FoundryClient, UserTokenAuth
from foundry_sdk.v2.admin.errors import GroupNotFound, UserNotFound
from foundry_sdk.v2.filesystem.errors import PathNotFound

from conftest import ROOT, Emulator, Lines, cli_command, stop

USERS = 30
SCOPES = ["api:admin-read", "api:filesystem-read"]
CONFIG = "\n".join(
    [
        "platform:",
        "  users:",
        "    - { username: alice, given_name: Alice, email: alice@example.com }",
        *[f"    - {{ username: user{i:02d} }}" for i in range(USERS - 2)],
        "  groups:",
        "    - { name: analysts, description: Readers, members: [alice, { group: leads }], attributes: { team: [data] } }",
        "    - { name: leads, members: [user00] }",
        "  spaces: [{ rid: ri.compass.main.folder.space-main, name: Main }]",
        "  projects: [{ rid: ri.compass.main.folder.proj, name: Demo, space: ri.compass.main.folder.space-main }]",
        "  folders: [{ rid: ri.compass.main.folder.data, name: data, parent: ri.compass.main.folder.proj }]",
        "  resources: [{ rid: ri.foundry.main.dataset.sales, name: sales, parent: ri.compass.main.folder.data }]",
        "",
    ]
)


@pytest.fixture(scope="module")
def directory():
    folder = tempfile.mkdtemp(prefix="pe-python-directory-")
    config = Path(folder) / "platform-emulator.yaml"
    config.write_text(CONFIG, encoding="utf-8")
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
def client(directory) -> FoundryClient:
    token = directory.token("alice", scopes=SCOPES)
    return FoundryClient(auth=UserTokenAuth(token=token), hostname=f"localhost:{directory.port}", config=Config(scheme="http"))


def test_user_list_pages_through_every_user_and_get_reads_one(client):
    users = list(client.admin.User.list(page_size=7))
    assert len(users) == USERS  # the seeded users and the default admin, across five pages
    assert len({u.id for u in users}) == USERS
    alice = next(u for u in users if u.username == "alice")
    same = client.admin.User.get(alice.id)
    assert (same.username, same.given_name, same.email, same.status) == ("alice", "Alice", "alice@example.com", "ACTIVE")


def test_user_get_of_an_unknown_id_raises_user_not_found(client):
    with pytest.raises(UserNotFound):
        client.admin.User.get("00000000-0000-4000-8000-000000000000")


def test_group_get_and_its_members(client, directory):
    groups = directory.json("GET", "/api/v2/admin/groups", token=directory.token("alice", scopes=SCOPES))["data"]
    analysts = next(g for g in groups if g["name"] == "analysts")
    group = client.admin.Group.get(analysts["id"])
    assert (group.name, group.description, group.attributes) == ("analysts", "Readers", {"team": ["data"]})
    members = list(client.admin.Group.GroupMember.list(analysts["id"], transitive=True))
    assert len(members) == 3  # alice, the nested group leads, and user00 through it
    with pytest.raises(GroupNotFound):
        client.admin.Group.get("00000000-0000-4000-8000-000000000001")


def test_resource_get_by_path(client):
    sales = client.filesystem.Resource.get_by_path(path="/Main/Demo/data/sales")
    assert (sales.rid, sales.display_name, sales.type, sales.trash_status) == ("ri.foundry.main.dataset.sales", "sales", "FOUNDRY_DATASET", "NOT_TRASHED")
    assert sales.project_rid == "ri.compass.main.folder.proj"
    with pytest.raises(PathNotFound):
        client.filesystem.Resource.get_by_path(path="/Main/Demo/nothing")
