"""Issue 25, 5: a round filled in together that another phone saved. The
phones still on its form ask the server for it (round-saved.js): its page,
which phone saved it, and its hands, to keep on the form what was typed there
and is not in it. The card it makes is seen in tests/e2e/together/."""

import pytest

from tests.conftest import signed_in_client
from tests.web.examples import TYPED_1
from tests.web.helpers import filled, player_ids, text

pytestmark = [pytest.mark.usefixtures("own_tokens"), pytest.mark.any_database]


def test_a_phone_on_a_round_saved_elsewhere_is_told_which_phone_and_the_hands(
        app, group, client, sid):
    cat = signed_in_client(app, group, device="Cat's phone")
    page = text(client.get(f"/sessions/{sid}/rounds/new"))  # this phone's form, at its version
    since = int(page.split('name="version" value="')[1].split('"')[0])
    form = text(cat.get(f"/sessions/{sid}/rounds/new"))
    assert cat.post(f"/sessions/{sid}/rounds/new", data=filled(form, TYPED_1)).status_code == 302

    answer = client.get(f"/sessions/{sid}/draft/saved/1?since={since}")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    ids = player_ids()
    assert answer.get_json() == {
        "number": 1, "url": f"/sessions/{sid}/rounds/1", "edit": f"/sessions/{sid}/rounds/1/edit",
        "phone": "Cat's phone",
        "hands": {str(ids[name]): {"outcome": outcome, "cards": cards}
                  for name, (outcome, cards) in TYPED_1.items()}}
    # Saved before the form was made (or no version said): which phone is not news.
    assert client.get(f"/sessions/{sid}/draft/saved/1?since=999").get_json()["phone"] is None
    assert client.get(f"/sessions/{sid}/draft/saved/1").get_json()["phone"] is None
    missing = client.get(f"/sessions/{sid}/draft/saved/2")
    assert missing.status_code == 404 and missing.get_json() == {"error": "There is no round 2."}
