"""The history pages: finished sessions, one session's record, a player's record."""

import dataclasses
import re
from datetime import datetime

import pytest

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.limits import DEFAULT_TIMEZONE
from scorekeeper.models import GameSession, Player
from scorekeeper.rules import Entry, HouseRules
from scorekeeper.web.filters import long_date
from scorekeeper.web.history import rules_summary
from scorekeeper.web.presenters.rules import preset_words
from tests.conftest import the_group
from tests.web.examples import EXAMPLE_RULES as RULES
from tests.web.examples import TIEN_HU, set_paid
from tests.web.helpers import WEIGHT_LIMIT, count_statements, page_weight, visible_text


def player_id(name: str) -> int:
    return db.session.scalar(db.select(Player.id).where(Player.name == name))


def finished_sessions(app, count: int, names=("P", "Q")) -> list[int]:
    with app.app_context():
        ids = []
        for _ in range(count):
            session = services.start_session(services.Change(the_group()),
                                             list(names), RULES, first_dealer=names[0])
            services.end_session(services.Change.to(session))
            ids.append(session.id)
        return ids


def session_links(response) -> list[int]:
    """The sessions a page lists (not those its charts name: best and worst evening)."""
    html = re.sub(r'<section class="chart-box".*?</section>', "", response.get_data(as_text=True),
                  flags=re.S)
    return [int(n) for n in re.findall(r'href="/history/sessions/(\d+)"', html)]


# The history list


def test_long_date():
    assert long_date(datetime(2026, 11, 21, 20, 15), "UTC") == "Sat 21 Nov 2026"
    assert long_date(datetime(2027, 1, 3), "UTC") == "Sun 3 Jan 2027"


def test_history_without_finished_sessions(client, app):
    with app.app_context():
        services.start_session(services.Change(the_group()),
                               ["A", "B"], RULES, first_dealer="A")  # in play
    page = visible_text(client.get("/history"))
    assert "No finished sessions yet" in page


def test_history_lists_finished_sessions_newest_first(client, app, nights):
    response = client.get("/history")
    assert response.status_code == 200
    assert session_links(response) == [nights["two"], nights["one"]]
    page = visible_text(response)
    assert "2 finished sessions" in page
    with app.app_context():
        day = long_date(db.session.get(GameSession, nights["one"]).started_at, DEFAULT_TIMEZONE)
    # date, rounds, players, top winner and amount of each session
    assert f"{day} 2 rounds A B Eve Top: A RM 10.00" in page
    assert f"{day} 3 rounds A B C D Top: C RM 11.00" in page
    body = response.get_data(as_text=True)
    assert f'href="/players/{nights["Eve"]}">Eve</a>' in body


def test_history_names_every_top_winner_of_a_tie(client, app):
    with app.app_context():
        session = services.start_session(services.Change(the_group()),
                                         ["A", "B", "C"], RULES, first_dealer="A")
        # A and B tie for first at 2 points; C pays 2 units, A and B split it
        services.record_round(services.Change.to(session),
                              {"A": Entry("dead", "2S"), "B": Entry("dead", "2H"),
                               "C": Entry("dead", "KS")})
        services.end_session(services.Change.to(session))
    assert "Top: A & B RM 1.00" in visible_text(client.get("/history"))


def test_history_session_without_winnings(client, app):
    finished_sessions(app, 1)
    page = visible_text(client.get("/history"))
    assert "0 rounds" in page and "Nobody won money" in page


def test_history_filter_by_player(client, nights):
    page = client.get("/history")
    body = page.get_data(as_text=True)
    assert '<label for="player">Player</label>' in body
    options = re.findall(r'<option[^>]*value="([^"]*)"[^>]*>([^<]*)</option>', body)
    assert options == [("", "All players")] + [
        (str(nights[n]), n) for n in ["A", "B", "C", "D", "Eve", "Zed"]]
    assert '<button type="submit" class="button">Show</button>' in body

    eve = client.get(f"/history?player={nights['Eve']}")
    assert session_links(eve) == [nights["two"]]
    assert "1 finished session with Eve" in visible_text(eve)
    assert f'<option selected value="{nights["Eve"]}">Eve</option>' in eve.get_data(as_text=True)
    assert session_links(client.get(f"/history?player={nights['C']}")) == [nights["one"]]
    both = client.get(f"/history?player={nights['A']}")
    assert session_links(both) == [nights["two"], nights["one"]]


