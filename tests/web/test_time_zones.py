"""Times are stored in UTC and shown in the group's time zone: every page of
the group, the shared pages (in the shared session's group's zone), the group
page that changes the zone, and the backup that carries it.

Rows are given known UTC times by writing ``started_at`` / ``at`` directly.
16:17 UTC on Saturday 21 November 2026 is 00:17 on Sunday 22 November in
Penang (UTC+8): the UTC day and the local day differ.
"""

import json
import re
from datetime import datetime

import pytest
import sqlalchemy as sa

from scorekeeper import backup, services
from scorekeeper.extensions import db
from scorekeeper.forms import groups
from scorekeeper.limits import DEFAULT_TIMEZONE
from scorekeeper.models import AuditEvent, GameSession, Group, Player, ShareLink
from scorekeeper.web.filters import date_time, day_time, iso_time, local_time, long_date
from tests.conftest import PASSPHRASE, signed_in_client
from tests.web.backups import post_import
from tests.web.examples import EXAMPLE_1, EXAMPLE_2, EXAMPLE_RULES, TYPED_2
from tests.web.helpers import WEIGHT_LIMIT, csrf_token, filled, make_link, page_weight, text

AT = datetime(2026, 11, 21, 16, 17)  # UTC
UTC_DAY, LOCAL_DAY = "Sat 21 Nov 2026", "Sun 22 Nov 2026"
LOCAL_WHEN = "Sun 22 Nov, 00:17"
WEEKDAY_DATE = re.compile(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2}\b")


def at_known_time(session_id=None):
    """Every session, change and share link (only the session's, if one is
    given) dated AT, as if everything was done at 16:17 UTC."""
    def only_its(statement, column):
        return statement if session_id is None else statement.where(column == session_id)

    db.session.execute(only_its(sa.update(GameSession), GameSession.id).values(started_at=AT))
    db.session.execute(only_its(sa.update(GameSession), GameSession.id)
                       .where(GameSession.ended_at.is_not(None)).values(ended_at=AT))
    db.session.execute(only_its(sa.update(AuditEvent), AuditEvent.session_id).values(at=AT))
    db.session.execute(only_its(sa.update(ShareLink), ShareLink.session_id).values(created_at=AT))
    db.session.commit()


@pytest.fixture
def sid(our_group):
    """A session of four with two rounds, everything at AT."""
    session = services.start_session(services.Change(our_group, device="Mei's phone"),
                                     list("ABCD"), EXAMPLE_RULES, first_dealer="D")
    for entries in (EXAMPLE_1, EXAMPLE_2):
        services.record_round(services.Change.to(session, device="Mei's phone"), entries)
    at_known_time()
    return session.id


def zone_of(group_id):
    db.session.expire_all()
    return db.session.get(Group, group_id).timezone


def zone_events(group_id):
    return list(db.session.scalars(sa.select(AuditEvent).where(
        AuditEvent.group_id == group_id, AuditEvent.action == "group.timezone")))


def choose_zone(client, zone):
    return client.post("/group/timezone", data={"csrf_token": csrf_token(client),
                                                "timezone": zone})


# The filters


@pytest.mark.parametrize("zone, day, when", [
    ("Asia/Kuala_Lumpur", "Sun 22 Nov 2026", "Sun 22 Nov, 00:17"),
    ("UTC", "Sat 21 Nov 2026", "Sat 21 Nov, 16:17"),
    ("America/New_York", "Sat 21 Nov 2026", "Sat 21 Nov, 11:17"),
    ("Asia/Kolkata", "Sat 21 Nov 2026", "Sat 21 Nov, 21:47"),
    ("Pacific/Kiritimati", "Sun 22 Nov 2026", "Sun 22 Nov, 06:17"),
])
def test_the_filters_show_a_utc_time_in_the_zone_given(zone, day, when):
    assert long_date(AT, zone) == day
    assert day_time(AT, zone) == when
    assert date_time(AT, zone) == f"{day}, {when.split(', ')[1]}"


def test_a_session_at_half_past_eleven_at_night_belongs_to_that_local_day():
    assert long_date(datetime(2026, 11, 21, 15, 30), "Asia/Kuala_Lumpur") == "Sat 21 Nov 2026"
    assert day_time(datetime(2026, 11, 21, 15, 30), "Asia/Kuala_Lumpur") == "Sat 21 Nov, 23:30"
    assert long_date(datetime(2026, 11, 21, 16, 30), "Asia/Kuala_Lumpur") == "Sun 22 Nov 2026"


