"""Payments kept on a phone with no network and sent later (issue 28), the
server's part: every payment form says it may be kept (data-queue) and what
the phone says of it (data-payment); the pages they are on give a fresh token
as JSON for them, as a round's form does; and a payment sent again with its
key, as a phone does after an answer lost, is applied once. The phone's part:
tests/js/changes.test.js, outbox.test.js, tests/e2e/test_offline_payments.py."""

import json

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Payment
from tests.web.examples import NO_HU, make_session, player_id
from tests.web.helpers import csrf_token, forms_on, parsed


def kept_forms(html: str) -> list[tuple[str, str, dict]]:
    """Each form that a phone keeps offline: its action, queue and payment."""
    return [(form.attrs["action"], form.attrs["data-queue"], json.loads(form.attrs["data-payment"]))
            for form in parsed(html).select("form[data-queue]")]


def test_every_payment_form_on_settle_up_may_be_kept_and_says_what_it_is(app, client):
    sid = make_session(app, rounds=[NO_HU])  # Ann pays Cat 1.00, Bob pays Cat 8.00
    bob, cat = player_id(app, "Bob"), player_id(app, "Cat")
    settle = f"/sessions/{sid}/settle"
    client.post(f"{settle}/paid", data={"csrf_token": csrf_token(client, settle),
                                        "payer_id": bob, "payee_id": cat, "cents": 800,
                                        "amount": "3"})
    paid = {"payer": "Bob", "payee": "Cat", "amount": "RM 5.00", "currency": "RM",
            "undo": False}
    assert kept_forms(client.get(settle).text) == [
        (f"{settle}/paid", settle, paid | {"payer": "Ann", "amount": "RM 1.00"}),  # all
        (f"{settle}/paid", settle, paid | {"payer": "Ann", "amount": "RM 1.00"}),  # part
        (f"{settle}/undo", settle, paid | {"amount": "RM 3.00", "undo": True}),
        (f"{settle}/paid", settle, paid),  # the rest
        (f"{settle}/paid", settle, paid),  # part of it
    ]


def test_every_payment_form_of_who_owes_whom_may_be_kept(app, client):
    sid = make_session(app, rounds=[NO_HU], currency="S$")
    bob, cat = player_id(app, "Bob"), player_id(app, "Cat")
    client.post("/money/paid", data={"csrf_token": csrf_token(client, "/money"),
                                     "payer_id": bob, "payee_id": cat, "cents": 800,
                                     "amount": "2", "currency": "S$"})
    forms = kept_forms(client.get("/money").text)
    assert {(action, queue) for action, queue, _ in forms} == {
        ("/money/paid", "/money"), ("/money/undo", "/money")}
    assert {"payer": "Bob", "payee": "Cat", "amount": "S$ 6.00", "currency": "S$",
            "undo": False} in [payment for _, _, payment in forms]
    assert ("/money/undo", "/money", {"payer": "Bob", "payee": "Cat", "amount": "S$ 2.00",
                                      "currency": "S$", "undo": True}) in forms
    assert sid


def test_a_payment_kept_on_a_phone_gets_its_page_s_token_as_json(app, client, anonymous):
    """The worker sends a payment kept with a fresh token, from the page the
    payment was made on, as JSON; signed out, it is refused it."""
    sid = make_session(app, rounds=[NO_HU])
    settle = f"/sessions/{sid}/settle"
    for page in (settle, "/money"):
        answer = client.get(page, headers={"Accept": "application/json"})
        assert answer.status_code == 200 and answer.mimetype == "application/json"
        assert set(answer.get_json()) == {"token"}
        assert client.get(page).mimetype == "text/html"
        refused = anonymous.get(page, headers={"Accept": "application/json"})
        assert refused.status_code == 302 and "/sign-in" in refused.headers["Location"]
    token = client.get(settle, headers={"Accept": "application/json"}).get_json()["token"]
    first = forms_on(client.get(settle).text)[0]  # Ann pays Cat: Mark as paid
    fields = {name: values[0] for name, values in first.values.items()} | {"csrf_token": token}
    assert client.post(f"{settle}/paid", data=fields).status_code == 302  # saved with it


def test_a_payment_sent_again_with_its_key_is_applied_once(app, client):
    """A phone that lost the answer sends the payment kept again (a fresh
    token, the same key): answered as the first, paid once."""
    sid = make_session(app, rounds=[NO_HU])
    settle = f"/sessions/{sid}/settle"
    html = client.get(settle).text
    (part,) = [f for f in parsed(html).select("form.settle-part-form")
               if "Bob" in f.attrs["data-payment"]]
    fields = {i.attrs["name"]: i.attrs.get("value", "") for i in part.select("input")}
    fields["amount"] = "3.00"
    answers = []
    for _ in range(2):
        fields["csrf_token"] = client.get(
            settle, headers={"Accept": "application/json"}).get_json()["token"]
        answers.append(client.post(f"{settle}/paid", data=fields))
    assert [a.status_code for a in answers] == [302, 302]
    assert answers[0].headers["Location"] == answers[1].headers["Location"]
    with app.app_context():
        assert list(db.session.scalars(sa.select(Payment.cents))) == [300]


def test_a_name_written_right_to_left_is_isolated_in_what_the_phone_says(app, client):
    """The phone writes the names into its own sentence ("X → Y RM 1.00 marked
    paid"): one that could reorder the words around it comes isolated, as in
    the server's plain text."""
    names = ["Ann", "Bob", "عائشة", "Dan"]
    make_session(app, rounds=[dict(zip(names, NO_HU.values(), strict=True))], names=names)
    payees = {payment["payee"] for _, _, payment in kept_forms(client.get("/money").text)}
    assert payees == {"\u2068عائشة\u2069"}