def test_the_player_filter_isolates_names(client, app):
    """An <option> holds text only (a <bdi> in it is dropped): a name that
    could reorder the text after it comes between U+2068 and U+2069."""
    bob = "Bob\u202e"
    with app.app_context():
        started = services.start_session(services.Change(the_group()), ["Ann", bob], RULES,
                                         first_dealer="Ann")
        services.end_session(services.Change.to(started))
    body = client.get("/history").get_data(as_text=True)
    options = re.findall(r'<option[^>]*value="([^"]*)"[^>]*>([^<]*)</option>', body)
    assert [label for _, label in options] == ["All players", "Ann", f"\u2068{bob}\u2069"]
    chosen = client.get(f"/history?player={options[2][0]}").get_data(as_text=True)
    assert f'<option selected value="{options[2][0]}">\u2068{bob}\u2069</option>' in chosen


def test_history_filter_for_someone_without_finished_sessions(client, nights):
    page = visible_text(client.get(f"/history?player={nights['Zed']}"))
    assert "No sessions with Zed." in page


@pytest.mark.parametrize("value", ["9999", "abc"])
def test_history_filter_rejects_unknown_players(client, nights, value):
    response = client.get(f"/history?player={value}")
    assert response.status_code == 200
    assert "Choose a player from the list." in visible_text(response)
    assert 'aria-invalid="true"' in response.get_data(as_text=True)
    assert session_links(response) == [nights["two"], nights["one"]]


def test_history_pages_ten_at_a_time(client, app):
    ids = finished_sessions(app, 12)
    newest_first = ids[::-1]
    first = client.get("/history")
    assert session_links(first) == newest_first[:10]
    body = first.get_data(as_text=True)
    assert 'href="/history?page=2">Older' in body and "Newer" not in body
    assert "Page 1 of 2" in visible_text(first)
    assert "history-pager-jump" not in body  # two pages: Older and Newer suffice
    second = client.get("/history?page=2")
    assert session_links(second) == newest_first[10:]
    body = second.get_data(as_text=True)
    assert 'href="/history?page=1">← Newer' in body and "Older" not in body
    assert session_links(client.get("/history?page=oops")) == newest_first[:10]
    for page in (0, 3, -1):
        assert client.get(f"/history?page={page}").status_code == 404


def test_history_pages_keep_the_player_filter(client, app):
    finished_sessions(app, 11, names=("P", "Q"))
    finished_sessions(app, 3, names=("R", "Q"))
    with app.app_context():
        q = player_id("Q")
    body = client.get(f"/history?player={q}").get_data(as_text=True)
    assert f'href="/history?page=2&amp;player={q}">Older' in body
    assert len(session_links(client.get(f"/history?page=2&player={q}"))) == 4
    assert "Page 1 of 2" in visible_text(client.get(f"/history?player={q}"))


def test_past_two_pages_a_box_goes_to_any_page_keeping_the_filter(client, app):
    finished_sessions(app, 21, names=("P", "Q"))
    finished_sessions(app, 2, names=("R", "S"))
    with app.app_context():
        q = player_id("Q")
    body = client.get(f"/history?player={q}").text
    jump = re.search(r'<form class="history-pager-jump" method="get" action="/history">'
                     r'(.*?)</form>', body, re.S)[1]
    assert f'<input type="hidden" name="player" value="{q}">' in jump
    assert '<input id="page-jump" type="number" name="page" min="1" max="3" value="1"' in jump
    # what the box sends
    assert len(session_links(client.get("/history", query_string={"player": q, "page": 3}))) == 1
    unfiltered = re.search(r'<form class="history-pager-jump".*?</form>',
                           client.get("/history?page=2").text, re.S)[0]
    assert 'type="hidden"' not in unfiltered and 'max="3" value="2"' in unfiltered


def test_history_page_out_of_range_for_a_player(client, app, nights):
    assert client.get(f"/history?player={nights['Eve']}&page=2").status_code == 404


# One session


