"""The caps on open live streams: per sign-in, share link and address in the
database (across workers and app servers), per process below the connections
a worker takes; a stream past one gets the polling answer at once."""

import os
import socket
import threading
from datetime import timedelta

import pytest
import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import LiveStream, utcnow
from scorekeeper.web import stream_caps
from scorekeeper.web.client_socket import client_gone
from scorekeeper.web.live import CAPPED_RETRY_MS, RETRY_MS
from scorekeeper.web.stream_caps import address_key
from scorekeeper.web.watch import Watch
from tests.conftest import signed_in_client
from tests.web.examples import EXAMPLE_RULES
from tests.web.helpers import make_link
from tests.web.phones import Gunicorn, Phone, released_together, serving

# Each test sets the process's stream limits and timings on an app of its own.
pytestmark = pytest.mark.own_app

CAPS = services.StreamCaps(per_holder=2, per_address=3)


@pytest.fixture
def game(app, group):
    with app.app_context():
        game = services.start_session(services.Change(db.session.merge(group)), list("ABCD"),
                                      EXAMPLE_RULES, first_dealer="D")
        return game.id


def later(seconds=60):
    return utcnow() + timedelta(seconds=seconds)


def rows(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(LiveStream))


# Counted in the database


def test_a_holder_past_its_cap_is_refused_until_one_of_its_streams_closes(app):
    with app.app_context():
        first = services.open_stream("sign-in:a", "203.0.113.1", CAPS, later())
        second = services.open_stream("sign-in:a", "203.0.113.2", CAPS, later())
        assert first and second
        assert services.open_stream("sign-in:a", "203.0.113.3", CAPS, later()) is None
        assert services.open_stream("link:7", "203.0.113.3", CAPS, later())  # another holder
        services.close_stream(first)
        assert services.open_stream("sign-in:a", "203.0.113.3", CAPS, later())
    assert rows(app) == 3  # a refused stream leaves nothing behind


def test_an_address_past_its_cap_is_refused_whoever_holds_the_streams(app):
    with app.app_context():
        for holder in ("sign-in:a", "sign-in:b", "link:1"):
            assert services.open_stream(holder, "198.51.100.7", CAPS, later())
        assert services.open_stream("link:2", "198.51.100.7", CAPS, later()) is None
        assert services.open_stream("link:2", "198.51.100.8", CAPS, later())


def test_a_stream_its_process_stops_renewing_lapses_by_itself(app):
    """A worker killed with its streams open never deletes their rows; they
    stop counting once their last renewal runs out."""
    one = services.StreamCaps(per_holder=1, per_address=10)
    with app.app_context():
        held = services.open_stream("sign-in:a", "203.0.113.1", one, later())
        services.renew_streams([held], later(120))  # its worker still alive
        assert services.open_stream("sign-in:a", "203.0.113.1", one, later()) is None
        services.renew_streams([held], utcnow() - timedelta(seconds=1))  # as if it lapsed
        again = services.open_stream("sign-in:a", "203.0.113.1", one, later())
        assert again is not None
        assert db.session.scalars(sa.select(LiveStream.id)).all() == [again]


def test_streams_opening_at_once_never_pass_the_cap(app):
    def open_one():
        with app.app_context():
            return services.open_stream("link:1", "203.0.113.1", CAPS, later()) or 0

    opened = released_together([open_one] * 8)
    assert len([row for row in opened if row]) <= CAPS.per_holder
    assert rows(app) <= CAPS.per_holder


@pytest.mark.parametrize("address, key", [
    ("203.0.113.9", "203.0.113.9"),
    ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),  # a whole /64 is one client
    ("2001:db8:1:2:bbbb::2", "2001:db8:1:2::/64"),
    ("::ffff:203.0.113.9", "203.0.113.9"),
    ("", ""),
])
def test_an_address_is_counted_by_what_one_client_holds(address, key):
    assert address_key(address) == key


def test_the_watchs_reader_renews_the_open_streams_while_it_reads():
    renewed = threading.Event()
    watch = Watch(lambda ids: {1: (1, 0)}, interval=0.01, renew=renewed.set, renew_every=0.02)
    with watch.watching(1, (1, 0)):
        assert renewed.wait(10)


# Held by a server


def signed_in_phone(app, group, port) -> Phone:
    phone = Phone(port)
    phone.cookies["session"] = signed_in_client(app, group).get_cookie("session").value
    return phone


def same_phone(phone: Phone, port: int) -> Phone:
    """The phone's cookie, on another server."""
    other = Phone(port)
    other.cookies = dict(phone.cookies)
    return other


def polled(stream) -> bool:
    """Whether the stream got the polling answer (then ended, asking the
    browser to come back in 30 s) rather than being held."""
    retry, _ = stream.first()
    if retry == RETRY_MS:
        return False
    assert retry == CAPPED_RETRY_MS
    with pytest.raises(EOFError):
        stream.next_state()
    stream.close()
    return True


def test_a_process_holds_streams_up_to_its_ceiling_and_polls_the_rest(app, group, game):
    app.extensions["live_streams"].ceiling = 2
    with serving(app) as port:
        phone = signed_in_phone(app, group, port)
        streams = [phone.stream(f"/sessions/{game}/live") for _ in range(3)]
        assert [polled(s) for s in streams] == [False, False, True]
        for stream in streams[:2]:
            stream.close()


