"""Fixtures of the Python conformance tests: a real emulator process (the CLI, on a free port, with a temporary
config), real modules started through `platform-emulator run-module`, and plain HTTP helpers (urllib) for what
the tests arrange or check beside the client libraries under test.

The CLI command comes from PLATFORM_EMULATOR_CLI (scripts/test-python.sh sets it to a fresh bundle), else
`node --import tsx src/cli.ts` from the checkout."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import pytest

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
PYTHON = os.environ.get("PYTHON_FOR_MODULES") or str(Path(os.sys.executable))
MODULE_APP = str(HERE / "modules" / "app.py")
FUNCTIONS_APP = str(HERE / "modules" / "functions_app.py")
MULTIPLEXER = "/analytics-backend-multiplexer/api/module-group-multiplexer"
RUNTIMES = "/_emulate/platform/compute-modules/runtimes"
ALL_SCOPES = [
    "api:admin-read",
    "api:ontologies-read",
    "api:connectivity-connection-read",
    "api:connectivity-connection-write",
]

CONFIG = """
platform:
  users:
    - { username: alice, given_name: Alice, family_name: Liddell, email: alice@example.com }
  oauth_clients:
    - { client_id: py-service, client_secret: py-service-secret, name: Python service }
    - { client_id: py-limited, client_secret: py-limited-secret, allowed_scopes: [api:ontologies-read] }
    # test_palantir_oauth_client.py: a desktop tool's public client, signing in through a loopback redirect
    - { client_id: py-desktop, redirect_uris: ["http://127.0.0.1/"], grant_types: [authorization_code, refresh_token] }
  ontologies:
    - api_name: sales
      rid: ri.ontology.main.ontology.sales
      display_name: Sales
      description: Orders and customers
      queries:
        - { api_name: topCustomers, result: { value: [{ name: Acme, total: 1200 }] } }
  compute_modules:
    runtimes: [{ runtime_id: rt-py-functions }]
    deployed_apps:
      # test_functions.py: its module's functions are queries of `sales` (com.pyfns.computemodules.<name>)
      - deployed_app_rid: ri.foundry.main.deployed-app.py-functions
        runtime_id: rt-py-functions
        functions: { namespace: pyfns, ontologies: [sales], timeout_ms: 20000 }
      # test_streams.py: a pipeline module (docs/streams.md) reading `input` and writing `output`
      - deployed_app_rid: ri.foundry.main.deployed-app.py-pipeline
        runtime_id: rt-py-pipeline
        resources: { input: { rid: ri.foundry.main.dataset.py-in }, output: { rid: ri.foundry.main.dataset.py-out } }
  streams:
    - { rid: ri.foundry.main.dataset.py-in, name: py-in, schema: { id: string, x: integer } }
    - { rid: ri.foundry.main.dataset.py-out, name: py-out, schema: { id: string, twice: integer } }
    - { rid: ri.foundry.main.dataset.py-secret, name: py-secret, schema: { id: string }, records: [{ id: hidden }] }
  path_aliases:
    "/multipass/api/": "/idp/api/"
"""


def cli_command() -> List[str]:
    given = os.environ.get("PLATFORM_EMULATOR_CLI")
    if given:
        return shlex.split(given)
    return ["node", "--import", "tsx", str(ROOT / "src" / "cli.ts")]


class Lines:
    """Collects a process's output lines on a thread (so the pipe never fills); waits for a pattern."""

    def __init__(self, stream) -> None:
        self.lines: List[str] = []
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream) -> None:
        for raw in iter(stream.readline, b""):
            with self._cond:
                self.lines.append(raw.decode("utf-8", "replace").rstrip("\n"))
                self._cond.notify_all()

    def wait_for(self, pattern: str, timeout: float = 60) -> re.Match:
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for line in self.lines:
                    found = regex.search(line)
                    if found:
                        return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no line matching {pattern!r} within {timeout}s; saw:\n" + "\n".join(self.lines[-40:]))
                self._cond.wait(left)

    def matching(self, pattern: str) -> List[str]:
        regex = re.compile(pattern)
        with self._cond:
            return [line for line in self.lines if regex.search(line)]


