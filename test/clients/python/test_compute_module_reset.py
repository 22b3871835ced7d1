"""A module written with the Python runtime SDK (foundry-compute-modules, pinned) across a reset (issue 25): its
runtime was created at run time by `run-module`; after POST /_emulate/platform/reset it keeps serving, its idle
poll rate stays that of the long-poll hold (under 5 a second) and no poll is refused. The SDK polls again at once
after any status but 200 and 204, so a 404 or 401 here would be a tight loop."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from conftest import MULTIPLEXER, ROOT, Emulator, Lines, Module, PYTHON, MODULE_APP, cli_command, stop, wait_until

APP = "ri.foundry.main.deployed-app.python-reset"
RUNTIME = "rt-python-reset"
CONFIG = """
platform:
  users: [{ username: alice }]
  compute_modules: { poll_timeout_ms: 1000 }
"""


@pytest.fixture(scope="module")
def emulator():
    folder = tempfile.mkdtemp(prefix="pe-python-reset-")
    config = Path(folder) / "platform-emulator.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    command = cli_command() + ["--config", str(config), "--port", "0", "--log-level", "debug"]
    env = {**os.environ, "PORT": "", "PLATFORM_EMULATOR_CONFIG": ""}
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = Lines(process.stdout)
    try:
        url = output.wait_for(r"platform-emulator listening on (http://\S+)", timeout=90).group(1)
        yield Emulator(url, process, output)
    finally:
        stop(process)


def polls(emulator) -> int:
    return len(emulator.output.matching(rf'"url":"[^"]*/runtimes/{RUNTIME}/job".*"msg":"incoming request"'))


def refused_polls(emulator) -> int:
    return len(emulator.output.matching(rf'"url":"[^"]*/runtimes/{RUNTIME}/job".*"statusCode":4\d\d'))


def add(emulator, a, b):
    token = emulator.token("alice", [])
    return emulator.request("POST", f"{MULTIPLEXER}/compute-modules/jobs/execute", {"deployedAppRid": APP, "queryType": "add", "query": {"a": a, "b": b}}, token=token)


def test_the_module_keeps_serving_across_resets_without_a_poll_loop(emulator):
    module = Module(emulator, RUNTIME, APP, [PYTHON, MODULE_APP])
    try:
        wait_until(lambda: add(emulator, 2, 3)[0] == 200, timeout=90, what="the module's first answer")
        status, body = add(emulator, 2, 3)
        assert (status, json.loads(body)) == (200, 5)
        for _ in range(3):
            assert emulator.request("POST", "/_emulate/platform/reset")[0] == 200
        time.sleep(0.5)
        before = polls(emulator)
        time.sleep(3)  # the measurement: three idle seconds
        rate = (polls(emulator) - before) / 3
        assert 0 < rate < 5, f"{rate} polls a second"
        status, body = add(emulator, 40, 2)
        assert (status, json.loads(body)) == (200, 42)
        assert refused_polls(emulator) == 0
        assert module.process.poll() is None  # still running
    finally:
        module.stop()
