"""Correcting a session's house rules and a player's name, with the audit trail."""

import dataclasses
import json

import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent
from scorekeeper.rules import JOKER, Entry, HouseRules
from tests.conftest import the_group
from tests.web.examples import EXAMPLE_1, EXAMPLE_2, EXAMPLE_3, EXAMPLE_RULES
from tests.web.helpers import csrf_token, form_values


def net_by_name(round_):
    return {e.player.name: e.net_cents for e in round_.entries}


def dealers(session):
    return [r.dealer.name for r in session.rounds]


def last_event(action):
    return db.session.scalars(sa.select(AuditEvent).where(AuditEvent.action == action)
                              .order_by(AuditEvent.id.desc())).first()


def test_new_house_rules_rescore_every_round_and_keep_who_dealt(table):
    for example in (EXAMPLE_1, EXAMPLE_2, EXAMPLE_3):
        services.record_round(services.Change.to(table), example)
    dealt = dealers(table)
    orders = [[e.player.name for e in sorted(r.entries, key=lambda e: e.turn)]
              for r in table.rounds]
    doubled = dataclasses.replace(EXAMPLE_RULES, unit_cents=2 * EXAMPLE_RULES.unit_cents,
                                  dealer_rule="rotate")
    before = [net_by_name(r) for r in table.rounds]
    version = table.version

    services.change_house_rules(services.Change.to(table, device="Mei's phone", seen=version),
                                doubled, "SGD")

    assert table.rules == doubled and table.currency == "SGD"
    assert dealers(table) == dealt
    assert [[e.player.name for e in sorted(r.entries, key=lambda e: e.turn)]
            for r in table.rounds] == orders
    # Round 2 (example 2) has no Hu, jokers or aces: its money is all tiers, so doubles.
    assert net_by_name(table.rounds[1]) == {name: 2 * cents
                                            for name, cents in before[1].items()}
    assert all(sum(net_by_name(r).values()) == 0 for r in table.rounds)
    assert table.version == version + 1
    event = last_event("session.rules")
    assert event.device == "Mei's phone" and event.session_id == table.id
    assert event.before["house_rules"]["unit_cents"] == EXAMPLE_RULES.unit_cents
    assert HouseRules(**event.after["house_rules"]) == doubled
    assert event.after["currency"] == "SGD"


def test_rules_a_round_breaks_are_refused_and_nothing_changes(table):
    services.record_round(services.Change.to(table),
                          {**EXAMPLE_1, "A": Entry("dead", "JK JK JK 7H")})
    no_jokers = dataclasses.replace(EXAMPLE_RULES, jokers=2)
    version = table.version
    with pytest.raises(services.Unscorable) as refused:
        services.change_house_rules(services.Change.to(table, seen=version), no_jokers, "RM")
    assert (refused.value.number, refused.value.new_rules) == (1, True)
    assert [(p.code, p.values) for p in refused.value.problems] == [
        ("too_many_copies", {"card": JOKER, "count": 3, "limit": 2, "players": ("A",)})]
    db.session.rollback()
    assert table.rules == EXAMPLE_RULES and table.version == version
    assert last_event("session.rules") is None


def test_stale_rules_change_is_a_conflict(table):
    version = table.version
    services.record_round(services.Change.to(table), EXAMPLE_1)
    with pytest.raises(services.Conflict):
        services.change_house_rules(services.Change.to(table, seen=version), EXAMPLE_RULES, "RM")


def test_a_rename_shows_everywhere_and_is_on_record(table):
    services.record_round(services.Change.to(table), EXAMPLE_1)
    player = table.seats[0].player
    services.rename_player(services.Change(table.group, device="Ann's phone"), player,
                           "  Ah   Seng ")
    assert player.name == "Ah Seng"
    assert next(s.player.name for s in table.seats) == "Ah Seng"
    event = last_event("player.rename")
    assert (event.before, event.after, event.device) == (
        {"name": "A"}, {"name": "Ah Seng"}, "Ann's phone")