class Emulator:
    def __init__(self, url: str, process: subprocess.Popen, output: Lines, https_url: str = "", ca_file: str = "") -> None:
        self.url = url
        # The TLS listener (--https-port 0) and the CA file the banner's trust line names (docs/tls.md).
        self.https_url = https_url
        self.ca_file = ca_file
        self.port = int(url.rsplit(":", 1)[1])
        self.process = process
        self.output = output

    def request(self, method: str, path: str, body: Any = None, token: Optional[str] = None, headers: Optional[Dict[str, str]] = None, timeout: float = 60):
        """(status, raw body bytes); a JSON body for dicts and lists."""
        data = None
        all_headers = dict(headers or {})
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            all_headers.setdefault("content-type", "application/json")
        if token:
            all_headers["authorization"] = f"Bearer {token}"
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=all_headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as res:
                return res.status, res.read()
        except urllib.error.HTTPError as err:
            return err.code, err.read()

    def json(self, method: str, path: str, body: Any = None, token: Optional[str] = None) -> Any:
        status, raw = self.request(method, path, body, token)
        assert 200 <= status < 300, f"{method} {path}: {status} {raw[:300]!r}"
        return json.loads(raw) if raw else None

    def token(self, username: str = "alice", scopes: Optional[List[str]] = None) -> str:
        return self.json("POST", "/_emulate/platform/tokens", {"username": username, "scopes": ALL_SCOPES if scopes is None else scopes})["access_token"]


@pytest.fixture(scope="session")
def emulator():
    folder = tempfile.mkdtemp(prefix="pe-python-")
    config = Path(folder) / "platform-emulator.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    # debug: a line per request, on the pod listener too, so that result posts can be counted.
    command = cli_command() + ["--config", str(config), "--port", "0", "--https-port", "0", "--log-level", "debug"]
    env = {**os.environ, "PORT": "", "PLATFORM_EMULATOR_CONFIG": "", "PLATFORM_EMULATOR_DATA_DIR": str(Path(folder) / "data")}
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = Lines(process.stdout)
    try:
        url = output.wait_for(r"platform-emulator listening on (http://\S+)", timeout=90).group(1)
        https_url = output.wait_for(r"^  https +(https://\S+)", timeout=30).group(1)
        ca_file = output.wait_for(r"^  trust +export REQUESTS_CA_BUNDLE=(\S+)", timeout=30).group(1)
        yield Emulator(url, process, output, https_url, ca_file)
    finally:
        stop(process)


def stop(process: subprocess.Popen, timeout: float = 20) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Module:
    """A module run as a user runs it: `platform-emulator run-module --runtime R --deployed-app A -- COMMAND`."""

    def __init__(self, emulator: Emulator, runtime: str, app_rid: str, command: List[str], env: Optional[Dict[str, str]] = None) -> None:
        self.runtime = runtime
        self.app_rid = app_rid
        args = cli_command() + ["run-module", "--runtime", runtime, "--deployed-app", app_rid, "--url", emulator.url, "--"] + command
        self.process = subprocess.Popen(
            args,
            cwd=ROOT,
            env={**os.environ, "PORT": "", "PLATFORM_EMULATOR_URL": "", **(env or {})},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        self.output = Lines(self.process.stdout)

    def stop(self) -> None:
        stop(self.process)


@pytest.fixture(scope="session")
def start_module(emulator):
    started: List[Module] = []

    def start(runtime: str, app_rid: str, command: Optional[List[str]] = None, env: Optional[Dict[str, str]] = None) -> Module:
        module = Module(emulator, runtime, app_rid, command or [PYTHON, MODULE_APP], env)
        started.append(module)
        return module

    yield start
    for module in started:
        module.stop()


def wait_until(check: Callable[[], Any], timeout: float = 60, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)