def test_summer_time_is_followed():
    assert day_time(datetime(2026, 7, 1, 12, 0), "Europe/London") == "Wed 1 Jul, 13:00"
    assert day_time(datetime(2026, 12, 1, 12, 0), "Europe/London") == "Tue 1 Dec, 12:00"
    assert iso_time(datetime(2026, 7, 1, 12, 0), "Europe/London") == "2026-07-01T13:00+01:00"


def test_without_a_zone_the_filters_use_the_signed_in_groups(app, our_group):
    with app.test_request_context():
        from flask import session

        from scorekeeper.web.access import sign_in
        sign_in(our_group, "Test phone")
        assert iso_time(AT) == "2026-11-22T00:17+08:00"
        session.clear()
        with pytest.raises(LookupError):  # a page of no group shows no group's time
            local_time(AT)


# The group's pages, in Penang's time


def test_every_page_of_the_group_shows_penang_time(client, sid, our_group):
    b = db.session.get(Player, db.session.scalar(sa.select(Player.id).where(
        Player.group_id == our_group.id, Player.name == "B")))
    pages = {
        "/": f"Started {LOCAL_WHEN}",  # an open session: its day and time
        f"/sessions/{sid}": LOCAL_DAY,
        f"/sessions/{sid}/settle": LOCAL_DAY,
        f"/sessions/{sid}/changes": LOCAL_WHEN,
        f"/players/{b.id}": LOCAL_DAY,
        f"/history/sessions/{sid}": LOCAL_DAY,
        "/group": f"{LOCAL_DAY}, 00:17",  # the players joining the group
    }
    for url, shown in pages.items():
        page = text(client.get(url))
        assert shown in page, url
        assert UTC_DAY not in page and "Sat 21 Nov" not in page, url
        assert "16:17" not in page, url
    changes = client.get(f"/sessions/{sid}/changes").text
    assert f'<time datetime="2026-11-22T00:17+08:00">{LOCAL_WHEN}</time>' in changes


def test_an_ended_session_and_the_history_list_show_the_local_day(client, sid):
    services.end_session(services.Change.to(db.session.get(GameSession, sid)))
    at_known_time(sid)
    board = text(client.get(f"/sessions/{sid}"))
    assert f"Ended {LOCAL_WHEN}, after" in board  # the night's summary
    history = text(client.get("/history"))
    assert LOCAL_DAY in history and UTC_DAY not in history
    assert LOCAL_WHEN in text(client.get(f"/sessions/{sid}/changes"))  # "Session ended"


def test_the_share_links_page_dates_its_links_locally(client, sid):
    make_link(client, sid)
    at_known_time(sid)
    page = text(client.get(f"/sessions/{sid}/share"))
    assert f"made {LOCAL_DAY}" in page and UTC_DAY not in page


def test_the_notice_of_another_phones_save_shows_local_time(client, our_group):
    session = services.start_session(services.Change(our_group),
                                     list("ABCD"), EXAMPLE_RULES, first_dealer="D")
    base = f"/sessions/{session.id}/rounds"
    form = text(client.get(f"{base}/new"))
    services.record_round(services.Change.to(session),
                          EXAMPLE_1)  # another phone saves round 1 meanwhile
    at_known_time(session.id)
    notice = text(client.post(f"{base}/new", data=filled(form, TYPED_2)))
    notice = notice.split('id="round-summary"')[1].split("</div>")[0]
    assert f'datetime="2026-11-22T00:17+08:00">{LOCAL_WHEN}</time>' in notice


# Changing the zone


def test_the_group_page_offers_the_zones_near_the_table_first(client):
    html = client.get("/group").text
    select = re.search(r'<select[^>]*name="timezone".*?</select>', html, re.S)[0]
    assert '<label for="timezone">The group\'s time zone</label>' in html
    common, others = select.split('<optgroup label="Every other time zone">')
    # an option shown as its value is written short: <option>UTC
    near = re.findall(r'<option (?:selected )?value="([^"]+)"|<option>([^<]+)', common)
    assert ["".join(n) for n in near] == [
        "Asia/Kuala_Lumpur", "Asia/Singapore", "Asia/Jakarta", "Asia/Bangkok", "Asia/Hong_Kong",
        "Australia/Perth", "Europe/London", "UTC"]
    assert '<option selected value="Asia/Kuala_Lumpur">Penang, Malaysia (UTC+8)<option' in common
    # then one zone of each place, by its IANA name, shown as CLDR names its city
    every = {value or label: label for value, label in
             re.findall(r'<option(?: value="([^"]+)")?>([^<]+)', others)}
    assert list(every) == sorted(every) == sorted(set(groups.listed_zones()) - {
        "".join(n) for n in near})
    assert every["Europe/Paris"] == "Paris" and every["America/Argentina/Buenos_Aires"] == \
        "Buenos Aires" and every["Asia/Kolkata"] == "Kolkata"
    assert len(set(every.values())) == len(every)  # no place twice
    assert "Asia/Calcutta" not in every and "US/Eastern" not in every  # old names of places
    assert "Asia/Singapore" not in every and "localtime" not in select and "Factory" not in select


