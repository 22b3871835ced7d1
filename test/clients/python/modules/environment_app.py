"""A compute module that uses its module environment (docs/functions.md, "Module environment") with only the
platform's Python runtime SDK (foundry-compute-modules): it gets a token with the application-permission
variables through the SDK's own `oauth(hostname, scopes)`, calls the API with it, and reads its source from the
query context and the mounted source configuration. The module-environment tests run it through `run-module`;
EMULATOR_TLS_HOST (set by the test) is the emulator's TLS listener, where `oauth` speaks HTTPS."""

import http.client
import os
import ssl
from dataclasses import dataclass

from compute_modules.annotations import function
from compute_modules.auth import oauth
from compute_modules.sources_v2._back_compat import get_mounted_sources


@dataclass
class Ask:
    scope: str


@dataclass
class Identity:
    client_id: str
    got_token: bool
    api_status: int
    weather_key: str
    weather_url: str


@function
def whoami(context, event: Ask) -> Identity:
    host = os.environ["EMULATOR_TLS_HOST"]
    token = oauth(host, [event.scope])
    status = 0
    if token:
        conn = http.client.HTTPSConnection(host, context=ssl.create_default_context(cafile=os.environ["DEFAULT_CA_PATH"]))
        conn.request("GET", "/api/v2/ontologies", headers={"Authorization": f"Bearer {token}"})
        status = conn.getresponse().status
        conn.close()
    mounted = get_mounted_sources().get("weather")
    return Identity(
        client_id=context.get("CLIENT_ID") or "",
        got_token=bool(token),
        api_status=status,
        weather_key=(context.get("sources") or {}).get("weather", {}).get("apiKey", ""),
        weather_url=mounted.http_connection_config.url if mounted and mounted.http_connection_config else "",
    )
