"""A phone's browser for the benchmarks, over a plain socket: requests with a
phone's headers and cookies, answers decoded as a phone's browser would, and
the forms of a page read from its HTML."""

from __future__ import annotations

import gzip
import html
import re
import socket
import time
import zlib
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

import brotli

try:
    from compression import zstd  # Python 3.14
except ImportError:
    from backports import zstd  # installed with flask-compress

# What a current phone browser sends.
ACCEPT_ENCODING = "gzip, deflate, br, zstd"
USER_AGENT = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
              "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")
TIMEOUT = 30  # seconds a phone waits for an answer


DECODERS = {"gzip": gzip.decompress, "deflate": zlib.decompress, "br": brotli.decompress,
            "zstd": zstd.decompress}


@dataclass(frozen=True)
class Reply:
    status: int
    location: str  # the redirect's path, or ""
    text: str


class Browser:
    """One phone's browser: its cookies, and a new connection per request
    (gunicorn's sync workers close each one after answering).

    It speaks HTTP/1.1 over a plain socket: http.client took twice the CPU a
    request (it parses headers with the email package), CPU that this
    machine's server then goes without."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[Reply, float]:
        """The reply, and the seconds from connecting to its last byte."""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}",
                 f"User-Agent: {USER_AGENT}", "Accept: text/html",
                 f"Accept-Encoding: {ACCEPT_ENCODING}"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        body = b""
        if form is not None:
            body = urlencode(form).encode()
            lines += ["Content-Type: application/x-www-form-urlencoded",
                      f"Content-Length: {len(body)}"]
        message = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        started = time.perf_counter()
        with socket.create_connection((self.host, self.port), timeout=TIMEOUT) as connection:
            connection.sendall(message)
            status, headers, data = read_response(connection)
        seconds = time.perf_counter() - started
        for name, value in headers:
            if name == "set-cookie":
                cookie, _, _ = value.partition(";")
                cookie_name, _, cookie_value = cookie.partition("=")
                self.cookies[cookie_name.strip()] = cookie_value
        fields = dict(headers)
        if "content-encoding" in fields:
            data = DECODERS[fields["content-encoding"]](data)
        location = urlsplit(fields.get("location", "")).path
        return Reply(status, location, data.decode()), seconds


def read_response(connection: socket.socket) -> tuple[int, list[tuple[str, str]], bytes]:
    """The status, the headers (names in lower case) and the body of the
    response coming on ``connection``: Content-Length bytes, or up to the
    close when the response gives no length."""
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = connection.recv(65536)
        if not chunk:
            raise ConnectionError("closed before the end of the headers")
        received += chunk
    head, _, data = received.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = []
    for line in header_lines:
        name, _, value = line.partition(":")
        headers.append((name.strip().lower(), value.strip()))
    fields = dict(headers)
    if fields.get("transfer-encoding", "identity") != "identity":
        raise ConnectionError(f"unexpected Transfer-Encoding {fields['transfer-encoding']}")
    length = int(fields["content-length"]) if "content-length" in fields else None
    chunks = [data]
    size = len(data)
    while length is None or size < length:
        chunk = connection.recv(65536)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    data = b"".join(chunks)
    if length is not None and len(data) != length:
        raise ConnectionError(f"{len(data)} bytes of body, not {length}")
    return int(status_line.split(" ", 2)[1]), headers, data


FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S)
INPUT = re.compile(r"<input\b([^>]*)>")
ATTRIBUTE = re.compile(r'([\w-]+)(?:="([^"]*)")?')


def attributes(tag: str) -> dict[str, str]:
    return {name: html.unescape(value or "") for name, value in ATTRIBUTE.findall(tag)}


def read_form(page: str, action_ends: str) -> tuple[str, dict[str, str]] | None:
    """The action and the fields a browser would send of the first form whose
    action ends with ``action_ends``: named inputs, radio buttons and check
    boxes only when checked (the forms driven here have no other fields)."""
    for form_tag, inside in FORM.findall(page):
        action = attributes(form_tag).get("action", "")
        if not urlsplit(action).path.endswith(action_ends):
            continue
        fields = {}
        for tag in INPUT.findall(inside):
            field = attributes(tag)
            if "name" not in field:
                continue
            if field.get("type") in ("radio", "checkbox") and "checked" not in field:
                continue
            fields[field["name"]] = field.get("value", "")
        return action, fields
    return None