def test_the_zones_are_listed_by_their_names_in_the_phone_s_language(client):
    client.set_cookie("language", "zh-Hans")
    html = client.get("/group").text
    assert '<option value="Europe/Paris">巴黎' in html
    assert '<option value="America/Argentina/Buenos_Aires">布宜诺斯艾利斯' in html
    client.set_cookie("language", "ms")
    assert '<option value="Europe/Paris">Paris' in client.get("/group").text
    assert choose_zone(client, "Europe/Paris").status_code == 302
    client.set_cookie("language", "zh-Hans")
    assert "现在按巴黎时间显示。" in text(client.get("/group?timezone=changed"))


def test_a_zone_not_listed_is_still_taken_and_shown_chosen(client, our_group):
    """An old name of a place (Asia/Calcutta for Asia/Kolkata) is a zone all
    the same: a group that has it keeps it, shown selected."""
    assert choose_zone(client, "Asia/Calcutta").status_code == 302
    assert zone_of(our_group.id) == "Asia/Calcutta"
    html = client.get("/group").text
    assert '<option selected value="Asia/Calcutta">Kolkata' in html
    assert '<option value="Asia/Kolkata">Kolkata' in html


def test_changing_the_zone_changes_what_is_shown_and_is_audited(client, sid, group):
    answer = choose_zone(client, "Europe/London")
    assert answer.status_code == 302
    assert answer.location == "/group?timezone=changed#timezone-title"
    assert zone_of(group.id) == "Europe/London"
    (event,) = zone_events(group.id)
    assert (event.before, event.after) == ({"timezone": "Asia/Kuala_Lumpur"},
                                          {"timezone": "Europe/London"})
    assert event.device == "Test phone" and event.session_id is None

    page = text(client.get("/group?timezone=changed"))
    assert "Times are now shown in London time." in page
    assert "Time zone changed from Penang, Malaysia to London" in page
    assert '<option selected value="Europe/London">' in client.get("/group").text
    assert UTC_DAY in text(client.get(f"/sessions/{sid}"))
    assert "Sat 21 Nov, 16:17" in text(client.get(f"/sessions/{sid}/changes"))

    # choosing the zone it has already changes nothing
    assert choose_zone(client, "Europe/London").status_code == 302
    assert len(zone_events(group.id)) == 1


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "", "localtime", "Factory",
                                  "asia/kuala_lumpur", "../../etc/passwd", "A" * 5000, None])
def test_a_zone_not_on_the_list_is_refused_and_nothing_changes(client, our_group, zone):
    data = {"csrf_token": csrf_token(client)}
    if zone is not None:
        data["timezone"] = zone
    answer = client.post("/group/timezone", data=data)
    assert answer.status_code == 422
    html = answer.text
    assert re.search(r'<p class="error" id="timezone-error">Choose a time zone from the list.</p>',
                     html)
    assert 'aria-invalid="true"' in html
    assert '<option selected value="Asia/Kuala_Lumpur">' in html  # the zone kept
    assert zone_of(our_group.id) == DEFAULT_TIMEZONE and zone_events(our_group.id) == []


def test_the_zone_is_changed_only_by_a_signed_in_phone_with_the_token(client, anonymous,
                                                                     our_group, own_tokens):
    assert client.post("/group/timezone", data={"timezone": "UTC"}).status_code == 400
    answer = anonymous.post("/group/timezone", data={
        "csrf_token": csrf_token(anonymous, "/sign-in"), "timezone": "UTC"})
    assert answer.status_code == 302 and answer.location.startswith("/sign-in")
    assert zone_of(our_group.id) == DEFAULT_TIMEZONE and zone_events(our_group.id) == []


def test_the_service_refuses_an_unknown_zone(our_group):
    with pytest.raises(services.ServiceError):
        services.set_timezone(services.Change(our_group), "Penang/Georgetown")
    assert zone_of(our_group.id) == DEFAULT_TIMEZONE


