"""The application factory, the home page and the error pages."""

import os
import re
import stat

import pytest
import sqlalchemy as sa

from scorekeeper import create_app, passphrases, services
from scorekeeper.app import MissingSecretKey, WeakSecretKey
from scorekeeper.config import (
    create_secret_key,
    normalise_database_url,
    read_secret_key,
)
from scorekeeper.extensions import db
from scorekeeper.passphrases import hash_passphrase, passphrase_matches
from tests.web.helpers import WEIGHT_LIMIT, csrf_token, page_weight

KEY = "factory-secret-key-long-enough-to-sign"
FROM_ENV = "a-secret-key-from-the-environment"
FROM_MAPPING = "a-secret-key-from-the-create-app-mapping"


def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'factory.sqlite3'}"


def test_config_mapping_beats_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("SECRET_KEY", FROM_ENV)
    monkeypatch.setenv("DATABASE_URL", "sqlite:///from-env.sqlite3")
    app = create_app(
        {"SECRET_KEY": FROM_MAPPING, "SQLALCHEMY_DATABASE_URI": sqlite_url(tmp_path)}
    )
    assert app.config["SECRET_KEY"] == FROM_MAPPING
    assert app.config["SQLALCHEMY_DATABASE_URI"] == sqlite_url(tmp_path)


def test_environment_beats_defaults(monkeypatch, tmp_path):
    monkeypatch.setenv("SECRET_KEY", FROM_ENV)
    monkeypatch.setenv("DATABASE_URL", sqlite_url(tmp_path))
    app = create_app()
    assert app.config["SECRET_KEY"] == FROM_ENV
    assert app.config["SQLALCHEMY_DATABASE_URI"] == sqlite_url(tmp_path)


def test_a_misspelt_setting_in_instance_config_is_named(tmp_path, caplog):
    (tmp_path / "config.py").write_text(
        f"SECRET_KEY = '{KEY}'\nNEW_GROUP = False\nNEW_GROUPS = False\nSQLALCHEMY_ECHO = False\n"
        "SESSION_COOKIE_NAME = 'sk'\nhelper = 1\n")
    app = create_app({"SQLALCHEMY_DATABASE_URI": sqlite_url(tmp_path)}, instance_path=tmp_path)
    assert app.config["NEW_GROUPS"] is False
    warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warned == ["instance/config.py: NEW_GROUP is no setting of this app or of Flask; "
                      "it is ignored"]


@pytest.mark.parametrize("scheme", ["postgres", "postgresql"])
def test_database_url_uses_psycopg(monkeypatch, scheme):
    monkeypatch.setenv("DATABASE_URL", f"{scheme}://sk:pw@db.example:5432/scores")
    app = create_app({"SECRET_KEY": KEY})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == (
        "postgresql+psycopg://sk:pw@db.example:5432/scores"
    )
    with app.app_context():
        assert db.engine.dialect.driver == "psycopg"


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///x.sqlite3",
        "postgresql+psycopg://a@b/c",
        "postgresql+psycopg2://a@b/c",
    ],
)
def test_other_database_urls_are_left_alone(url):
    assert normalise_database_url(url) == url


def test_sqlite_file_gets_foreign_keys_and_wal(tmp_path):
    app = create_app(
        {"SECRET_KEY": KEY, "SQLALCHEMY_DATABASE_URI": sqlite_url(tmp_path)}
    )
    with app.app_context():
        with db.engine.connect() as conn:
            assert conn.execute(sa.text("PRAGMA foreign_keys")).scalar() == 1
            assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
            assert conn.execute(sa.text("PRAGMA busy_timeout")).scalar() == 10_000
        db.engine.dispose()


def test_secret_key_is_made_once_and_kept_private(tmp_path):
    assert read_secret_key(tmp_path) is None
    key = create_secret_key(tmp_path)
    assert len(key) == 64
    assert create_secret_key(tmp_path) == key
    assert read_secret_key(tmp_path) == key
    mode = stat.S_IMODE(os.stat(tmp_path / "secret_key").st_mode)
    assert mode == 0o600
    assert os.listdir(tmp_path) == ["secret_key"]


