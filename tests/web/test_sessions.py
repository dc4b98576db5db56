"""What holds on every sessions page: unknown sessions are 404s, posts need
their CSRF token, pages stay small, every change is audited with the
phone's name."""

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent, GameSession, Payment
from tests.web.examples import HU, NO_HU, TABLE, TIE, make_session, new_form, player_id
from tests.web.helpers import WEIGHT_LIMIT, csrf_token, page_weight


def test_unknown_sessions_are_404(app, client):
    for url in ("/sessions/99", "/sessions/99/settle"):
        assert client.get(url).status_code == 404
    sid = make_session(app)
    token = csrf_token(client, f"/sessions/{sid}/players")
    for url in ("/sessions/99/players", "/sessions/99/players/1/leave",
                "/sessions/99/settle/paid", "/sessions/99/end"):
        assert client.post(url, data={"csrf_token": token}).status_code == 404


def test_posts_without_csrf_token_are_refused(app, client):
    sid = make_session(app, rounds=[NO_HU])
    ann = player_id(app, "Ann")
    for url, data in [
        ("/sessions/new", {"seats-0": "X", "seats-1": "Y"}),
        (f"/sessions/{sid}/players", {"name": "Eve", "position": "1"}),
        (f"/sessions/{sid}/players/{ann}/leave", {}),
        (f"/sessions/{sid}/settle/paid", {"payer_id": ann, "payee_id": ann, "cents": 1}),
        (f"/sessions/{sid}/end", {}),
    ]:
        response = client.post(url, data=data)
        assert response.status_code == 400, url
        assert "The form had expired" in response.text
    with app.app_context():
        session = db.session.get(GameSession, sid)
        assert len(session.seats) == 4 and not session.is_finished
        assert db.session.query(GameSession).count() == 1


def test_pages_stay_small(app, client):
    sid = make_session(app, rounds=[NO_HU, TIE, HU] * 4)
    for url in ["/sessions/new", f"/sessions/{sid}", f"/sessions/{sid}/settle"]:
        assert page_weight(client.get(url).data) < WEIGHT_LIMIT, url


def test_every_change_made_here_is_audited_with_this_phones_name(app, client):
    client.post("/sessions/new", data=new_form(client, seats=TABLE, first_dealer="3"))
    with app.app_context():
        sid = db.session.scalar(db.select(GameSession.id))
        game = db.session.get(GameSession, sid)
        services.record_round(services.Change.to(game, device="Other phone"), NO_HU)
        due = services.settlement(db.session.get(GameSession, sid))[0].transfer
        transfer = {"payer_id": due.payer.id, "payee_id": due.payee.id, "cents": due.cents}
    token = csrf_token(client, f"/sessions/{sid}/players")

    def the_payment():
        with app.app_context():
            return {"payment_id": db.session.scalar(db.select(Payment.id))}

    for url, data in [
        (f"/sessions/{sid}/players", lambda: {"name": "Eve", "position": "1"}),
        (f"/sessions/{sid}/players/{player_id(app, 'Bob')}/leave", dict),
        (f"/sessions/{sid}/settle/paid", lambda: transfer),
        (f"/sessions/{sid}/settle/undo", the_payment),
        (f"/sessions/{sid}/end", dict),
        (f"/sessions/{sid}/reopen", dict),
    ]:
        assert client.post(url, data={"csrf_token": token, **data()}).status_code == 302, url
    with app.app_context():
        trail = db.session.execute(
            db.select(AuditEvent.action, AuditEvent.device, AuditEvent.version)
            .where(AuditEvent.session_id == sid).order_by(AuditEvent.id)).all()
    assert [tuple(row) for row in trail] == [
        ("session.start", "Test phone", 1), ("round.add", "Other phone", 2),
        ("seat.join", "Test phone", 3), ("seat.leave", "Test phone", 4),
        ("payment.paid", "Test phone", 5), ("payment.unpaid", "Test phone", 6),
        ("session.end", "Test phone", 7), ("session.reopen", "Test phone", 8)]
