"""The rules in the app (issue 26): a rules page, a one-line explanation of
every house rule where it is set, a helper line for each outcome on the
round form, and what the chosen rules pay on the new session's page."""

import pytest

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.forms.rounds import OUTCOME_HELP
from scorekeeper.forms.sessions import RULE_FIELDS, HouseRulesForm, rule_texts
from scorekeeper.models import GameSession
from scorekeeper.rules import Entry, HouseRules, payouts
from tests.conftest import the_group
from tests.web.helpers import form_values, parsed, visible_text

pytestmark = pytest.mark.any_database

RULE_BOOK_LINK = '<a href="/rules">'


@pytest.fixture
def explained(app):
    """Each house rule's label and one-line explanation, as the form has them."""
    with app.test_request_context():
        form = HouseRulesForm(meta={"csrf": False})
        return {name: (str(form[name].label.text), form[name].description)
                for name in RULE_FIELDS}


def start(app, names=("Ann", "Ben", "Cat", "Dan"), rules=None) -> int:
    with app.app_context():
        return services.start_session(services.Change(the_group()), list(names),
                                      rules or HouseRules.penang(), first_dealer=names[0]).id


def test_the_rules_page_explains_the_game_each_outcome_and_every_house_rule(
        anonymous, explained):
    response = anonymous.get("/rules")  # a rule book is for anyone, signed in or not
    assert response.status_code == 200
    words = visible_text(response)
    for heading in ("The game", "How a round ended, for each player", "Cards, points and melds",
                    "Places and money", "Who deals, and settling up", "Every house rule"):
        assert heading in words
    for line in OUTCOME_HELP.values():
        assert str(line) in words
    assert "Dead: didn’t go out; enter what you still hold." in words
    rules = parsed(response).select(".book-rules li")
    assert len(rules) == len(RULE_FIELDS) == len(explained)
    for item, (label, explanation) in zip(rules, explained.values(), strict=True):
        text = " ".join(item.text.split())
        assert text.startswith(f"{label} {explanation} Penang: "), text
        assert " Rummi: " in text
    passport = " ".join(rules[RULE_FIELDS.index("passport")].text.split())
    assert passport.endswith("Penang: Any meld Rummi: Run only")
    extra = " ".join(rules[RULE_FIELDS.index("extra_pack_players")].text.split())
    assert extra.endswith("Penang: 5 players Rummi: Never")
    # The example is the engine's: Penang at four.
    assert "1st gets RM 6, 2nd pays RM 1, 3rd pays RM 2, 4th pays RM 3." in words


@pytest.mark.parametrize("page", ["new session", "house rules"])
def test_every_house_rule_has_its_explanation_where_it_is_set(app, client, explained, page):
    sid = start(app)
    response = client.get("/sessions/new" if page == "new session" else f"/sessions/{sid}/rules")
    assert response.status_code == 200
    html = parsed(response)
    for name, (_, explanation) in explained.items():
        (control,) = html.select(f"#{name}")
        (hint,) = html.select(f"#{name}-hint")
        assert control.attrs["aria-describedby"] == f"{name}-hint", name
        assert " ".join(hint.text.split()) == explanation
    assert RULE_BOOK_LINK in response.text


def test_the_round_form_has_a_helper_line_for_each_outcome(app, client):
    sid = start(app)
    for page in ("rounds/new", "rounds/1/edit"):
        if page == "rounds/1/edit":
            with app.app_context():
                services.record_round(services.Change.to(db.session.get(GameSession, sid)), {
                    name: Entry("dead", cards) for name, cards
                    in zip(("Ann", "Ben", "Cat", "Dan"), ("2S", "3S", "4S", "5S"), strict=True)})
        lines = parsed(client.get(f"/sessions/{sid}/{page}")).texts(".round-how li")
        assert lines == list(OUTCOME_HELP.values()), page  # behind the "?", with the notation
        assert "Dead: didn’t go out; enter what you still hold." in lines


def test_the_scoreboard_links_the_rules(app, client):
    sid = start(app)
    assert RULE_BOOK_LINK in client.get(f"/sessions/{sid}").text