def test_session_record(client, app, nights):
    with app.app_context():
        one = db.session.get(GameSession, nights["one"])
        plan = services.settlement(one)
        paid = plan[0].transfer
        set_paid(services.Change.to(one), paid.payer.id, paid.payee.id, paid.cents, True)
        plan = services.settlement(one)
        day = long_date(one.started_at, DEFAULT_TIMEZONE)
        transfers = [(s.transfer.payer.name, s.transfer.payee.name, s.transfer.cents, s.paid)
                     for s in plan]
    response = client.get(f"/history/sessions/{nights['one']}")
    assert response.status_code == 200
    page = visible_text(response)
    assert f"{day} 3 rounds, finished." in page
    assert "Open the scoreboard" not in page
    # balances in seat order
    assert "Balances Player RM A −6.50 B +0.50 C +11.00 D −5.00" in page
    # coloured as on the scoreboard
    assert '<td class="num"><span class="sessions-gain">+11.00</span></td>' in response.text
    assert '<td class="num"><span class="sessions-loss">−6.50</span></td>' in response.text
    # the settlement with its paid marks
    assert len(transfers) == 3
    for payer, payee, cents, is_paid in transfers:
        mark = "✓ paid" if is_paid else "not paid"
        assert f"{payer} → {payee} RM {cents // 100}.{cents % 100:02d} {mark}" in page
    assert page.count("✓ paid") == 1
    # house rules
    assert "House rules: Own rules" in page
    for line in ["Passport a run only", "Money tiers 0·1·2·3 × RM 1.00",
                 "Hu RM 3.00 from each player", "Tien Hu RM 6.00 from each player",
                 "Joker/ace RM 0.50 a unit", "Play goes clockwise", "Next dealer the winner"]:
        assert line in page
    # every round in playing order: player, points, position, money, then the cards
    assert ("Round 1 dealer D A 27 3 −1.00 JK 7♥ B 32 4 −8.00 A♣ A♣ 2♠ "
            "C 7 1 +9.00 3♦ 4♦ D 24 2 0.00 A♠ 9♥") in page
    assert "Round 2 dealer C D 20 4 −3.00 K♠ Q♠ A 10 2 −1.50 5♠ 5♥" in page
    assert "Round 3 dealer C D 8 2 −2.00 4♠ 4♦ A 23 4 −4.00 JK 3♣ B Hu 0 1 +10.00 C 15 3" in page
    body = response.get_data(as_text=True)
    assert '<b class="j">JK</b> <b class="r">7♥</b>' in body
    assert '<b>A♣</b> <b>A♣</b> <b>2♠</b>' in body
    assert f'href="/players/{nights["C"]}">C</a>' in body


def test_session_record_with_a_tien_hu(client, nights):
    page = visible_text(client.get(f"/history/sessions/{nights['two']}"))
    assert "A Tien Hu 0 1 +12.00 A♠ 2♠ 3♠" in page
    assert "B 0 2 −6.00 Eve 0 2 −6.00" in page


def test_session_rounds_twenty_at_a_time(client, app):
    with app.app_context():
        session = services.start_session(services.Change(the_group()),
                                         ["A", "B"], RULES, first_dealer="A")
        for n in range(23):
            services.record_round(services.Change.to(session),
                                  {"A": Entry("dead", "2S"),
                                   "B": Entry("dead", f"{2 + n % 9}H 10C")})
        url = f"/history/sessions/{session.id}"
    first = client.get(url)
    page = visible_text(first)
    assert "23 rounds so far" in page
    assert "Round 20 " in page and "Round 21 " not in page
    assert f'href="{url}?page=2#rounds-title">Later →' in first.get_data(as_text=True)
    second = visible_text(client.get(f"{url}?page=2"))
    assert "23 rounds so far" in second
    assert "Round 20 " not in second
    assert "Round 21 dealer A" in second
    assert "Round 23 dealer A B 16 2 −1.00 6♥ 10♣ A 2 1 +1.00 2♠" in second
    assert client.get(f"{url}?page=3").status_code == 404


