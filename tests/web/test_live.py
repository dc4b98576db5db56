"""Live pages: a session's state streamed to every phone watching it, across
gunicorn's workers, and what the pages carry for static/js/live.js."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Player, ShareLink
from scorekeeper.web.once import new_key
from scorekeeper.web.watch import GONE, Watch
from tests.conftest import signed_in_client, the_group
from tests.web.examples import EXAMPLE_1, EXAMPLE_RULES
from tests.web.helpers import csrf_token, filled, make_link, send_hand, text
from tests.web.phones import SAVED, Gunicorn, Phone, serving

# A server's end closes its app's watch (phones.serving): each test has an app of its own.
pytestmark = pytest.mark.own_app


@pytest.fixture
def game(app, group):
    with app.app_context():
        game = services.start_session(services.Change(db.session.merge(group)),
                                      list("ABCD"), EXAMPLE_RULES,
                                      first_dealer="D")
        return game.id


def save_round(app, session_id, device="Mei's phone"):
    with app.app_context():
        game = db.session.get(GameSession, session_id)
        services.record_round(services.Change.to(game, device=device), EXAMPLE_1)


def player_named(app, name) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(Player.id).where(Player.name == name))


def state_of(app, session_id):
    with app.app_context():
        game = db.session.get(GameSession, session_id)
        return game.version, game.draft_version


# The state without a stream: JSON with an ETag


def test_the_state_answers_304_while_nothing_changed(app, client, game):
    first = client.get(f"/sessions/{game}/live")
    assert first.status_code == 200
    version, draft = state_of(app, game)
    assert first.json == {"version": version, "draft": draft, "own": False}
    etag = first.headers["ETag"]
    assert client.get(f"/sessions/{game}/live",
                      headers={"If-None-Match": etag}).status_code == 304
    save_round(app, game)
    changed = client.get(f"/sessions/{game}/live", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.json["version"] == version + 1


def test_a_server_that_cannot_hold_streams_answers_one_event_and_asks_again(app, client, game):
    """The test client is no server that holds many requests: as under a sync
    worker, the stream is one event and a short retry, which is polling."""
    answer = client.get(f"/sessions/{game}/live", headers={"Accept": "text/event-stream"})
    assert answer.status_code == 200
    assert answer.mimetype == "text/event-stream"
    assert "no-store" in answer.headers["Cache-Control"]
    version, draft = state_of(app, game)
    assert text(answer) == (f'retry: 1000\ndata: {{"version": {version}, "draft": {draft}, '
                            '"own": false}\n\n')


def test_a_signed_out_phone_gets_403_and_another_groups_session_404(app, anonymous, game):
    assert anonymous.get(f"/sessions/{game}/live").status_code == 403
    assert anonymous.get(f"/sessions/{game}/live/since/1").status_code == 403
    with app.app_context():
        other = services.create_group("Another table", "another passphrase")
        stranger = signed_in_client(app, other)
    assert stranger.get(f"/sessions/{game}/live").status_code == 404
    assert stranger.get(f"/sessions/{game}/live/since/1").status_code == 404


def test_the_state_says_whether_its_change_was_this_phones_own(app, client, group, game):
    """A live page says "changed on another phone" only for another phone's
    change: the state tells each phone whether the latest was its own."""
    other = signed_in_client(app, group, device="Ben's phone")
    token = csrf_token(client, f"/sessions/{game}/settle")
    assert client.post(f"/sessions/{game}/end", data={"csrf_token": token}).status_code == 302
    assert client.get(f"/sessions/{game}/live").json["own"] is True
    assert other.get(f"/sessions/{game}/live").json["own"] is False
    # The other phone's change, then: its own, no longer the first phone's.
    token = csrf_token(other, f"/sessions/{game}")
    assert other.post(f"/sessions/{game}/reopen", data={"csrf_token": token}).status_code == 302
    assert client.get(f"/sessions/{game}/live").json["own"] is False
    assert other.get(f"/sessions/{game}/live").json["own"] is True
    # A share link's reader made no change.
    link = make_link(client, game).rsplit("/", 1)[1]
    assert app.test_client().get(f"/share/{link}/live").json["own"] is False


def test_a_share_link_follows_its_session_until_revoked(app, client, anonymous, game):
    link = make_link(client, game)
    token = link.rsplit("/", 1)[1]
    assert anonymous.get(f"/share/{token}/live").json["version"] == state_of(app, game)[0]
    assert anonymous.get(f"/share/{token}x/live").status_code == 404
    page = text(anonymous.get(f"/share/{token}"))
    assert f'data-live="/share/{token}/live"' in page
    assert "data-live-since" not in page  # a read-only page: refreshed, no notice


def test_the_words_for_changes_since_a_forms_version(app, client, game):
    version, _ = state_of(app, game)
    save_round(app, game, device="Mei's phone")
    words = text(client.get(f"/sessions/{game}/live/since/{version}"))
    assert "Round 1 added" in words and "Mei" in words
    assert "What you typed is kept" in words


@pytest.mark.parametrize("path, form", [
    ("", False), ("/settle", False), ("/changes", False), ("/rounds/1", False),
    ("/rounds/new", True), ("/rounds/1/edit", True), ("/players", True), ("/rules", True),
])
def test_session_pages_say_what_to_follow(app, client, game, path, form):
    save_round(app, game)
    version, draft = state_of(app, game)
    page = text(client.get(f"/sessions/{game}{path}"))
    assert f'<body data-live="/sessions/{game}/live" data-live-version="{version}"' in page
    assert f'data-live-draft="{draft}"' in page
    assert ('data-live-since=' in page) is form
    assert 'id="live-page" data-live' in page
    assert "js/live" in page


def test_pages_of_no_session_follow_nothing(client, anonymous):
    for page in ("/history", "/group", "/rules"):
        assert "data-live" not in text(client.get(page)), page
    assert "data-live" not in text(anonymous.get("/"))  # (a signed-in home page follows its group)


# The home page: the group's sessions in play


def playing_of(client) -> str:
    answer = client.get("/live")
    assert answer.status_code == 200 and answer.json["own"] is False
    return answer.json["playing"]


def test_the_home_page_follows_its_groups_sessions_in_play(app, client, anonymous, group):
    """Its stream's state changes as a session starts, a hand or a round is
    saved, a player joins or the session ends: the page's region of them
    (#home-playing) is fetched again. The page says what it was built on."""
    home = text(client.get("/"))
    assert '<body data-live="/live" data-live-playing=""' in home
    assert 'id="home-playing" data-live' in home and 'id="live-page"' not in home
    assert playing_of(client) == ""
    with app.app_context():
        game = services.start_session(services.Change(db.session.merge(group)),
                                      list("ABCD"), EXAMPLE_RULES, first_dealer="D")
        sid = game.id
    states = [playing_of(client)]
    assert states == [f"{sid}.1.0"]
    home = text(client.get("/"))
    assert f'data-live-playing="{states[0]}"' in home and "Playing now" in home
    hand = send_hand(client, sid, player_named(app, "A"), "dead", "5S 9H", key=new_key())
    assert hand.status_code == 200, hand.json
    states.append(playing_of(client))
    assert "Round 1 being entered</strong> (1 hand in)" in text(client.get("/"))
    save_round(app, sid)
    states.append(playing_of(client))
    with app.app_context():
        services.join_session(services.Change.to(db.session.get(GameSession, sid)), "Eve", 4)
    states.append(playing_of(client))
    with app.app_context():
        services.end_session(services.Change.to(db.session.get(GameSession, sid)))
    states.append(playing_of(client))
    assert len(set(states)) == len(states) and states[-1] == ""
    assert anonymous.get("/live").status_code == 403


def test_the_group_stream_is_told_of_a_session_started_on_another_phone(app, group, served,
                                                                       monkeypatch):
    monkeypatch.setattr(app.extensions["live_watch"], "interval", 0.1)
    stream = signed_in_phone(app, group, served).stream("/live")
    assert stream.next_state() == {"playing": "", "own": False}
    with app.app_context():
        sid = services.start_session(services.Change(db.session.merge(group)), list("ABCD"),
                                     EXAMPLE_RULES, first_dealer="D").id
    assert stream.next_state() == {"playing": f"{sid}.1.0", "own": False}
    save_round(app, sid)
    assert stream.next_state() == {"playing": f"{sid}.2.0", "own": False}
    stream.close()


# The watch: one reader a process, waking the streams of a session that changed


def test_the_watch_wakes_the_streams_of_a_changed_session_only():
    states = {1: (1, 0), 2: (5, 0)}
    reads = []

    def read(ids):
        reads.append(sorted(ids))
        return {i: states[i] for i in ids if i in states}

    watch = Watch(read, interval=0.01)
    woken = {}

    seen = dict(states)  # what each stream's page was built on

    def stream(session_id, name):
        with watch.watching(session_id, seen[session_id]) as wait:
            woken[name] = wait(seen[session_id], 10)

    threads = [threading.Thread(target=stream, args=(1, n)) for n in ("a", "b")]
    threads.append(threading.Thread(target=stream, args=(2, "c")))
    for thread in threads:
        thread.start()
    while watch.watched < 2:
        time.sleep(0.01)
    states[1] = (2, 0)
    for thread in threads[:2]:
        thread.join(10)
    assert woken == {"a": (2, 0), "b": (2, 0)}
    assert threads[2].is_alive()  # session 2 did not change
    del states[2]
    threads[2].join(10)
    assert woken["c"] == GONE
    assert all(ids == sorted(set(ids)) for ids in reads)  # one read for all streams


def test_a_wait_without_change_ends_at_its_timeout_with_the_same_state():
    watch = Watch(lambda ids: {1: (3, 1)}, interval=0.01)
    with watch.watching(1, (3, 1)) as wait:
        assert wait((3, 1), 0.05) == (3, 1)
    assert watch.watched == 0


def test_closing_the_watch_ends_its_streams_and_waits_for_a_read_under_way():
    reading, release, finished = threading.Event(), threading.Event(), threading.Event()

    def read(ids):
        reading.set()
        release.wait(10)
        finished.set()
        return {1: (1, 0)}

    watch = Watch(read, interval=0.01)
    with watch.watching(1, (1, 0)) as wait:
        assert reading.wait(10)
        closing = threading.Thread(target=watch.close)
        closing.start()
        closing.join(0.1)
        assert closing.is_alive()  # the read holds a database connection: waited for
        release.set()
        closing.join(10)
        assert finished.is_set() and not closing.is_alive()
        assert wait((1, 0), 10) == GONE


def test_a_wait_sees_a_change_made_before_it_began():
    watch = Watch(lambda ids: {1: (4, 0)}, interval=0.01)
    with watch.watching(1, (3, 0)) as wait:
        assert wait((3, 0), 10) == (4, 0)
        assert wait((3, 0), 0) == (4, 0)


# Streams held open by a server that can hold them


@pytest.fixture
def served(app):
    with serving(app) as port:
        yield port


def signed_in_phone(app, group, port) -> Phone:
    phone = Phone(port)
    client = signed_in_client(app, group)
    phone.cookies["session"] = client.get_cookie("session").value
    return phone


def test_every_open_stream_gets_a_round_saved_on_another_phone(app, group, game, served,
                                                              monkeypatch):
    app.config["LIVE_POLL_SECONDS"] = 0.1
    monkeypatch.setattr(app.extensions["live_watch"], "interval", 0.1)
    phones = [signed_in_phone(app, group, served) for _ in range(3)]
    streams = [phone.stream(f"/sessions/{game}/live") for phone in phones]
    version, draft = state_of(app, game)
    assert [s.next_state() for s in streams] == [
        {"version": version, "draft": draft, "own": False}] * 3
    save_round(app, game)
    assert [s.next_state() for s in streams] == [
        {"version": version + 1, "draft": draft, "own": False}] * 3
    for stream in streams:
        stream.close()


def sign_out(app, client, session_id, token):
    answer = client.post("/sign-out", data={"csrf_token": csrf_token(client)})
    assert answer.status_code == 302


def new_passphrase(app, client, session_id, token):
    with app.app_context():
        services.set_passphrase(services.Change(db.session.merge(the_group())),
                                "a brand new passphrase")


def revoke(app, client, session_id, token):
    with app.app_context():
        link = db.session.scalar(sa.select(ShareLink).where(ShareLink.session_id == session_id))
        services.revoke_share_link(services.Change.to(link.session), link)


@pytest.mark.parametrize("shared, end", [
    (False, sign_out), (False, new_passphrase), (True, revoke), (True, new_passphrase),
], ids=["sign-out", "new passphrase", "link revoked", "link after a new passphrase"])
def test_a_stream_ends_at_the_next_change_once_it_no_longer_opens_the_session(
        app, group, game, served, shared, end, monkeypatch):
    """The phone signed out, the group's passphrase changed or the link
    revoked: the stream that was open sends no more versions."""
    monkeypatch.setattr(app.extensions["live_watch"], "interval", 0.1)
    client = signed_in_client(app, group)
    token = make_link(client, game).rsplit("/", 1)[1]
    phone = Phone(served)
    if shared:
        path = f"/share/{token}/live"
    else:
        phone.cookies["session"] = client.get_cookie("session").value
        path = f"/sessions/{game}/live"
    stream = phone.stream(path)
    stream.next_state()
    end(app, client, game, token)
    save_round(app, game)
    with pytest.raises(EOFError):
        stream.next_state()
    stream.close()
    assert phone.request("GET", path)[0] == (404 if shared else 403)  # opened again: refused


def test_a_stream_ends_after_its_lifetime_and_the_browser_opens_another(
        app, group, game, served):
    app.config["LIVE_STREAM_SECONDS"] = 0.2
    stream = signed_in_phone(app, group, served).stream(f"/sessions/{game}/live")
    stream.next_state()
    with pytest.raises(EOFError):
        stream.next_state()


# Under gunicorn as deployed: gevent workers, several of them, on two app servers


def test_streams_on_several_workers_and_servers_follow_a_change_saved_on_any(
        app, group, game, tmp_path):
    """Two app servers on one database, as behind a load balancer without sticky
    sessions: streams on both, the round saved through the second."""
    with Gunicorn(app, tmp_path / "a", workers=3) as first, \
            Gunicorn(app, tmp_path / "b", workers=2) as second:
        watchers = [Phone(server.port).sign_in() for server in (first, second, first)]
        # More streams than workers: held streams leave the workers free.
        streams = [watchers[i % 3].stream(f"/sessions/{game}/live") for i in range(12)]
        version, _ = state_of(app, game)
        assert {s.next_state()["version"] for s in streams} == {version}
        homes = [watcher.stream("/live") for watcher in watchers]  # the home pages' streams
        assert {s.next_state()["playing"] for s in homes} == {f"{game}.{version}.0"}
        saver = Phone(second.port, "Mei's phone").sign_in()
        _, _, form = saver.request("GET", f"/sessions/{game}/rounds/new")
        with app.app_context():
            fields = filled(form, {n: (e.outcome, e.cards) for n, e in EXAMPLE_1.items()})
        assert saver.request("POST", f"/sessions/{game}/rounds/new", fields)[0] in SAVED
        with ThreadPoolExecutor(12) as pool:
            seen = list(pool.map(lambda s: s.next_state()["version"], streams))
            at_home = list(pool.map(lambda s: s.next_state()["playing"], homes))
        assert seen == [version + 1] * 12
        assert at_home == [f"{game}.{version + 1}.0"] * 3
        for stream in streams + homes:
            stream.close()
