"""What if (web/what_if.py): a session's money under other house rules,
side by side with what was played; looking writes nothing."""

import dataclasses
from urllib.parse import urlencode

import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent
from scorekeeper.rules import Entry, HouseRules, score_round
from tests.conftest import signed_in_client
from tests.web.examples import EXAMPLE_1, EXAMPLE_2, EXAMPLE_3, EXAMPLE_RULES
from tests.web.helpers import form_values, parsed, visible_text
from tests.web.probing import database_rows


@pytest.fixture
def played(table):
    """§12's three rounds, played under EXAMPLE_RULES."""
    for entries in (EXAMPLE_1, EXAMPLE_2, EXAMPLE_3):
        services.record_round(services.Change.to(table), entries)
    return table


def money_rows(response) -> dict[str, list[str]]:
    """The totals table: each player's money as played, what if, difference."""
    table = parsed(response).select("table.whatif-table")[0]
    return {row.texts("th")[0]: row.texts("td") for row in table.select("tbody tr")}


def url(session_id, **args) -> str:
    return f"/sessions/{session_id}/what-if" + (f"?{urlencode(args)}" if args else "")


def fields(client, session_id, response=None) -> dict[str, str]:
    """What the page's GET form sends, as the page (or ``response``) holds it."""
    response = response or client.get(url(session_id))
    html = response.get_data(as_text=True).replace('<form method="get"', '<form method="post"')
    return form_values(html, f"/sessions/{session_id}/what-if")


def test_penang_beside_what_was_played(client, played):
    response = client.get(url(played.id, preset="penang", use_preset="1"))
    assert response.status_code == 200
    # As played (§12's nets) and under Penang: tiers 0 1 2 3 4 5, no joker/ace money.
    assert money_rows(response) == {
        "A": ["−6.50", "−6.50", "0.00"], "B": ["+0.50", "+4.50", "+4.00"],
        "C": ["+11.00", "+9.00", "−2.00"], "D": ["−5.00", "−7.00", "−2.00"]}
    text = visible_text(response)
    assert "Joker / ace 0.50 → 0.00" in text and "Passport Run only → Any meld" in text
    # The form now holds Penang's rules, to change further.
    assert fields(client, played.id, response)["jokers"] == "6"


def test_every_figure_is_the_engine_scoring_the_hands_afresh(client, played):
    """Round by round, against score_round on the same hands; the totals sum them."""
    other = dataclasses.replace(EXAMPLE_RULES, unit_cents=250, hu_cents=500, joker_ace_cents=0)
    form = {**fields(client, played.id),
              "unit_cents": "2.50", "hu_cents": "5", "joker_ace_cents": "0"}
    response = client.get(url(played.id, **form))
    cells = parsed(response).select("details.whatif-rounds tbody tr")
    totals = dict.fromkeys("ABCD", 0)
    for row, entries in zip(cells, (EXAMPLE_1, EXAMPLE_2, EXAMPLE_3), strict=True):
        money = score_round("ABCD", entries, other).net_cents
        for cell, player in zip(row.select("td"), "ABCD", strict=True):
            assert cell.select("span")[0].text == f"{money[player] / 100:+.2f}".replace(
                "-", "−").replace("+0.00", "0.00")
            totals[player] += money[player]
    assert [money_rows(response)[p][1] for p in "ABCD"] == [
        f"{totals[p] / 100:+.2f}".replace("-", "−") for p in "ABCD"]


def test_the_sessions_own_rules_change_nothing(client, played):
    response = client.get(url(played.id, preset="session", use_preset="1"))
    assert {row[2] for row in money_rows(response).values()} == {"0.00"}
    assert "These are this session's own rules" in visible_text(response)


def test_looking_writes_nothing(app, client, played):
    with app.app_context():
        before = database_rows()
    form = {**fields(client, played.id),
              "jokers": "0", "hu_cents": "9"}
    assert client.get(url(played.id, **form)).status_code == 200
    assert client.get(url(played.id, preset="penang", use_preset="1")).status_code == 200
    with app.app_context():
        assert database_rows() == before
        assert db.session.scalar(sa.select(sa.func.count()).select_from(AuditEvent).where(
            AuditEvent.action == "session.rules")) == 0


