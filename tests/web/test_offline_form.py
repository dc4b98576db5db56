"""Issue 25, 6: offline, "Enter round N" opens round N's form, as the last
scoreboard seen stands. The scoreboard tells the service worker where that
form is (web/offline.py's Scorekeeper-Round-Form): the round it shows next,
its dealer and order of play, every hand empty, the session's version; the
form as opened online, holding the hands phones sent to it, is not kept. The
worker keeping it, and a round saved on it offline, are seen in
tests/e2e/test_offline_queue.py."""

import re
from html import unescape

import pytest

from scorekeeper import queries, services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession
from scorekeeper.web.offline import FORM_HEADER, KEEP_HEADER
from tests.web.examples import EXAMPLE_1, TYPED_1
from tests.web.helpers import filled, form_values, player_ids, send_hand, text

pytestmark = pytest.mark.any_database


def test_the_scoreboard_tells_the_worker_the_empty_form_of_the_round_it_shows_next(
        client, table, own_tokens):
    services.record_round(services.Change.to(table), EXAMPLE_1)
    sid, version = table.id, table.version
    board = f"/sessions/{sid}"
    # A hand some phone sent to round 2, then left there.
    assert send_hand(client, sid, player_ids()["A"], "dead", "QS", number=2).status_code == 200

    shown = client.get(board)
    assert "Enter round 2" in text(shown)
    form_url = shown.headers[FORM_HEADER]
    assert form_url == f"{board}/rounds/new?blank={version}"
    form = client.get(form_url)
    html = unescape(text(form))
    assert form.headers[KEEP_HEADER] == "page"
    assert re.search(r"<h1>Round 2</h1>", html)
    coming = queries.upcoming(table)
    assert f"<strong>{coming.dealer.name}</strong> deals." in html
    assert "Play: " + " → ".join(p.name for p in coming.order) in html
    values = form_values(html)
    assert (values["number"], values["version"]) == ("2", str(version))
    cards = [value for key, value in values.items() if key.endswith("-cards")]
    assert len(cards) == 4 and set(cards) == {""}
    assert html.count('class="together-waiting"') == 4
    # The form as opened online holds A's hand: never kept for offline.
    online = client.get(f"{board}/rounds/new")
    assert 'value="QS"' in text(online) and KEEP_HEADER not in online.headers

    # A session ended has no round to come.
    services.end_session(services.Change.to(db.session.get(GameSession, sid)))
    assert FORM_HEADER not in client.get(board).headers


def test_a_round_kept_on_a_phone_gets_its_forms_token_as_json(app, client, anonymous, table):
    """Issue 25, 7: the service worker sends the rounds kept (core/sending.js)
    with a fresh token, which it can't read from a page: its form gives it as
    JSON; a phone signed out, or another group's session, is refused it."""
    form = f"/sessions/{table.id}/rounds/new"
    answer = client.get(form, headers={"Accept": "application/json"})
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    data = filled(text(client.get(form)), TYPED_1) | {"csrf_token": answer.get_json()["token"]}
    assert client.post(form, data=data).status_code == 302  # saved with it
    assert client.get(form).mimetype == "text/html"
    refused = anonymous.get(form, headers={"Accept": "application/json"})
    assert refused.status_code == 302 and "/sign-in" in refused.headers["Location"]
