"""`pltr-cli` 0.16.0, the command-line tool built on the platform's Python SDK, run unmodified against the TLS
listener (docs/tls.md): a client-credentials profile, `verify`, and a few reads. Its profiles live in the system
keyring; a headless machine has none, so the run points Python's `keyring` at the plain-file backend of
`keyrings.alt` (PYTHON_KEYRING_BACKEND), in a throwaway HOME. Its OAuth path is hard-coded (`/multipass/api/`):
the test seed's `path_aliases` serves it. `foundry-cli` installs the same `pltr` package, so it is not tested
beside it (one virtual environment holds only one of them)."""

from __future__ import annotations

import os
import subprocess
import sys


def pltr(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [os.path.join(os.path.dirname(sys.executable), "pltr"), *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, check=False)


def test_pltr_profile_verify_and_reads(emulator, tmp_path):
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "PYTHON_KEYRING_BACKEND": "keyrings.alt.file.PlaintextKeyring",
        "REQUESTS_CA_BUNDLE": emulator.ca_file,
        "COLUMNS": "200",
    }
    # With its scheme: `verify` calls the host as given; the SDK strips the scheme and speaks https.
    host = emulator.https_url
    configured = pltr(
        env, "configure", "configure", "--profile", "emu", "--auth-type", "oauth", "--host", host,
        "--client-id", "py-service", "--client-secret", "py-service-secret",
    )
    assert configured.returncode == 0, configured.stdout + configured.stderr
    verified = pltr(env, "verify", "--profile", "emu")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "Authentication successful" in verified.stdout and "py-service" in verified.stdout
    current = pltr(env, "admin", "user", "current", "--profile", "emu", "--format", "json")
    assert current.returncode == 0, current.stdout + current.stderr
    assert '"py-service"' in current.stdout
    # A wrong secret is refused with the server's reason, not a crash.
    pltr(
        env, "configure", "configure", "--profile", "bad", "--auth-type", "oauth", "--host", host,
        "--client-id", "py-service", "--client-secret", "wrong",
    )
    refused = pltr(env, "verify", "--profile", "bad")
    assert refused.returncode != 0
    assert "invalid_client" in refused.stdout + refused.stderr
