"""`palantir-oauth-client` 1.6.1, the platform's sign-in library for desktop tools, as its users call it:
`get_user_credentials(scopes, hostname, client_id, use_local_webserver=True)` against the TLS listener
(docs/tls.md; the library speaks https to fixed `/multipass/api/oauth2/...` paths, served here through the
config's `path_aliases`). It opens a browser on the authorization URL and waits on a loopback port for the
redirect; here the "browser" is a thread that follows that URL with the `login_hint` the sign-in page accepts
(docs/oauth.md), which stands for the person picking a user. Then the credentials call the API, and refresh."""

from __future__ import annotations

import threading
import webbrowser
from urllib.parse import parse_qs, urlparse

import requests
from palantir_oauth_client import get_user_credentials
from palantir_oauth_client.cache import NOOP


def test_desktop_sign_in_through_a_loopback_redirect_then_refresh(emulator, monkeypatch):
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", emulator.ca_file)
    followed: list[object] = []

    def browser(url: str, *args, **kwargs) -> bool:
        # After open() the library serves one request on its loopback port: follow in the background.
        def follow() -> None:
            try:
                res = requests.get(url + "&login_hint=alice", verify=emulator.ca_file, timeout=10)
                followed.append(res.status_code)
            except requests.RequestException as err:
                followed.append(repr(err))
            if followed[-1] != 200:
                # The sign-in did not reach the loopback server: release it, so that the library fails, not hangs.
                loopback = parse_qs(urlparse(url).query)["redirect_uri"][0]
                requests.get(loopback + "?error=access_denied", timeout=10)

        threading.Thread(target=follow, daemon=True).start()
        return True

    monkeypatch.setattr(webbrowser, "open", browser)
    credentials = get_user_credentials(
        ["api:admin-read", "offline_access"], emulator.https_url, "py-desktop", credentials_cache=NOOP, use_local_webserver=True
    )
    assert followed == [200]  # the loopback server's success page
    me = requests.get(
        f"{emulator.https_url}/api/v2/admin/users/getCurrent",
        headers={"Authorization": f"Bearer {credentials.token}"},
        verify=emulator.ca_file,
        timeout=10,
    )
    assert me.status_code == 200
    assert me.json()["username"] == "alice"

    # A refresh token came with it (offline_access); refreshing gives a new, working access token.
    first = credentials.token
    assert credentials.refresh_token
    credentials.refresh()
    assert credentials.token and credentials.token != first
    again = requests.get(
        f"{emulator.https_url}/api/v2/admin/users/getCurrent",
        headers={"Authorization": f"Bearer {credentials.token}"},
        verify=emulator.ca_file,
        timeout=10,
    )
    assert again.json()["username"] == "alice"
