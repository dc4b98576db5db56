"""A backup's refusals in the phone's language (issue 27): where in the file
("Session 1, round 2, Ann's entry") and what is wrong are worded for the
reader, JSON's keys in quotes and the file's values as they are; and every
refusal the check makes, of a part at any depth, is a message of the catalog."""

import copy
import json
import re
from html import unescape

import pytest

from scorekeeper import backup, catalogs
from scorekeeper.backup import BackupError, read_backup
from scorekeeper.phrases import Phrase
from scorekeeper.rules.scoring import OUTCOMES
from scorekeeper.web.locales import SOURCE
from scorekeeper.web.presenters.refusals import refusal
from tests.web.backups import post_import
from tests.web.helpers import visible_text
from tests.web.test_backup_import import HOSTILE
from tests.web.test_translations import POT, pseudo_catalog, read, unmarked_words

pytestmark = pytest.mark.any_database


def _spoiled(path, value=None, *, delete=False):
    """The document with the value at ``path`` (keys and list indexes) set or deleted."""
    def change(document):
        *parents, last = path
        target = document
        for key in parents:
            target = target[key]
        if delete:
            del target[last]
        else:
            target[last] = value
        return document
    return change


def _entries(document):
    return document["sessions"][0]["rounds"][0]["entries"]


def _ann_s(key, value):
    """Ann's entry in the first round, its ``key`` set to ``value``."""
    def change(document):
        next(e for e in _entries(document) if e["player"] == "Ann")[key] = value
        return document
    return change


def _one_entry(document):
    del _entries(document)[1:]
    return document


def _no_players_in_a_start(document):
    start = next(e for e in document["audit"] if e["action"] == "session.start")
    del start["after"]["players"]
    return document


def _start_number(document) -> int:
    return next(n for n, e in enumerate(document["audit"], start=1)
                if e["action"] == "session.start")


REFUSED = {
    "a seat's player": ("zh-Hans", _spoiled(["sessions", 0, "seats", 0, "player"], "Zed"),
                        "第 1 场，第 1 个座位：\"player\" 是 'Zed'，但此人不是本群组的玩家。"),
    "a hand's cards": ("ms", _ann_s("cards", "ZZ"), "Sesi 1, pusingan 1: kad Ann: 'ZZ' bukan kad."),
    "a player's entry": ("zh-Hans", _ann_s("seat", "x"),
                         "第 1 场，第 1 局，Ann 的记录：\"seat\" 必须是 0 到 5 之间的整数，"
                         "不能是 'x'。"),
    "a payment": ("ms", _spoiled(["sessions", 0, "payments", 0, "cents"], "1.50"),
                  "Sesi 1, bayaran 1: \"cents\" mesti nombor bulat dari 1 hingga 1,000,000,000, "
                  "bukan '1.50'."),
    "house rules the engine refuses": (
        "zh-Hans", _spoiled(["sessions", 0, "house_rules", "packs"], 99),
        "第 1 场的本桌规则：“packs”必须是 1 到 4 之间的整数，不能是 99。"),
    "the group": ("zh-Hans", _spoiled(["group", "name"], ""),
                  "备份中的群组：\"name\" 有 0 个字符；必须有 1 到 40 个。"),
    "a round of one entry": ("ms", _one_entry,
                             "Sesi 1, pusingan 1: \"entries\" ada 1 item; sandaran membenarkan "
                             "2 hingga 6."),
    "a round of one entry, in English": (
        "en", _one_entry, 'Session 1, round 1: "entries" has 1 item; a backup allows 2 to 6.'),
    "a number in the file": ("ms", _spoiled(["exported_at"], 1.5),
                             'Fail ini mengandungi nombor 1.5 di "exported_at", tetapi setiap '
                             "nombor dalam sandaran Scorekeeper ialah nombor bulat (wang dalam "
                             "sen)."),
}


@pytest.mark.parametrize("tag, spoil, said", REFUSED.values(), ids=REFUSED.keys())
def test_a_refusal_of_a_part_of_a_backup_reads_in_the_phone_s_language(
        anonymous, backup_document, tag, spoil, said):
    document = spoil(copy.deepcopy(backup_document))
    anonymous.set_cookie("language", tag)
    answer = post_import(anonymous, json.dumps(document).encode(), name="Kept name")
    assert answer.status_code == 422
    error = re.search(r'<p class="error" id="backup-error">(.*?)</p>', answer.text, re.S)
    assert unescape(error.group(1)) == said
    assert 'value="Kept name"' in answer.text and 'value="Phone B"' in answer.text