def test_app_refuses_to_start_without_a_secret_key(monkeypatch, tmp_path):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    with pytest.raises(MissingSecretKey, match="python -m scorekeeper setup"):
        create_app({"SQLALCHEMY_DATABASE_URI": sqlite_url(tmp_path)}, instance_path=tmp_path)


def test_instance_secret_key_file_is_used(monkeypatch, tmp_path):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    key = create_secret_key(tmp_path)
    app = create_app({"SQLALCHEMY_DATABASE_URI": sqlite_url(tmp_path)}, instance_path=tmp_path)
    assert app.config["SECRET_KEY"] == key


def test_testing_gets_a_random_key_of_its_own(monkeypatch, tmp_path):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    config = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": sqlite_url(tmp_path)}
    one = create_app(config, instance_path=tmp_path).config["SECRET_KEY"]
    two = create_app(config, instance_path=tmp_path).config["SECRET_KEY"]
    assert len(one) == 64 and one != two
    assert os.listdir(tmp_path) == []


WEAK_KEYS = ["k", " " * 40, "\t\n", "x" * 31, " " + "x" * 31 + "\n", "secret"]


@pytest.mark.parametrize("source, key", [
    (source, key) for source in ("mapping", "environment", "instance/config.py",
                                 "instance/secret_key")
    for key in WEAK_KEYS if key.strip() or source != "instance/secret_key"  # empty: refused too
], ids=repr)
def test_a_short_secret_key_is_refused_wherever_it_comes_from(monkeypatch, tmp_path, source,
                                                              key):
    """Fewer than 32 characters (spaces around them not counted), in tests too."""
    monkeypatch.delenv("SECRET_KEY", raising=False)
    config = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": sqlite_url(tmp_path)}
    if source == "mapping":
        config["SECRET_KEY"] = key
    elif source == "environment":
        monkeypatch.setenv("SECRET_KEY", key)
    elif source == "instance/config.py":
        (tmp_path / "config.py").write_text(f"SECRET_KEY = {key!r}\n")
    else:
        (tmp_path / "secret_key").write_text(key)
    with pytest.raises(WeakSecretKey, match=r"too short: \d+ characters, where it needs at "
                                            r"least 32.*python -m scorekeeper setup"):
        create_app(config, instance_path=tmp_path)


def test_a_weak_key_is_refused_like_a_missing_one(tmp_path):
    assert issubclass(WeakSecretKey, MissingSecretKey)
    with pytest.raises(MissingSecretKey):
        create_app({"SECRET_KEY": "k", "SQLALCHEMY_DATABASE_URI": sqlite_url(tmp_path)})


def test_a_key_of_32_characters_is_enough(tmp_path):
    key = "x" * 32
    app = create_app({"SECRET_KEY": key, "SQLALCHEMY_DATABASE_URI": sqlite_url(tmp_path)})
    assert app.config["SECRET_KEY"] == key


@pytest.fixture
def usual_umask():
    """Files made as under the usual umask (022: readable by everyone)."""
    before = os.umask(0o022)
    yield
    os.umask(before)


def test_a_new_sqlite_file_is_readable_by_its_owner_only(tmp_path, usual_umask):
    app = create_app({"SECRET_KEY": KEY, "SQLALCHEMY_DATABASE_URI": sqlite_url(tmp_path)})
    with app.app_context():
        db.create_all()
        with db.engine.connect() as connection:  # WAL: -wal and -shm exist while it is open
            connection.execute(sa.text("SELECT count(*) FROM player_group"))
            modes = {path.name: stat.S_IMODE(path.stat().st_mode)
                     for path in tmp_path.glob("factory.sqlite3*")}
        db.engine.dispose()
    assert modes == {"factory.sqlite3": 0o600, "factory.sqlite3-wal": 0o600,
                     "factory.sqlite3-shm": 0o600}


def test_an_existing_sqlite_file_keeps_its_mode(tmp_path, usual_umask):
    path = tmp_path / "factory.sqlite3"
    path.touch(mode=0o640)
    app = create_app({"SECRET_KEY": KEY, "SQLALCHEMY_DATABASE_URI": sqlite_url(tmp_path)})
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_https_makes_the_cookie_secure(monkeypatch, tmp_path):
    monkeypatch.setenv("HTTPS", "1")
    app = create_app({"SECRET_KEY": KEY, "SQLALCHEMY_DATABASE_URI": sqlite_url(tmp_path)})
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert app.config["PREFERRED_URL_SCHEME"] == "https"
    plain = create_app({"SECRET_KEY": KEY, "HTTPS": False,
                        "SQLALCHEMY_DATABASE_URI": sqlite_url(tmp_path)})
    assert not plain.config["SESSION_COOKIE_SECURE"]


