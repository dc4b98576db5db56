"""Phones talking to a served app over real HTTP (werkzeug in threads, or
gunicorn): each its own cookies and a new connection per request."""

import http.client
from http.cookies import SimpleCookie
from urllib.parse import urlencode

from tests.conftest import GROUP_NAME, PASSPHRASE
from tests.web.helpers import token_in

SAVED = (302, 303)


class Phone:
    """A browser of its own: its own connection per request and its own cookies."""

    def __init__(self, port: int, label: str = "Test phone"):
        self.port = port
        self.label = label
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, fields: dict | None = None):
        """(status, Location header, body text)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if fields is not None:
            body = urlencode(fields, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body, headers)
            response = connection.getresponse()
            text = response.read().decode()
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            return response.status, response.headers.get("Location", ""), text
        finally:
            connection.close()

    def try_sign_in(self, passphrase: str = PASSPHRASE) -> tuple[int, str]:
        """Through the real sign-in form: (status, Location header)."""
        _, _, page = self.request("GET", "/sign-in")
        status, location, _ = self.request("POST", "/sign-in", {
            "csrf_token": token_in(page), "name": GROUP_NAME, "passphrase": passphrase,
            "device": self.label, "next": ""})
        return status, location

    def sign_in(self) -> "Phone":
        """Signed in, as the phone's owner would."""
        status, location = self.try_sign_in()
        assert status in SAVED and location.endswith("/"), status
        return self
