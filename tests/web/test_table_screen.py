"""The table screen (issue 29): a share link's page for a tablet in the
middle of the table: who deals and plays first, the totals by place, the
last round and a place for the money chart; live and kept awake, open to
anyone with the link, and no more than the share board shows."""

import hashlib
import re

import sqlalchemy as sa
from itsdangerous import URLSafeSerializer

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Group, ShareLink
from tests.conftest import GROUP_NAME, PASSPHRASE, the_group
from tests.web.examples import (
    EXAMPLE_1,
    EXAMPLE_2,
    EXAMPLE_3,
    EXAMPLE_RULES,
    NO_HU,
    make_session,
    player_id,
)
from tests.web.helpers import (
    count_statements,
    csrf_token,
    forms_on,
    make_link,
    parsed,
    visible_text,
)


def session(app, *rounds, ended=False) -> int:
    """The rule book's examples' table: A, B, C and D, D dealing first."""
    return make_session(app, rounds, names="ABCD", rules=EXAMPLE_RULES, dealer="D", ended=ended)


def rows(page, css) -> list[list[str]]:
    return [row.texts("th") + row.texts("td") for row in page.select(f"{css} tbody tr")]


def test_it_shows_who_deals_the_totals_by_place_and_the_last_round(app, client, anonymous):
    session_id = session(app, EXAMPLE_1, EXAMPLE_2)
    url = make_link(client, session_id)
    response = anonymous.get(f"{url}/table")
    assert response.status_code == 200
    assert "noindex" in response.headers["X-Robots-Tag"]
    page, board = parsed(response), parsed(anonymous.get(url))
    assert page.texts("h1")[0].startswith(GROUP_NAME)
    # Who deals and plays first as the share board says it.
    assert page.texts(".table-next h2") == ["Round 3"]
    assert page.texts(".table-deal") == board.texts(".board-deal")
    assert page.texts(".table-first") == board.texts(".board-first")
    assert page.texts(".table-order") == board.texts(".board-order")
    # docs/RULES.md §12: after examples 1 and 2, C leads, up RM 15.00 with 9 points;
    # by place, with the points and money of the board's totals.
    totals = rows(page, ".table-totals")
    assert totals[0] == ["C leads", "1", "9", "+15.00"]
    assert [place for _, place, *_ in totals] == sorted(place for _, place, *_ in totals)
    assert sorted([name, *rest] for name, _, *rest in totals) == sorted(
        rows(board, ".board-totals"))
    # The last round: round 2, its winner first, as the board's row of it.
    assert page.texts(".table-last h2") == ["Last round: 2"]
    last = rows(page, ".table-last")
    assert last[0][0].startswith("★winner: ")
    (round_2,) = [r for r in board.select(".board-rounds tbody tr") if r.texts("th") == ["2"]]
    names = board.texts(".board-rounds thead th")[1:]
    by_name = dict(zip(names, round_2.select("td"), strict=True))
    assert sorted(last) == sorted(
        [("★winner: " if "★" in by_name[n].text else "") + n,
         by_name[n].texts(".board-points")[0].removeprefix("★winner: "),
         *by_name[n].texts(".board-money")]
        for n in names)
    # The money chart, as the share board draws it, inside the live region.
    assert page.select("#live-page .table-chart svg")
    assert page.select(".table-chart svg")[0].text == board.select(".chart-box svg")[0].text
    assert page.texts(".table-chart .chart-table td") == board.texts(".chart-box .chart-table td")
    # Live as the share board (the same stream and region), and kept awake.
    live = page.select("body")[0].attrs
    assert live["data-live"] == f"/share/{url.rsplit('/', 1)[1]}/live"
    assert live["data-live-version"] == board.select("body")[0].attrs["data-live-version"]
    assert page.select("#live-page") and page.select(".wake")
    assert "/static/js/live-regions." in response.text and "/static/js/wake." in response.text


def test_before_the_first_round_and_after_the_last(app, client, anonymous):
    fresh = make_link(client, session(app))
    page = parsed(anonymous.get(f"{fresh}/table"))
    assert page.texts(".table-deal") == ["D deals"] and page.texts(".table-next h2") == ["Round 1"]
    assert page.texts(".table-last p") == ["No rounds yet."]
    assert not page.select(".table-chart")
    ended = make_link(client, session(app, EXAMPLE_1, ended=True))
    response = anonymous.get(f"{ended}/table")
    page = parsed(response)
    assert page.texts(".table-ended") == ["This session has ended."]
    assert not page.select(".table-next") and not page.select(".wake")
    assert page.texts(".table-last h2") == ["Last round: 1"]