def test_home_page_has_the_check_form(anonymous):
    response = anonymous.get("/")
    assert response.status_code == 200
    html = response.text
    assert "<title>Scorekeeper</title>" in html
    assert "Penang rummy" in html
    assert '<form method="get"' in html
    assert '<label for="cards">Cards</label>' in html
    assert 'name="cards"' in html
    assert re.search(r'href="/static/css/app\.[0-9a-f]{8}\.css"', html)  # fingerprinted


def test_home_page_echoes_the_cards_escaped(client):
    html = client.get("/", query_string={"cards": 'AS 10H <b>"JK"'}).text
    assert 'value="AS 10H &lt;b&gt;&#34;JK&#34;"' in html
    assert "<b>" not in html


def test_checking_a_hand_shows_its_melds_and_points(client):
    html = client.get("/", query_string={"cards": "as 2s 3s jk 7h 7d 7c qh",
                                         "preset": "rummi"}).text
    assert "<strong>10</strong> points left" in html
    assert html.count('<span class="cards-label">Meld</span>') == 2
    assert '<span class="chip chip-red">Q♥</span>' in html
    assert '<option selected value="rummi">' in html


def test_checking_a_hand_that_melds_completely(client):
    html = client.get("/", query_string={"cards": "8H 8H 8C"}).text
    assert "<strong>0</strong> points left" in html
    assert "the hand melds completely" in html


def test_checking_an_unreadable_card_names_it(client):
    html = client.get("/", query_string={"cards": "AS 11X"}).text
    assert 'aria-invalid="true"' in html
    assert "&#34;11X&#34; (card 2) is not a card" in html
    assert 'value="AS 11X"' in html
    assert "points left" not in html


def test_home_page_reports_input_too_long(client):
    html = client.get("/", query_string={"cards": "AS " * 100}).text
    assert 'aria-invalid="true"' in html
    assert 'id="cards-error"' in html


def test_home_page_stays_small(client):
    assert page_weight(client.get("/").data) < WEIGHT_LIMIT