def test_the_new_session_page_says_what_the_chosen_rules_pay(app, client):
    # A group's first session: Penang, no names typed yet, a table of four.
    words = visible_text(client.get("/sessions/new"))
    assert ("What a round pays With 4 players, a round nobody goes out of: 1st gets RM 6, "
            "2nd pays RM 1, 3rd pays RM 2, 4th pays RM 3. Hu: each other player pays the "
            "winner RM 3 (RM 9 in all). Tien Hu: RM 6 each (RM 18).") in words
    # As last time: last time's rules (Rummi's, in SGD) at last time's table of three.
    sid = start(app, ("Ann", "Ben", "Cat"), HouseRules.rummi())
    with app.app_context():
        services.end_session(services.Change.to(db.session.get(GameSession, sid)))
    words = visible_text(client.get("/sessions/new"))
    assert ("With 3 players, a round nobody goes out of: 1st gets RM 3.00, 2nd pays RM 1.00, "
            "3rd pays RM 2.00.") in words
    assert "Jokers and aces held: RM 0.50 a unit, settled between every two players." in words


def rules_query(rules: HouseRules, **typed) -> dict[str, str]:
    """The new-session form's fields for ``rules``, as sessions.js sends them."""
    fields = {name: ("y" if value is True else value)
              for name, value in rule_texts(rules).items() if value is not False}
    return fields | {"currency": "RM"} | typed


@pytest.mark.parametrize("n", [2, 3, 5, 6])
def test_the_figures_follow_the_rules_and_the_table_as_typed(client, n):
    """The box alone, for the form as it is typed: the engine's figures for
    these rules (tiers 0 2 5 at RM 1.50) at the table of the names typed."""
    rules = HouseRules(tiers=(0, 2, 5), unit_cents=150, hu_cents=250)
    seats = {f"seats-{i}": f"P{i}" for i in range(n)}
    response = client.get("/sessions/new/pays", query_string=rules_query(rules, **seats))
    assert response.status_code == 200
    (box,) = parsed(response).select("#new-pays")
    words = " ".join(box.text.split())
    places = payouts(rules, n).places
    expected = [f"1st gets RM {places[0] // 100}.{places[0] % 100:02d}"] + [
        f"{i}{'nd' if i == 2 else 'rd' if i == 3 else 'th'} pays RM "
        f"{-cents // 100}.{-cents % 100:02d}" for i, cents in enumerate(places[1:], start=2)]
    assert f"With {n} players, a round nobody goes out of: {', '.join(expected)}." in words
    assert f"winner RM 2.50 (RM {2.5 * (n - 1):.2f} in all)" in words


def test_other_schemes_say_how_they_pay(client):
    per_point = client.get("/sessions/new/pays", query_string=rules_query(
        HouseRules(scheme="per_point", point_cents=20)))
    assert ("every two players settle the difference in points at RM 0.20 a point."
            in visible_text(per_point))
    none = client.get("/sessions/new/pays", query_string=rules_query(HouseRules(scheme="none")))
    assert "Points only: no money changes hands." in visible_text(none)


@pytest.mark.parametrize("typed", [{"tiers": "one two"}, {"unit_cents": "1.005"},
                                   {"jokers": "999"}, {"passport": "any-old"},
                                   {"extra_pack_players": "x"}, {"hu_cents": ""}])
def test_rules_that_cant_be_read_pay_nothing_yet_and_say_so(client, typed):
    response = client.get("/sessions/new/pays",
                          query_string=rules_query(HouseRules.penang(), **typed))
    assert response.status_code == 200
    assert "Fill in the rules below correctly to see what they pay." in visible_text(response)


def test_the_box_is_for_signed_in_phones(anonymous):
    response = anonymous.get("/sessions/new/pays")
    assert response.status_code == 302 and "/sign-in" in response.location


def test_a_refused_form_shows_what_its_rules_pay(client):
    fields = form_values(client.get("/sessions/new").text, "/sessions/new")
    fields |= {"seats-0": "Ann", "tiers": "0 1 4"}  # one name: refused, shown again
    words = visible_text(client.post("/sessions/new", data=fields))
    assert "Nothing was saved" in words
    assert "With 4 players, a round nobody goes out of: 1st gets RM 9, 2nd pays RM 1, " \
           "3rd pays RM 4, 4th pays RM 4." in words
