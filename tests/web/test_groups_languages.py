"""The group's pages and the services' refusals in the phone's language (issue
27): a service says why in English with its values (N_); the web layer words
it for the phone that reads it."""

import pytest

from tests.web.helpers import visible_text
from tests.web.test_groups import change_passphrase, post

pytestmark = pytest.mark.any_database


def in_language(client, tag):
    client.set_cookie("language", tag)
    return client


def test_a_service_s_refusal_reads_in_the_phone_s_language(client):
    chinese = change_passphrase(in_language(client, "zh-Hans"), current="not the passphrase")
    assert chinese.status_code == 422 and "当前密码不正确" in visible_text(chinese)
    malay = change_passphrase(in_language(client, "ms"), current="not the passphrase")
    assert "Frasa laluan semasa tidak betul" in visible_text(malay)


def test_a_time_zone_changed_on_a_malay_phone_reads_in_chinese_in_the_group_s_history(client):
    answer = post(in_language(client, "ms"), "/group/timezone", {"timezone": "Europe/London"})
    assert answer.status_code == 302
    page = visible_text(in_language(client, "zh-Hans").get("/group"))
    assert "时区已从 马来西亚槟城 改为 伦敦" in page
    malay = visible_text(in_language(client, "ms").get("/group"))
    assert "Zon waktu ditukar daripada Pulau Pinang kepada London" in malay