def test_a_long_session_page_stays_light(client, app):
    """20 rounds of four hands of five cards: within the page budget, HTML
    with the style sheets and scripts it loads, as sent (helpers.page_weight)."""
    hands = ["2S 4H 6D 8C 10S", "3S 5H 7D 9C JS", "4S 6H 8D 10C QS", "5S 7H 9D JC KS"]
    with app.app_context():
        session = services.start_session(services.Change(the_group()),
                                         list("ABCD"), RULES, first_dealer="A")
        for i in range(25):  # each round's hands in other seats: no round repeats the last
            entries = map(Entry, ["dead"] * 4, hands[i % 4:] + hands[:i % 4])
            services.record_round(services.Change.to(session),
                                  dict(zip("ABCD", entries, strict=True)))
        url = f"/history/sessions/{session.id}"
    body = client.get(url).get_data()
    assert body.count(b"</b>") == 20 * 4 * 5
    assert page_weight(body) < WEIGHT_LIMIT


def test_session_in_play_links_to_the_scoreboard(client, nights):
    response = client.get(f"/history/sessions/{nights['three']}")
    assert response.status_code == 200
    page = visible_text(response)
    assert "0 rounds so far: still in play." in page
    assert "Open the scoreboard" in page
    assert f'href="/sessions/{nights["three"]}"' in response.get_data(as_text=True)
    assert "No rounds were played." in page
    assert "Nobody owes anything." in page
    assert "Who pays whom so far" in page


def test_unknown_session_is_404(client, nights):
    assert client.get("/history/sessions/9999").status_code == 404


def test_rules_summaries():
    assert preset_words(HouseRules.penang()) == "Penang"
    assert preset_words(HouseRules.rummi()) == "Rummi"
    assert preset_words(RULES) == "Own rules"
    assert dict(rules_summary(HouseRules.penang(), "RM")) == {
        "Passport": "any meld", "Money": "tiers 0·1·2·3·4·5 × RM 1.00",
        "Hu": "RM 3.00 from each player", "Tien Hu": "RM 6.00 from each player",
        "Joker/ace": "off", "Play goes": "clockwise", "Next dealer": "the winner"}
    per_point = dataclasses.replace(HouseRules.rummi(), scheme="per_point", dealer_rule="loser")
    summary = dict(rules_summary(per_point, "$"))
    assert summary["Money"] == "$ 0.10 a point"
    assert summary["Play goes"] == "anticlockwise"
    assert summary["Next dealer"] == "the worst loser"
    points_only = dataclasses.replace(HouseRules.penang(), scheme="none", dealer_rule="rotate")
    assert dict(rules_summary(points_only, "RM")) == {
        "Passport": "any meld", "Money": "none, points only",
        "Play goes": "clockwise", "Next dealer": "the next seat"}


# A player's record


def stats(page: str) -> str:
    return page[page.index("Sessions"):page.index("Wins are")]


def test_player_record(client, app, nights):
    response = client.get(f"/players/{nights['A']}")
    assert response.status_code == 200
    page = visible_text(response)
    # A: 3 sessions (one in play), 5 rounds, won one (the Tien Hu), no Hu;
    # points 27+10+23 and 0+20 = 80 over 5 rounds = 16.0
    assert stats(page) == ("Sessions 3 Rounds 5 Wins 1 Hu 0 Tien Hu 1 "
                           "Average points 16.0 ")
    assert "over 5 rounds" in page
    # won in session two, lost in session one; nothing yet in three
    assert "Won +10.00 Lost −6.50 Net +3.50" in page
    with app.app_context():
        days = {k: long_date(db.session.get(GameSession, nights[k]).started_at, DEFAULT_TIMEZONE)
                for k in ("one", "two", "three")}
    assert (f"{days['three']} in play 0 RM 0.00 {days['two']} 2 RM +10.00 "
            f"{days['one']} 3 RM −6.50") in page
    assert session_links(response) == [nights["three"], nights["two"], nights["one"]]


def test_player_average_leaves_out_someone_elses_tien_hu(client, nights):
    page = visible_text(client.get(f"/players/{nights['B']}"))
    # B: 32+10+0 (a Hu) in session one, 5 in session two; the round of A's
    # Tien Hu is left out: 47 points over 4 rounds = 11.75, shown 11.8
    assert stats(page) == ("Sessions 2 Rounds 5 Wins 1 Hu 1 Tien Hu 0 "
                           "Average points 11.8 ")
    assert "over 4 rounds" in page
    assert "Won +0.50 Lost −7.00 Net −6.50" in page