def test_unknown_url_shows_our_404_page(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert "Page not found" in response.text
    assert 'class="skip-link"' in response.text


@pytest.mark.own_app
def test_post_without_csrf_token_shows_our_400_page(app, client):
    app.add_url_rule("/_post", "post", lambda: "saved", methods=["POST"])
    response = client.post("/_post", data={"x": "1"})
    assert response.status_code == 400
    assert "The form had expired" in response.text


@pytest.mark.own_app
def test_unhandled_error_shows_our_500_page(app, client):
    app.testing = False  # let the 500 handler answer instead of re-raising

    @app.get("/_boom")
    def boom():
        raise RuntimeError("boom")

    response = client.get("/_boom")
    assert response.status_code == 500
    assert "Something went wrong" in response.text


def test_db_upgrade_builds_the_schema_on_an_empty_database(app, runner):
    with app.app_context():
        db.drop_all()
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        tables = set(sa.inspect(db.engine).get_table_names())
    assert "alembic_version" in tables
    assert set(db.metadata.tables) <= tables


def test_passphrases_are_hashed_with_argon2id_unless_configured(tmp_path):
    app = create_app({"SECRET_KEY": KEY, "SQLALCHEMY_DATABASE_URI": sqlite_url(tmp_path)})
    assert app.config["PASSPHRASE_HASH_METHOD"] == "argon2id"
    with app.app_context():
        db.create_all()
        group = services.create_group("Argon table", "a long passphrase")
        # OWASP's first recommended setting: 19 MiB, 2 passes, 1 lane.
        assert group.passphrase_hash.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
        assert services.group_for_sign_in("argon TABLE", "a long passphrase") == group
        assert services.group_for_sign_in("Argon table", "a long passphrasE") is None
        db.engine.dispose()


def test_a_passphrase_hashed_before_argon2id_still_signs_in(tmp_path):
    """Groups keep their werkzeug hash (scrypt, the earlier default): it is
    part of every phone's cookie and every share link."""
    app = create_app({"SECRET_KEY": KEY, "SQLALCHEMY_DATABASE_URI": sqlite_url(tmp_path),
                      "PASSPHRASE_HASH_METHOD": "scrypt"})
    with app.app_context():
        db.create_all()
        group = services.create_group("Scrypt table", "a long passphrase")
        assert group.passphrase_hash.startswith("scrypt:")
    app.config["PASSPHRASE_HASH_METHOD"] = "argon2id"
    with app.app_context():
        assert services.group_for_sign_in("Scrypt table", "a long passphrase").id == group.id
        assert services.group_for_sign_in("Scrypt table", "another passphrase") is None
        db.engine.dispose()


def test_a_damaged_argon2_hash_matches_no_passphrase():
    assert not passphrase_matches("$argon2id$v=19$m=19456,t=2,p=1$broken", "a long passphrase")
    assert passphrase_matches(hash_passphrase("a long passphrase"), "a long passphrase")


@pytest.fixture
def full_hashes(monkeypatch):
    """The stored hashes checked the slow way, in order, with a fresh memory
    of verified passphrases."""
    checked = []

    def counted(stored, passphrase):
        checked.append(stored)
        return real(stored, passphrase)

    real = passphrases._hash_matches
    monkeypatch.setattr(passphrases, "_hash_matches", counted)
    monkeypatch.setattr(passphrases, "_verified", type(passphrases._verified)())
    return checked


QUICK = "pbkdf2:sha256:1000"


def test_a_verified_passphrase_matches_again_without_hashing(full_hashes):
    """The phones at a table sign in with one passphrase within seconds."""
    stored = hash_passphrase("a long passphrase", QUICK)
    assert all(passphrase_matches(stored, "a long passphrase") for _ in range(5))
    assert full_hashes == [stored]
    assert all(b"a long passphrase" not in digest for digest in passphrases._verified.values())


def test_a_wrong_passphrase_costs_a_full_hash_every_time(full_hashes):
    stored = hash_passphrase("a long passphrase", QUICK)
    assert passphrase_matches(stored, "a long passphrase")
    assert not passphrase_matches(stored, "a wrong passphrase")
    assert not passphrase_matches(stored, "a wrong passphrase")
    assert full_hashes == [stored] * 3


def test_a_remembered_passphrase_opens_only_its_own_hash(full_hashes):
    first = hash_passphrase("a long passphrase", QUICK)
    other = hash_passphrase("another passphrase", QUICK)
    assert passphrase_matches(first, "a long passphrase")
    assert not passphrase_matches(other, "a long passphrase")
    assert passphrase_matches(other, "another passphrase")
    assert full_hashes == [first, other, other]


def test_the_least_recently_verified_passphrase_is_forgotten_first(full_hashes, monkeypatch):
    monkeypatch.setattr(passphrases, "VERIFIED_KEPT", 2)
    one, two, three = (hash_passphrase(f"passphrase number {n}", QUICK) for n in (1, 2, 3))
    for stored, number in ((one, 1), (two, 2), (one, 1), (three, 3), (one, 1), (two, 2)):
        assert passphrase_matches(stored, f"passphrase number {number}")
    # one stays (used again before three came), two is dropped for three
    assert full_hashes == [one, two, three, two]


def test_a_nul_character_anywhere_is_refused_before_it_reaches_the_database(client, group):
    response = client.get("/history?player=%00")
    assert response.status_code == 400
    assert "could not be used" in response.text
    response = client.post("/sign-in", data={"csrf_token": csrf_token(client), "name": "a\x00b",
                                             "passphrase": "x", "device": "Phone"})
    assert response.status_code == 400
    assert "could not be used" in response.text


@pytest.mark.parametrize("url", [
    "/players/99999999999999999999", "/sessions/99999999999999999999",
    "/sessions/{id}/rounds/99999999999999999999", "/history/sessions/99999999999999999999",
    "/sessions/{id}/changes?page=99999999999999999999", "/history?page=-3",
    "/history/sessions/{id}?page=99999999999999999999",
])
def test_numbers_too_large_for_the_database_are_not_found(client, table, url):
    """PostgreSQL refuses them with an error: they must never reach it."""
    assert client.get(url.format(id=table.id)).status_code in (200, 404)