def test_the_page_opens_on_the_sessions_rules_and_compares_nothing_yet(client, played):
    response = client.get(url(played.id))
    assert response.status_code == 200
    assert not parsed(response).select("table.whatif-table")
    form = fields(client, played.id, response)
    assert (form["jokers"], form["passport"], form["joker_ace_cents"]) == ("8", "run", "0.50")
    assert "csrf_token" not in form


def test_bad_values_come_back_with_their_messages(client, played):
    form = {**fields(client, played.id),
              "jokers": "lots", "tiers": "1 two", "hu_cents": "1.555"}
    response = client.get(url(played.id, **form))
    assert response.status_code == 422
    text = visible_text(response)
    assert "check the fields marked below" in text
    assert "Type a number from 0 to 16." in text
    assert "Type whole numbers of units" in text and "Use at most two decimals" in text
    shown = fields(client, played.id, response)
    assert (shown["jokers"], shown["tiers"], shown["hu_cents"]) == ("lots", "1 two", "1.555")
    assert not parsed(response).select("table.whatif-table")


def test_rules_the_table_cant_be_dealt_by_are_refused_plainly(client, played):
    form = {**fields(client, played.id),
              "packs": "1", "jokers": "0", "hand_size": "40"}
    response = client.get(url(played.id, **form))
    assert response.status_code == 422
    assert "4 players need 160 cards, but the deck has only 52" in visible_text(response)


def test_a_round_the_other_rules_refuse_is_said_and_left_out(client, played):
    form = {**fields(client, played.id), "jokers": "0"}
    response = client.get(url(played.id, **form))
    assert response.status_code == 200
    text = visible_text(response)
    # Rounds 1 and 3 hold a joker: under a deck without any, only round 2 counts.
    assert "Round 1 can't be scored under these rules: 1 joker entered (A)" in text
    assert "Round 3 can't be scored under these rules" in text
    assert "Those rounds count on neither side below." in text
    round_2 = score_round("ABCD", EXAMPLE_2, EXAMPLE_RULES).net_cents
    assert [money_rows(response)[p][0] for p in "ABCD"] == [
        f"{round_2[p] / 100:+.2f}".replace("-", "−") for p in "ABCD"]
    assert len(parsed(response).select("tr.whatif-refused-row")) == 2


def test_a_finished_session_and_a_player_who_left_are_compared_too(client, table):
    services.record_round(services.Change.to(table), EXAMPLE_2)
    services.join_session(services.Change.to(table), "E", 4)
    services.record_round(services.Change.to(table), {**EXAMPLE_2, "E": Entry("dead", "9C")})
    services.leave_session(services.Change.to(table), table.seats[0].player_id)
    services.end_session(services.Change.to(table))
    response = client.get(url(table.id, preset="penang", use_preset="1"))
    assert response.status_code == 200
    rows = money_rows(response)
    assert set(rows) == set("ABCDE")
    second = score_round("ABCDE", {**EXAMPLE_2, "E": Entry("dead", "9C")}, EXAMPLE_RULES)
    assert rows["E"][0] == f"{second.net_cents['E'] / 100:+.2f}".replace("-", "−")


def test_linked_from_the_scoreboard_and_the_finished_session(client, played):
    assert f"/sessions/{played.id}/what-if" in client.get(f"/sessions/{played.id}").text
    services.end_session(services.Change.to(played))
    assert f"/sessions/{played.id}/what-if" in client.get(f"/sessions/{played.id}").text
    assert f"/sessions/{played.id}/what-if" in client.get(
        f"/history/sessions/{played.id}").text


def test_another_groups_session_is_not_found(app, played):
    with app.app_context():
        other = services.create_group("Other table", "another passphrase")
        db.session.refresh(other)
        db.session.expunge(other)
    phone = signed_in_client(app, other, device="Their phone")
    assert phone.get(url(played.id)).status_code == 404
    assert phone.get(url(played.id, preset="penang", use_preset="1")).status_code == 404


def test_a_share_link_does_not_open_it(app, played):
    anonymous = app.test_client()
    assert anonymous.get(url(played.id)).status_code == 302  # to sign in


def test_the_replay_under_the_stored_rules_is_the_stored_money(played):
    """The service behind the page, on what the database holds."""
    result = services.session_what_if(played, played.rules)
    assert result.would_be == result.played == {
        seat.player.name: seat.net_cents for seat in played.seats}
    assert all(sum(r.money.values()) == 0 for r in result.rounds)
    penang = services.session_what_if(played, HouseRules.penang())
    assert penang.played == result.played and penang.would_be != result.would_be