def test_player_with_ties_for_first(client, nights):
    page = visible_text(client.get(f"/players/{nights['C']}"))
    # C: first in rounds 1 and 2 (7 and 2 points), third in round 3 (15)
    assert stats(page) == ("Sessions 1 Rounds 3 Wins 2 Hu 0 Tien Hu 0 "
                           "Average points 8.0 ")
    assert "Won +11.00 Lost 0.00 Net +11.00" in page


def test_player_without_rounds(client, nights):
    page = visible_text(client.get(f"/players/{nights['Zed']}"))
    assert stats(page) == ("Sessions 1 Rounds 0 Wins 0 Hu 0 Tien Hu 0 "
                           "Average points – ")
    assert "Won 0.00 Lost 0.00 Net 0.00" in page


def test_player_money_by_currency(client, app):
    with app.app_context():
        for currency, winner in (("RM", "A"), ("SGD", "B"), ("SGD", "A")):
            session = services.start_session(services.Change(the_group()),
                                             ["A", "B"], RULES, first_dealer="A",
                                             currency=currency)
            loser = "B" if winner == "A" else "A"
            services.record_round(services.Change.to(session), {winner: Entry("dead", "2S"),
                                                                loser: Entry("dead", "KS")})
        a = player_id("A")
    page = visible_text(client.get(f"/players/{a}"))
    # one unit (1.00) a round; SGD has two sessions so it comes first
    assert "SGD RM Won +1.00 +1.00 Lost −1.00 0.00 Net 0.00 +1.00" in page


def test_player_sessions_page_ten_at_a_time(client, app):
    ids = finished_sessions(app, 12)
    with app.app_context():
        p = player_id("P")
    first = client.get(f"/players/{p}")
    assert session_links(first) == ids[::-1][:10]
    assert f'href="/players/{p}?page=2">Older' in first.get_data(as_text=True)
    assert session_links(client.get(f"/players/{p}?page=2")) == ids[::-1][10:]
    assert client.get(f"/players/{p}?page=3").status_code == 404
    assert "Sessions 12 " in visible_text(first)


def test_unknown_player_is_404(client, nights):
    assert client.get("/players/9999").status_code == 404


# A fixed number of SQL statements per page


def pages(ids) -> list[str]:
    return ["/history", f"/history?player={ids['A']}",
            f"/history/sessions/{ids['session']}", f"/players/{ids['A']}"]


def test_statements_per_page_do_not_grow_with_the_data(client, app):
    with app.app_context():
        small = services.start_session(services.Change(the_group()),
                                       ["A", "B"], RULES, first_dealer="A")
        services.record_round(services.Change.to(small),
                              {"A": Entry("dead", "2S"), "B": Entry("dead", "KS")})
        services.end_session(services.Change.to(small))
        little = {"A": player_id("A"), "session": small.id}
    before = [count_statements(app, client, url) for url in pages(little)]

    with app.app_context():
        rounds = [
            {"A": Entry("dead", "JK 7H"), "B": Entry("hu"), "C": Entry("dead", "AH 3C")},
            {"A": Entry("dead", "5S"), "B": Entry("dead", "KS QD"), "C": Entry("dead", "2D")},
            {"A": Entry("tien_hu", TIEN_HU), "B": Entry("dead"), "C": Entry("dead")},
        ]
        for n in range(14):
            big = services.start_session(services.Change(the_group()),
                                         ["A", "B", "C", f"X{n}"][: 3 + n % 2], RULES,
                                         first_dealer="A")
            for k in range(25 if n == 13 else 6):
                entries = dict(rounds[k % 3])
                if n % 2:
                    entries[f"X{n}"] = Entry("dead", "9C 9D")
                services.record_round(services.Change.to(big), entries)
            for s in services.settlement(big)[:1]:
                set_paid(services.Change.to(big), s.transfer.payer.id, s.transfer.payee.id,
                         s.transfer.cents, True)
            services.end_session(services.Change.to(big))
        much = {"A": player_id("A"), "session": big.id}
    after = [count_statements(app, client, url) for url in pages(much)]

    assert before == after
    # A session's chart reads its rounds' money (one); a player's charts their
    # months, best and worst evening, and points left (three).
    assert after == [3, 4, 11, 7]
