"""A round kept on the phone moves the form shown after it on to the next
round (static/js/core/sending.js, following): to the number and version the
server gives that form once the round kept is saved, as node runs the core.
The pages that show it: tests/e2e/test_offline_queue.py."""

import json
import re
import shutil
import subprocess
from html import unescape

import pytest

from tests.web.examples import TYPED_1, TYPED_2
from tests.web.helpers import ROOT, filled, form_values

pytestmark = pytest.mark.any_database

CALL = ROOT / "tests" / "js" / "call.js"


def javascript(module: str, name: str, *args):
    node = shutil.which("node")
    assert node, "node is needed: it runs the phone's side of this test"
    done = subprocess.run([node, CALL], input=json.dumps({"module": module, "name": name,
                                                          "args": args}),
                          capture_output=True, text=True, check=True, timeout=60)
    return json.loads(done.stdout)


def kept(page: str, entries: dict) -> dict:
    """The round the queue keeps from the page's form (queue.js save)."""
    data = filled(page, entries)
    board = unescape(re.search(r'<form [^>]*class="round-form"[^>]*data-queue="([^"]+)"', page)[1])
    return {"board": board, "url": "", "number": int(data["number"]),
            "version": int(data["version"]), "fields": list(data.items()), "at": 0,
            "refused": False}


def test_the_form_after_rounds_kept_is_the_one_the_server_shows_next(client, table):
    new = f"/sessions/{table.id}/rounds/new"
    page = client.get(new).text
    first = kept(page, TYPED_1)
    assert first["board"] == f"/sessions/{table.id}"
    # Offline, the form as last seen is for the round kept: it follows on.
    made_at = int(form_values(page)["version"])
    follows = javascript("core/sending.js", "following", [first], first["board"], made_at)
    second = {**first, **follows}
    then = javascript("core/sending.js", "following", [first, second], first["board"], made_at)
    # Online again, the rounds are saved in order, each as the server's form says.
    assert client.post(new, data=dict(first["fields"])).status_code == 302
    shown = form_values(client.get(new).text)
    assert follows == {"number": int(shown["number"]), "version": int(shown["version"])}
    data = filled(client.get(new).text, TYPED_2)
    assert client.post(new, data=data).status_code == 302
    shown = form_values(client.get(new).text)
    assert then == {"number": int(shown["number"]), "version": int(shown["version"])}