def test_a_payload_s_refusal_names_its_event_and_keys_in_the_phone_s_language(
        anonymous, backup_document):
    document = _no_players_in_a_start(copy.deepcopy(backup_document))
    anonymous.set_cookie("language", "ms")
    answer = post_import(anonymous, json.dumps(document).encode())
    assert answer.status_code == 422
    assert (f'"after" dalam Peristiwa audit {_start_number(document)}: "players" tiada.'
            in visible_text(answer))


# Every refusal a part of a backup meets, in the pseudo-locale


def _paths(document, path=()):
    """The path (keys and list indexes) of every value inside ``document``."""
    if isinstance(document, dict):
        items = document.items()
    elif isinstance(document, list):
        items = enumerate(document)
    else:
        return
    for key, value in items:
        yield (*path, key)
        yield from _paths(value, (*path, key))


def _shape(path) -> tuple:
    return tuple("*" if isinstance(step, int) else step for step in path)


ODD_VALUES = [None, "", "x", -1, 10 ** 12, 1.5, [], {}, [{}], True, "ZZ",
              "2150-01-01T00:00:00Z"]


def broken_documents(document, under=()):
    """The document spoiled at each shape of path (the first session's rounds
    stand for the others', an audit action's payload for its kind's): the
    value deleted, and set to two of ODD_VALUES, taken in turn; only inside
    ``under``, if given."""
    seen: set[tuple] = set()
    for path in _paths(document):
        if path[:len(under)] != under:
            continue
        shape = _shape(path) if path[0] != "audit" or len(path) < 2 else (
            document["audit"][path[1]]["action"], *_shape(path[2:]))
        if shape in seen:
            continue
        seen.add(shape)
        if isinstance(path[-1], str):
            yield _spoiled(list(path), delete=True)(copy.deepcopy(document))
        for turn in (len(seen), len(seen) + len(ODD_VALUES) // 2):
            value = ODD_VALUES[turn % len(ODD_VALUES)]
            yield _spoiled(list(path), value)(copy.deepcopy(document))


def _event(document, action, n=0):
    return [e for e in document["audit"] if e["action"] == action][n]


def _first_session(document):
    return document["sessions"][0]


# Refusals no single spoiled value reaches: parts that disagree with each other.
DEEP = [
    lambda d: _first_session(d)["seats"][1].update(player="Ann"),
    lambda d: _first_session(d)["seats"][0].update(position=7),
    lambda d: [seat.update(active=False) for seat in _first_session(d)["seats"][1:]],
    lambda d: _first_session(d)["payments"][0].update(payee="Ann", payer="Ann"),
    lambda d: _first_session(d).update(currency="  "),
    lambda d: d["group"].update(timezone="Mars/Olympus_Mons"),
    lambda d: _entries(d).pop(),  # the dealer's hand
    lambda d: _entries(d)[1].update(player=_entries(d)[0]["player"]),
    lambda d: _entries(d)[0].update(seat=5),
    lambda d: _entries(d)[0].update(outcome="won"),
    lambda d: d["audit"][0].update(action="Nope"),
    lambda d: d.update(sessions=[]),
    lambda d: _event(d, "round.add").update(session=None),
    lambda d: _event(d, "round.add")["after"].update(entered_by={"Zed": "Phone A"}),
    lambda d: _event(d, "round.add")["after"].update(entered_by={"Ann": "P" * 99}),
    lambda d: _event(d, "round.add")["after"].update(dealer="Zed"),
    lambda d: _event(d, "round.add")["after"].update(dealer=" "),
    lambda d: _event(d, "round.add")["after"]["entries"][0].update(turn=9),
    lambda d: _event(d, "round.add")["after"]["entries"][0].update(cards="ZZ"),
    lambda d: _event(d, "round.add")["after"].update(entries=[]),
    lambda d: _event(d, "round.restore")["after"].update(restores=999),
    lambda d: _event(d, "payment.paid")["after"].update(cents=2 * 10 ** 9),
    lambda d: _event(d, "session.start")["after"]["house_rules"].update(packs=99),
    lambda d: _event(d, "session.start").update(after=None),
    lambda d: _event(d, "round.add")["after"]["entries"][0].update(player=" "),
    lambda d: _event(d, "round.add")["after"].update(entered_by={" ": "Phone A"}),
    lambda d: d.update(version=10 ** 17),
    lambda d: d["players"][0].update(payto={"kind": "cash", "value": "x"}),
    lambda d: d["players"][0].update(payto={"kind": "duitnow_mykad", "value": "12"}),
    lambda d: d["players"][0].update(payto={"kind": "duitnow_mykad",
                                            "value": "900101-14-5678"}),
]
# Files whose every number is refused where it is: the whole file, a list's item.
NUMBERS = [b"1.5", b"[1.5]"]
# Limits made small, for a backup over each.
SMALL_LIMITS = {"MAX_ALL_ROUNDS": 1, "MAX_ALL_SEATS": 1, "MAX_ALL_PAYMENTS": 1, "MAX_BYTES": 100}


def _deeply_broken(document, spoil):
    spoil(document)
    return document


def messages_of(phrase: Phrase) -> set:
    found = {phrase.message[0] if isinstance(phrase.message, tuple) else phrase.message}
    for value in phrase.values.values():
        if isinstance(value, Phrase):
            found |= messages_of(value)
    return found


def texts_of(phrase: Phrase) -> list[str]:
    """The values of ``phrase``, and of the phrases in it, that are shown as
    they are (the JSON reader's own words left out: English for all)."""
    found = []
    for name, value in phrase.values.items():
        if isinstance(value, Phrase):
            found += texts_of(value)
        elif isinstance(value, str) and name != "why":
            found.append(value)
    return found


def data_removed(text: str, names) -> str:
    """``text`` without the file's data: quoted keys and values, names (as
    the file spells them), the outcomes' codes, numbers and times, the
    literals of JSON and Python that a value is shown as, and sizes in MB."""
    text = re.sub(r"\"[^\"]*\"|'[^']*'|“[^”]*”|\S*\d\S*", " ", text)
    for word in sorted(names, key=len, reverse=True):
        text = re.sub(re.escape(word), " ", text, flags=re.IGNORECASE)
    return re.sub(r"\b(null|None|True|False|true|false|NaN|Infinity|MB)\b", " ", text)


BACKUP_CHECK = ("scorekeeper/backup/", "scorekeeper/stored_json.py", "scorekeeper/limits.py")


def read_with(monkeypatch, limit: str, most: int, body: bytes):
    with monkeypatch.context() as patched:
        patched.setattr(backup.check, limit, most)
        return read_backup(body)


@pytest.mark.own_app  # its English is the pseudo-locale
def test_every_refusal_of_a_broken_backup_is_a_message_of_the_catalog_worded_whole(
        app, backup_document, monkeypatch):
    catalogs.install(app, SOURCE.locale, pseudo_catalog())
    template = {message.id[0] if isinstance(message.id, tuple) else message.id
                for message in read(POT) if message.id}
    names = {p["name"] for p in backup_document["players"]} | set(OUTCOMES)
    documents = [json.dumps(each).encode() for each in broken_documents(backup_document)]
    # A payment across sessions, which the evenings have none of.
    across = copy.deepcopy(backup_document)
    across["payments"] = [{"payer": "Ann", "payee": "Bob", "cents": 150, "currency": "RM",
                           "paid_at": "2026-11-20T22:00:00Z"}]
    documents += [json.dumps(each).encode() for each in broken_documents(across, ("payments",))]
    for spoil in ({"payee": "Ann"}, {"currency": " "}):
        spoiled = copy.deepcopy(across)
        spoiled["payments"][0].update(spoil)
        documents.append(json.dumps(spoiled).encode())
    documents += [json.dumps(_deeply_broken(copy.deepcopy(backup_document), spoil)).encode()
                  for spoil in DEEP]
    documents += [make(copy.deepcopy(backup_document)) for make, _ in HOSTILE.values()]
    documents += NUMBERS
    valid = json.dumps(backup_document).encode()
    tries = [(lambda body=body: read_backup(body)) for body in documents] + [
        lambda: read_backup(valid, seconds=-1)] + [
        (lambda name=name, most=most: read_with(monkeypatch, name, most, valid))
        for name, most in SMALL_LIMITS.items()]
    refusals, unmarked, unknown = set(), {}, set()
    with app.test_request_context("/"):
        for attempt in tries:
            try:
                attempt()
            except BackupError as error:
                shown = refusal(error)
                said = messages_of(error.phrase)
                refusals |= said
                unknown |= said - template
                # Outside the messages, and in the values shown as they are, only data.
                why = str(error.phrase.values.get("why") or "⟦⟧")
                left = [data_removed(text, names) for text in [shown.replace(why, " "),
                                                               *texts_of(error.phrase)]]
                if found := [word for text in left for word in unmarked_words(text)]:
                    unmarked[shown] = found
    assert unknown == set() and unmarked == {}
    # The sweep reaches every message of the backup check, places and words included.
    assert {message.id[0] if isinstance(message.id, tuple) else message.id
            for message in read(POT) if message.id and all(
                path.startswith(BACKUP_CHECK) for path, _ in message.locations)} - refusals == set()
