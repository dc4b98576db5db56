"""The history of changes and the live notice in the reader's language (issue
27): a change is kept as its typed payload and worded when read, so a change
made from a phone in Malay reads in Chinese on a phone in Chinese."""

import pytest
import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent
from tests.web.examples import TYPED_1, TYPED_2
from tests.web.helpers import form_values, text, visible_text
from tests.web.test_changes import game, record

pytestmark = pytest.mark.any_database


def in_language(client, tag):
    client.set_cookie("language", tag)
    return client


def test_a_round_deleted_from_a_malay_phone_reads_in_chinese_on_the_next_phone(client, sid):
    record(sid, TYPED_1, TYPED_2, device="Mei")
    seen = game(sid).version  # the version a Chinese phone's open form was made at

    malay = in_language(client, "ms")
    page = text(malay.get(f"/sessions/{sid}/rounds/2"))
    deleted = malay.post(f"/sessions/{sid}/rounds/2/delete", data=form_values(page),
                         follow_redirects=True)
    assert "Pusingan 2 dipadam. Sejarah perubahan boleh memulihkannya." in text(deleted)
    event = db.session.scalars(sa.select(AuditEvent).order_by(AuditEvent.id.desc())).first()
    assert event.action == "round.delete"  # kept as data: no words of any language
    assert "Pusingan" not in f"{event.subject} {event.before} {event.after}"

    chinese = in_language(client, "zh-Hans")
    notice = visible_text(chinese.get(f"/sessions/{sid}/live/since/{seen}"))
    assert "第 2 局已删除（来自 Test phone）" in notice and "发生在您打开本页期间" in notice
    assert "改了什么 第 2 局已删除：D 20 分 −3.00" in notice  # What changed: the hands
    assert "隐藏" in notice and "Round" not in notice

    history = visible_text(chinese.get(f"/sessions/{sid}/changes"))
    assert "更改记录" in history
    assert "第 2 局已删除" in history and "来自 Test phone" in history
    assert "第 1 局已添加" in history and "来自 Mei 的手机" in history
    assert "恢复第 2 局" in history  # the Restore button

    malay_history = visible_text(in_language(client, "ms").get(f"/sessions/{sid}/changes"))
    assert "Pusingan 2 dipadam" in malay_history and "dari telefon Mei" in malay_history
    assert "Pulihkan pusingan 2" in malay_history


def test_points_are_counted_in_each_language(client, sid):
    record(sid, TYPED_1, device="Mei's phone")
    english = visible_text(in_language(client, "en").get(f"/sessions/{sid}/changes"))
    assert " 1 point " in english or " points " in english
    chinese = visible_text(in_language(client, "zh-Hans").get(f"/sessions/{sid}/changes"))
    malay = visible_text(in_language(client, "ms").get(f"/sessions/{sid}/changes"))
    assert " 分 " in chinese and "points" not in chinese and "Mei 的手机" in chinese
    assert " mata " in malay and "points" not in malay