def test_it_shows_no_payment_details_and_changes_nothing(app, client, anonymous):
    session_id = make_session(app, [NO_HU])
    cat = player_id(app, "Cat")
    page = f"/players/{cat}/payment"
    client.post(page, data={"csrf_token": csrf_token(client, page), "kind": "duitnow_mobile",
                            "number": "0123456789", "qr_text": ""})
    assert "+60123456789" in client.get(f"/sessions/{session_id}/settle").text
    url = make_link(client, session_id)
    for viewer in (anonymous, client):
        html = viewer.get(f"{url}/table").text
        assert "6012345678" not in html
        assert not re.search(r"qr-\d+-\d+|payto", html)
        main = html[html.index("<main"):html.index("</main>")]
        assert "<form" not in main and "/sessions/" not in html and "/rounds" not in html
        assert [form.action for form in forms_on(html)] == ["/theme", "/language"]
    assert anonymous.post(f"{url}/table").status_code in (400, 405)


def test_a_revoked_link_or_a_new_passphrase_opens_no_table_screen(app, client, anonymous,
                                                                  group):
    session_id = session(app, EXAMPLE_1)
    first, second = make_link(client, session_id), make_link(client, session_id)
    assert anonymous.get(f"{first}/table").status_code == 200
    with app.app_context():
        link = db.session.scalars(sa.select(ShareLink).order_by(ShareLink.id)).first()
        services.revoke_share_link(services.Change.to(link.session), link)
    answer = anonymous.get(f"{first}/table")
    assert answer.status_code == 404 and "Page not found" in answer.text
    assert anonymous.get(f"{second}/table").status_code == 200
    with app.app_context():
        services.change_passphrase(services.Change(the_group()), PASSPHRASE,
                                   "a brand new passphrase")
    assert anonymous.get(f"{second}/table").status_code == 404
    assert anonymous.get("/share/nothing/table").status_code == 404


def test_another_groups_link_id_signed_with_this_groups_key_opens_nothing(app, client,
                                                                          anonymous):
    """A token is signed with its own group's key: the id of another group's
    link, signed as this group's, opens nothing."""
    mine = make_link(client, session(app, EXAMPLE_1))
    with app.app_context():
        other = services.create_group("Other table", "another passphrase")
        theirs = services.start_session(services.Change(other), ["Wan", "Xi", "Yu"],
                                        EXAMPLE_RULES, "Wan")
        link = services.create_share_link(services.Change.to(theirs))
        ours = db.session.scalar(sa.select(Group).where(Group.name == GROUP_NAME))
        forged = URLSafeSerializer(app.config["SECRET_KEY"] + ours.passphrase_hash,
                                   salt="share-link",
                                   signer_kwargs={"digest_method": hashlib.sha256}).dumps(link.id)
    assert anonymous.get(f"/share/{forged}/table").status_code == 404
    assert "Wan" not in anonymous.get(f"{mine}/table").text


def test_the_share_page_links_each_open_link_s_table_screen(app, client):
    session_id = session(app, EXAMPLE_1)
    make_link(client, session_id)
    second = make_link(client, session_id)
    manage = f"/sessions/{session_id}/share"
    assert client.post(f"{manage}/{first_id(app)}/revoke",
                       data={"csrf_token": csrf_token(client, manage)}).status_code == 302
    page = parsed(client.get(manage))
    screens = [a.attrs["href"] for a in page.select("a.button") if a.text == "Table screen"]
    assert screens == [f"{second}/table"]
    assert "tablet in the middle of the table" in visible_text(client.get(manage))


def first_id(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.min(ShareLink.id)))


def test_it_takes_a_fixed_number_of_statements(app, client, anonymous):
    session_id = session(app, EXAMPLE_1)
    url = f"{make_link(client, session_id)}/table"
    few = count_statements(app, anonymous, url)
    with app.app_context():
        game = db.session.get(GameSession, session_id)
        for entries in (EXAMPLE_2, EXAMPLE_3, EXAMPLE_1, EXAMPLE_2):
            services.record_round(services.Change.to(game), entries)
    assert count_statements(app, anonymous, url) == few <= 12
