"""The command-line tools built on the platform's Python SDK, run unmodified against the TLS listener
(docs/tls.md): `pltr-cli` 0.16.0 and `foundry-cli` 0.29.1. Both install a `pltr` command from a package named
`pltr`, so one virtual environment holds only one of them: `pltr-cli` lives in .venv/ beside the other packages,
`foundry-cli` in its own .venv-foundry-cli/ (pinned in foundry-cli-requirements.txt; scripts/test-python.ts names
it in FOUNDRY_CLI_PLTR). Their profiles live in the system keyring; a headless machine has none, so each run
points Python's `keyring` at the plain-file backend of `keyrings.alt` (PYTHON_KEYRING_BACKEND), in a throwaway
HOME. Their OAuth path is hard-coded (`/multipass/api/`): the test seed's `path_aliases` serves it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PLTR_CLI = os.path.join(os.path.dirname(sys.executable), "pltr")
FOUNDRY_CLI = os.environ.get("FOUNDRY_CLI_PLTR", "")


def foundry_cli_or_skip() -> str:
    """foundry-cli's `pltr`; outside CI a missing .venv-foundry-cli skips its tests (CI=true requires it)."""
    if FOUNDRY_CLI and os.access(FOUNDRY_CLI, os.X_OK):
        return FOUNDRY_CLI
    reason = ("foundry-cli is not installed; make it once with: python3 -m venv .venv-foundry-cli && "
              ".venv-foundry-cli/bin/pip install -r test/clients/python/foundry-cli-requirements.txt")
    if os.environ.get("CI") == "true":
        pytest.fail(reason + "; CI=true requires it")
    pytest.skip(reason)


@pytest.fixture(params=["pltr-cli", "foundry-cli"])
def tool(request) -> str:
    return PLTR_CLI if request.param == "pltr-cli" else foundry_cli_or_skip()


@pytest.fixture
def tool_env(emulator, tmp_path) -> dict[str, str]:
    return {
        **os.environ,
        "HOME": str(tmp_path),
        "PYTHON_KEYRING_BACKEND": "keyrings.alt.file.PlaintextKeyring",
        "REQUESTS_CA_BUNDLE": emulator.ca_file,
        "COLUMNS": "200",
    }


def run(tool: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([tool, *args], env=env, capture_output=True, text=True, timeout=120, check=False)


def configure(tool: str, env: dict[str, str], host: str, profile: str, secret: str) -> subprocess.CompletedProcess[str]:
    # With its scheme: `verify` calls the host as given; the SDK strips the scheme and speaks https.
    return run(
        tool, env, "configure", "configure", "--profile", profile, "--auth-type", "oauth", "--host", host,
        "--client-id", "py-service", "--client-secret", secret,
    )


def test_profile_verify_and_current_user(tool, tool_env, emulator):
    configured = configure(tool, tool_env, emulator.https_url, "emu", "py-service-secret")
    assert configured.returncode == 0, configured.stdout + configured.stderr
    verified = run(tool, tool_env, "verify", "--profile", "emu")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "Authentication successful" in verified.stdout and "py-service" in verified.stdout
    current = run(tool, tool_env, "admin", "user", "current", "--profile", "emu", "--format", "json")
    assert current.returncode == 0, current.stdout + current.stderr
    assert '"py-service"' in current.stdout


def test_a_wrong_secret_is_refused_with_the_servers_reason(tool, tool_env, emulator):
    configure(tool, tool_env, emulator.https_url, "bad", "wrong")
    refused = run(tool, tool_env, "verify", "--profile", "bad")
    assert refused.returncode != 0
    assert "invalid_client" in refused.stdout + refused.stderr


def test_foundry_cli_creates_a_dataset_uploads_and_lists_its_files(tool_env, emulator, tmp_path):
    # foundry-cli's dataset commands, on the datasets service (docs/datasets.md); pltr-cli 0.16.0 has older ones.
    tool = foundry_cli_or_skip()
    assert configure(tool, tool_env, emulator.https_url, "emu", "py-service-secret").returncode == 0
    created = run(tool, tool_env, "dataset", "create", "cli-made", "--parent-folder", "ri.compass.main.folder.root",
                  "--profile", "emu", "--format", "json")
    assert created.returncode == 0, created.stdout + created.stderr
    rid = next(word for word in created.stdout.split() if word.startswith("ri.foundry.main.dataset."))
    source = tmp_path / "rows.csv"
    source.write_text("id,x\na,1\n")
    uploaded = run(tool, tool_env, "dataset", "files", "upload", str(source), rid, "--profile", "emu")
    assert uploaded.returncode == 0, uploaded.stdout + uploaded.stderr
    listed = run(tool, tool_env, "dataset", "files", "list", rid, "--profile", "emu", "--format", "json")
    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert "rows.csv" in listed.stdout
    got = run(tool, tool_env, "dataset", "get", rid, "--profile", "emu", "--format", "json")
    assert got.returncode == 0, got.stdout + got.stderr
    assert "cli-made" in got.stdout
    # A dataset that does not exist: the tool's own failure line, not a crash. (It prints the SDK's exception as
    # text, which for the SDK's error dataclasses is empty, against the real platform too.)
    missing = run(tool, tool_env, "dataset", "get", "ri.foundry.main.dataset.nope", "--profile", "emu")
    assert missing.returncode == 1
    assert "Failed to get dataset ri.foundry.main.dataset.nope" in missing.stdout
    assert "Traceback" not in missing.stdout + missing.stderr