def test_a_stream_that_ends_gives_its_place_back(app, group, game):
    app.config.update(LIVE_STREAM_SECONDS=0.2, LIVE_STREAMS_PER_SIGN_IN=1)
    open_streams = app.extensions["live_streams"]
    with serving(app) as port:
        phone = signed_in_phone(app, group, port)
        first = phone.stream(f"/sessions/{game}/live")
        assert not polled(first)
        assert (open_streams.open, rows(app)) == (1, 1)
        with pytest.raises(EOFError):  # its lifetime is over, and its place given back
            first.next_state()
        first.close()
        assert (open_streams.open, rows(app)) == (0, 0)
        again = phone.stream(f"/sessions/{game}/live")
        assert not polled(again)
        again.close()


def test_an_open_streams_row_is_renewed_while_it_is_open(app, group, game, monkeypatch):
    app.extensions["live_watch"].renew_every = 0.05
    renewed = threading.Event()

    def renew(app):
        renew_rows(app)
        renewed.set()

    renew_rows = stream_caps.renew
    monkeypatch.setattr(stream_caps, "renew", renew)
    with serving(app) as port:
        stream = signed_in_phone(app, group, port).stream(f"/sessions/{game}/live")
        assert not polled(stream)
        with app.app_context():
            first = db.session.scalar(sa.select(LiveStream.expires_at))
        renewed.clear()
        assert renewed.wait(10), "the watch's reader never renewed its streams"
        with app.app_context():
            assert db.session.scalar(sa.select(LiveStream.expires_at)) > first
        stream.close()


def test_a_stream_its_client_closed_gives_its_place_back(app, group, game):
    """A page left closes its stream; the server notices at its next look,
    long before writing to it would fail."""
    app.config.update(LIVE_STREAMS_PER_SIGN_IN=1, LIVE_LOOK_SECONDS=0.05)
    open_streams = app.extensions["live_streams"]
    with serving(app) as port:
        phone = signed_in_phone(app, group, port)
        left = phone.stream(f"/sessions/{game}/live")
        assert not polled(left)
        left.leave()  # seen at the server's next look, long before a heartbeat
        assert (open_streams.open, rows(app)) == (0, 0)
        again = phone.stream(f"/sessions/{game}/live")
        assert not polled(again)
        again.close()


# Under gunicorn as deployed: the caps hold across workers and app servers


def test_streams_past_a_cap_get_the_polling_answer_on_any_worker_of_any_server(
        app, group, game, client, tmp_path):
    token = make_link(client, game).rsplit("/", 1)[1]
    config = {"LIVE_STREAMS_PER_SIGN_IN": 3, "LIVE_STREAMS_PER_LINK": 2,
              "LIVE_STREAMS_PER_ADDRESS": 6}
    with Gunicorn(app, tmp_path / "a", workers=2, config=config) as first, \
            Gunicorn(app, tmp_path / "b", workers=2, config=config) as second:
        mei = signed_in_phone(app, group, first.port)
        streams = [mei.stream(f"/sessions/{game}/live") for _ in range(3)]
        assert not any(polled(s) for s in streams)
        assert polled(same_phone(mei, second.port).stream(f"/sessions/{game}/live"))

        friend = Phone(second.port)
        shared = [friend.stream(f"/share/{token}/live") for _ in range(2)]
        assert not any(polled(s) for s in shared)
        assert polled(Phone(first.port).stream(f"/share/{token}/live"))

        # Five open from this address: one more for another phone, then none.
        ben = signed_in_phone(app, group, second.port)
        streams.append(ben.stream(f"/sessions/{game}/live"))
        assert not polled(streams[-1])
        assert polled(same_phone(ben, first.port).stream(f"/sessions/{game}/live"))
        assert rows(app) == 6

        # A page left on one server makes room on the other.
        streams.pop(0).leave()
        assert rows(app) == 5
        streams.append(same_phone(mei, second.port).stream(f"/sessions/{game}/live"))
        assert not polled(streams[-1])
        for stream in streams + shared:
            stream.close()


def test_a_worker_full_of_streams_still_serves_pages(app, group, game, tmp_path):
    """Two workers of 20 connections each, 40 streams from one phone: each
    worker holds 10 and polls the rest, so pages find room."""
    config = {"LIVE_STREAMS_PER_PROCESS": 10, "LIVE_STREAMS_PER_SIGN_IN": 100,
              "LIVE_STREAMS_PER_ADDRESS": 100}
    with Gunicorn(app, tmp_path, workers=2, config=config,
                  options=("--worker-connections", "20")) as server:
        phone = signed_in_phone(app, group, server.port)
        held = []
        for _ in range(40):  # one after the other, each polled one closed, as browsers do
            stream = phone.stream(f"/sessions/{game}/live")
            if not polled(stream):
                held.append(stream)
        assert 0 < len(held) <= 2 * 10
        status, _, page = phone.request("GET", f"/sessions/{game}")
        assert status == 200 and "Round 1" in page
        for stream in held:
            stream.close()


# Whether a stream's client is gone


@pytest.fixture
def connection():
    """Both ends of a connection, the server's on a descriptor past 1,024
    (as in a worker holding thousands), where select() no longer works."""
    server, client = socket.socketpair()
    high = socket.socket(fileno=os.dup2(server.fileno(), 1500))
    server.close()
    high.settimeout(10)
    yield high, client
    high.close()
    client.close()


def test_a_client_still_there_is_not_gone_and_nothing_it_sent_is_taken(connection):
    server, client = connection
    assert not client_gone(server)
    client.sendall(b"x")
    assert not client_gone(server)
    assert server.recv(1) == b"x"  # peeked, not read
    assert server.gettimeout() == 10


def test_a_client_that_closed_is_gone(connection):
    server, client = connection
    client.close()
    assert client_gone(server)