@pytest.mark.parametrize("name, message", [("b", "called b already"), ("", "1 to 30"),
                                           ("x" * 31, "1 to 30")])
def test_a_rename_to_a_taken_or_bad_name_is_refused(table, name, message):
    player = table.seats[0].player
    with pytest.raises(services.ServiceError, match=message):
        services.rename_player(services.Change(table.group), player, name)
    db.session.rollback()
    assert player.name == "A"


def test_a_rename_to_a_taken_name_in_other_letters_is_refused(table):
    services.start_session(services.Change(the_group()),
                           ["Élise", "A"], HouseRules.penang(), first_dealer="A")
    player = table.seats[1].player
    with pytest.raises(services.ServiceError, match="called élise already"):
        services.rename_player(services.Change(table.group), player, "élise")
    db.session.rollback()
    assert player.name == "B"


def test_two_renames_to_one_name_at_once_keep_one(table, monkeypatch):
    """Another phone renamed a player "Casey" just after this one checked the
    group's names: the database refuses the twin, and the phone is told."""
    other, player = table.seats[0].player, table.seats[1].player
    services.rename_player(services.Change(table.group), other, "Casey")
    monkeypatch.setattr(services.sessions, "group_players", lambda group_id: [])
    with pytest.raises(services.ServiceError, match="called casey already"):
        services.rename_player(services.Change(table.group), player, "casey")
    assert db.session.get(type(player), player.id).name == "B"
    assert db.session.scalar(sa.select(sa.func.count()).select_from(AuditEvent).where(
        AuditEvent.action == "player.rename")) == 1


def test_the_player_page_corrects_a_name(client, table):
    player_id = table.seats[1].player_id
    url = f"/players/{player_id}"
    token = csrf_token(client, url)
    response = client.post(f"{url}/name", data={"csrf_token": token, "name": "Bernard"})
    assert response.status_code == 302 and response.location == url
    assert "<h1>Bernard</h1>" in client.get(url).text
    assert last_event("player.rename").device == "Test phone"


def test_a_refused_name_is_shown_back_with_the_reason(client, table):
    url = f"/players/{table.seats[1].player_id}"
    response = client.post(f"{url}/name", data={"csrf_token": csrf_token(client, url),
                                                "name": "c"})
    assert response.status_code == 422
    assert "Someone in the group is called c already" in response.text
    assert 'value="c"' in response.text
    db.session.expire_all()
    assert table.seats[1].player.name == "B"


def deleted_round_event(session):
    return db.session.scalars(sa.select(AuditEvent).where(
        AuditEvent.session_id == session.id, AuditEvent.action == "round.delete")).one()


def test_a_round_deleted_before_a_rename_is_restored_to_the_renamed_player(table):
    services.record_round(services.Change.to(table), EXAMPLE_1)
    services.record_round(services.Change.to(table), EXAMPLE_2)
    money = net_by_name(table.rounds[0])
    services.delete_round(services.Change.to(table), table.rounds[0])
    player = table.seats[0].player
    services.rename_player(services.Change(table.group), player, "Ah Seng")
    services.rename_player(services.Change(table.group), player, "Seng")

    restored = services.restore_round(services.Change.to(table), deleted_round_event(table))

    assert restored.number == 1 and [r.number for r in table.rounds] == [1, 2]
    assert net_by_name(restored) == {("Seng" if n == "A" else n): c for n, c in money.items()}


@pytest.mark.parametrize("damage", [
    lambda kept: kept.pop("entries"),
    lambda kept: kept.update(number="one"),
    lambda kept: kept["entries"][0].update(cards="ZZ 9Q"),
    lambda kept: kept["entries"][0].update(outcome="won"),
    lambda kept: kept.update(entries="A"),
])
def test_a_damaged_record_of_a_deleted_round_is_refused_cleanly(table, damage):
    services.record_round(services.Change.to(table), EXAMPLE_1)
    services.delete_round(services.Change.to(table), table.rounds[0])
    event = deleted_round_event(table)
    kept = json.loads(json.dumps(event.before))
    damage(kept)
    event.before = kept
    db.session.commit()
    version = table.version
    with pytest.raises(services.ServiceError):
        services.restore_round(services.Change.to(table), event)
    db.session.rollback()
    assert table.rounds == [] and table.version == version


