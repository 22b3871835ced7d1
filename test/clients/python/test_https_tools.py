"""The TLS listener beside plain http (docs/tls.md), driven as the command-line tools built on the platform's
Python SDK drive it: `hostname="localhost:<port>"` with no `Config` (the SDK then speaks https), a
client-credentials auth with no scopes (the SDK then sends no `scope`: "a token with all scopes"), and trust
through the banner's `REQUESTS_CA_BUNDLE` line. No workaround on the client side.

`pltr-cli` 0.16.0 itself runs in test_pltr_cli.py; `foundry-cli` 0.29.1 does not: it installs the same `pltr` Python package
(foundry-cli is a fork), so the two cannot share one virtual environment."""

from __future__ import annotations

import os

import requests
from foundry_sdk import ConfidentialClientAuth, FoundryClient


def test_sdk_client_credentials_over_tls_with_no_scope_and_no_config(emulator, monkeypatch):
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", emulator.ca_file)
    host = emulator.https_url.split("://", 1)[1]
    auth = ConfidentialClientAuth(client_id="py-service", client_secret="py-service-secret")
    client = FoundryClient(auth=auth, hostname=host)
    # A service principal's token with every scope of the matrix: the ontology list needs api:ontologies-read.
    names = [o.api_name for o in client.ontologies.Ontology.list().data]
    assert "sales" in names


def test_me_over_tls_with_a_token_granted_without_scope(emulator):
    token = requests.post(
        f"{emulator.https_url}/multipass/api/oauth2/token",
        data={"grant_type": "client_credentials", "client_id": "py-limited", "client_secret": "py-limited-secret"},
        verify=emulator.ca_file,
        timeout=30,
    ).json()
    # The client has allowed_scopes: exactly those are granted when none is asked for.
    assert token["scope"] == "api:ontologies-read"
    me = requests.get(f"{emulator.https_url}/multipass/api/me", headers={"authorization": f"Bearer {token['access_token']}"}, verify=emulator.ca_file, timeout=30)
    assert me.status_code == 200
    body = me.json()
    assert body["username"] == "py-limited" and body["groups"] == []
    assert os.path.isfile(emulator.ca_file)