def test_a_new_group_has_penangs_zone(app, anonymous):
    form = {"csrf_token": csrf_token(anonymous, "/groups/new"), "name": "Tuesday table",
            "passphrase": PASSPHRASE, "confirm": PASSPHRASE, "device": "Ann"}
    assert anonymous.post("/groups/new", data=form).status_code == 302
    with app.app_context():
        made = db.session.scalar(sa.select(Group).where(Group.name == "Tuesday table"))
        assert made.timezone == DEFAULT_TIMEZONE == "Asia/Kuala_Lumpur"


def test_the_group_page_stays_under_60_kb_with_its_css_and_js(client, our_group):
    for n in range(0, 26, 2):  # players added: more than the page lists
        names = [f"Player with a long name {n:02d}", f"Player with a long name {n + 1:02d}"]
        services.start_session(services.Change(our_group, device="A phone with a long name"),
                               names, EXAMPLE_RULES, first_dealer=names[0])
    for language in ("en", "ms", "zh-Hans"):  # the zones' names in each
        client.set_cookie("language", language)
        page = client.get("/group").text
        assert "/static/css/app." in page
        assert page_weight(page) < WEIGHT_LIMIT, language


# The shared pages


def test_a_shared_page_shows_the_sessions_groups_time_whoever_opens_it(app, client, anonymous,
                                                                      sid):
    url = make_link(client, sid)
    services.end_session(services.Change.to(db.session.get(GameSession, sid)))
    at_known_time(sid)
    other = services.create_group("Night owls", "another passphrase")
    services.set_timezone(services.Change(other), "America/New_York")
    night_owl = signed_in_client(app, other)
    for viewer in (anonymous, night_owl):
        for page in (url, url + "/settle"):
            shown = text(viewer.get(page))
            assert LOCAL_DAY in shown and UTC_DAY not in shown, page
        assert f"Ended {LOCAL_WHEN}, after" in text(viewer.get(url))  # the night's summary


def test_signed_out_pages_show_no_times(anonymous, sid):
    for url in ("/", "/sign-in", "/groups/new", "/groups/import"):
        assert not WEEKDAY_DATE.search(text(anonymous.get(url))), url


# The backup


def test_the_json_export_carries_the_zone_and_reading_it_keeps_it(client, our_group):
    services.set_timezone(services.Change(our_group, device="Test phone"), "Asia/Singapore")
    document = client.get("/group/export.json").get_json()
    assert document["group"] == {"name": "Friday table", "timezone": "Asia/Singapore"}
    found = backup.read_backup(json.dumps(document).encode())
    assert found.timezone == "Asia/Singapore"
    event = next(e for e in found.events if e.action == "group.timezone")
    assert event.after == {"timezone": "Asia/Singapore"}


def imported_zone(name="Back again"):
    db.session.expire_all()
    return db.session.scalar(sa.select(Group.timezone).where(Group.name == name))


def test_an_imported_group_keeps_the_zone(client, anonymous, our_group, sid):
    services.set_timezone(services.Change(our_group), "Asia/Singapore")
    document = client.get("/group/export.json").get_json()
    assert post_import(anonymous, json.dumps(document).encode()).status_code == 302
    assert imported_zone() == "Asia/Singapore"


def test_a_backup_without_a_zone_is_imported_with_penangs(client, anonymous, sid):
    document = client.get("/group/export.json").get_json()
    del document["group"]["timezone"]  # as backups made before groups had zones
    assert backup.read_backup(json.dumps(document).encode()).timezone == DEFAULT_TIMEZONE
    assert post_import(anonymous, json.dumps(document).encode()).status_code == 302
    assert imported_zone() == DEFAULT_TIMEZONE


@pytest.mark.parametrize("zone, message", [
    ("Mars/Olympus_Mons", "'Mars/Olympus_Mons', which is not a time zone this Scorekeeper knows"),
    ("localtime", "'localtime', which is not a time zone"),
    (8, '"timezone" must be text, not a number'),
    (None, '"timezone" must be text, not null'),
    ("", '"timezone" has 0 characters'),
    ("A" * 65, '"timezone" has 65 characters'),
])
def test_a_backup_with_a_bad_zone_is_refused_and_nothing_is_written(client, anonymous, sid,
                                                                   zone, message):
    document = client.get("/group/export.json").get_json()
    document["group"]["timezone"] = zone
    with pytest.raises(backup.BackupError, match=re.escape(message)):
        backup.read_backup(json.dumps(document).encode())
    groups = db.session.scalar(sa.select(sa.func.count(Group.id)))
    answer = post_import(anonymous, json.dumps(document).encode())
    assert answer.status_code == 422 and "The backup&#39;s group" in answer.text
    assert db.session.scalar(sa.select(sa.func.count(Group.id))) == groups