def test_a_deleted_round_that_cant_be_scored_stays_deleted_and_says_why(client, table):
    """A record the engine refuses (an edited import): the page words its problems."""
    services.record_round(services.Change.to(table), EXAMPLE_1)
    services.delete_round(services.Change.to(table), table.rounds[0])
    event = deleted_round_event(table)
    kept = json.loads(json.dumps(event.before))
    kept["entries"][0].update(outcome="hu", cards="9C")
    event.before = kept
    db.session.commit()
    url = f"/sessions/{table.id}/changes/{event.id}/restore"
    response = client.post(url, data=form_values(client.get(f"/sessions/{table.id}/changes").text,
                                                 url))
    assert response.status_code == 409
    assert ("Round 1 can&#39;t be scored: A went out (Hu) but has a card entered: 9C"
            in response.text)
    db.session.expire_all()
    assert table.rounds == []


def rules_form(client, session_id):
    """What the house rules page's form posts, as the page has it."""
    url = f"/sessions/{session_id}/rules"
    return form_values(client.get(url).text, url)


def test_the_rules_page_rescores_the_session(client, table):
    services.record_round(services.Change.to(table), EXAMPLE_2)
    fields = rules_form(client, table.id)
    assert fields["unit_cents"] == "1.00" and fields["tiers"] == "0 1 2 3"
    assert fields["no_passport_last"] == "y" and fields["direction"] == "clockwise"
    before = net_by_name(table.rounds[0])
    response = client.post(f"/sessions/{table.id}/rules", data={**fields, "unit_cents": "2.50"})
    assert response.status_code == 302 and response.location == f"/sessions/{table.id}"
    db.session.expire_all()
    assert table.rules == dataclasses.replace(EXAMPLE_RULES, unit_cents=250)
    # Example 2's money is all tiers: it grows by 2.5 times.
    assert net_by_name(table.rounds[0]) == {n: c * 5 // 2 for n, c in before.items()}
    assert last_event("session.rules").device == "Test phone"


def test_a_stale_rules_page_is_refused_and_keeps_what_was_typed(client, table):
    fields = rules_form(client, table.id)
    services.record_round(services.Change.to(table), EXAMPLE_1)
    response = client.post(f"/sessions/{table.id}/rules", data={**fields, "hu_cents": "9.00"})
    assert response.status_code == 409
    assert "changed from another phone" in response.text
    assert 'value="9.00"' in response.text
    db.session.expire_all()
    assert table.rules == EXAMPLE_RULES
    again = dict(fields, hu_cents="9.00", version=str(table.version))
    assert client.post(f"/sessions/{table.id}/rules", data=again).status_code == 302


def test_rules_a_round_breaks_are_shown_with_the_reason(client, table):
    services.record_round(services.Change.to(table),
                          {**EXAMPLE_1, "A": Entry("dead", "JK JK JK 7H")})
    fields = rules_form(client, table.id)
    response = client.post(f"/sessions/{table.id}/rules", data={**fields, "jokers": "2"})
    assert response.status_code == 422
    assert ("Round 1 can&#39;t be scored under these rules: 3 jokers entered (A), but the deck "
            "has only 2") in response.text
    db.session.expire_all()
    assert table.rules == EXAMPLE_RULES


def test_an_ended_session_must_be_reopened_first(client, table):
    services.end_session(services.Change.to(table))
    response = client.get(f"/sessions/{table.id}/rules")
    assert response.status_code == 409 and "Reopen it" in response.text
