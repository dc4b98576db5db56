"""Random and malformed input to every form and to the backup import: never a
5xx, and never a partial write.

Every POST rule of the app (from app.url_map, its ids filled with the signed-in
group's real rows) gets the fields of its own form, each kept, dropped, repeated
or replaced by random text, odd values, huge strings or another of its choices,
plus random fields. A file field (the backup import) gets random bytes, random
JSON, or the group's real export with one part replaced. An answer that is not
a redirect refused the input, so the database must be exactly as before; a
redirect accepted it, so the rounds must still add up. CSRF is off here so that
the data reaches the validators (test_access checks CSRF on every POST)."""

import copy
import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.probing import (
    ALPHA,
    REDIRECTS,
    invariant_problems,
    listed_rules,
    put_back,
    rule_id,
    rule_url,
    site_for_probing,
)

FUZZ = settings(max_examples=20, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

ODD = st.sampled_from([
    "", " ", "0", "-1", "1.005", "0.001", "99999999999999999999999", "1e309", "NaN", "-inf",
    "\x00", "\u202e\u202d", "ǅ", "\U0001F600" * 40, "<script>alert(1)</script>",
    "' OR 1=1 --", '=HYPERLINK("http://evil.example")', "../../etc/passwd", "%s%n", "None",
    "true", "[]", "{}", "x" * 5000, " \t\n ",
])
HUGE = st.just("9" * 300_000)
# Values that get past the first checks, so the fuzz reaches the services.
PLAUSIBLE = {
    "cards": ["", "AS 9H", "JK 7H", "10C", "KS QS", "2D", "AC AC 2S", "5S 5H"],
    "outcome": ["dead", "hu", "tien_hu", "no_passport"],
    "name": ["Fuzz table", "Nadia", "Zorblax", ALPHA[0]],
    "passphrase": ["a good passphrase", ALPHA[1]],
    "confirm": ["a good passphrase", ALPHA[1]],
    "device": ["Fuzz phone"],
    "cents": ["0", "1", "150"],
    "version": ["0", "1", "2", "3", "4", "5", "6", "7"],
}
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                 max_size=4),
    max_leaves=20)
DELETE = object()
MULTIPART_TEXT_MAX = 10_000


def plausible(name: str) -> list[str]:
    """Good values for a field, by the last word of its name (entries-0-cards: cards);
    seats-N gets a name of its own, so that the seats differ."""
    word = name.rsplit("-", 1)[-1]
    if word.isdigit():
        return [f"Player {word}", ""] if name.startswith("seats-") else []
    return PLAUSIBLE.get(word, [])


def value(name: str, options: set[str]):
    choices = sorted(options | set(plausible(name)))
    odd = st.one_of(st.text(max_size=40), ODD, st.integers(-2**70, 2**70).map(str), HUGE)
    if not choices:
        return odd
    return st.one_of(st.sampled_from(choices), st.sampled_from(choices), odd)


def form_data(data, form, careful: bool) -> dict:
    """The form's fields, each kept, dropped, repeated or changed, plus random
    fields and maybe a named button. A careful filling starts from good values
    (the page's own, else plausible ones) and changes at most two of them, so
    that some posts are saved."""
    values = form.values if form else {}
    options = form.options if form else {}
    names = sorted(set(values) | set(options))
    if careful:
        touched = set(data.draw(st.lists(st.sampled_from(names), max_size=2), label="touched")
                      if names else [])
    else:
        touched = set(names)
    posted = {}
    for name in names:
        kept = [v for v in values.get(name, []) if v]
        if not kept and careful and plausible(name):
            kept = [data.draw(st.sampled_from(plausible(name)), label=name)]
        kept = kept or values.get(name) or sorted(options.get(name, {""}))[:1]
        how = data.draw(st.sampled_from(["keep", "drop", "change", "change", "many"]),
                        label=f"{name}?") if name in touched else "keep"
        if how == "keep":
            posted[name] = kept
        elif how == "change":
            posted[name] = [data.draw(value(name, options.get(name, set())), label=name)]
        elif how == "many":
            posted[name] = data.draw(st.lists(value(name, options.get(name, set())),
                                              min_size=2, max_size=3), label=name)
    if careful and "confirm" not in touched and "passphrase" in posted:
        posted["confirm"] = posted["passphrase"]
    for name, pressed in sorted((form.buttons if form else {}).items()):
        press = data.draw(st.one_of(st.none(), st.sampled_from(sorted(pressed)), ODD),
                          label=f"button {name}")
        if press is not None:
            posted[name] = [press]
    extra = data.draw(st.dictionaries(st.text(min_size=1, max_size=12),
                                      st.lists(value("", set()), min_size=1, max_size=2),
                                      max_size=1 if careful else 3), label="extra fields")
    return {**extra, **posted}


def changed_document(data, document):
    """``document`` with one part (chosen by walking down it) replaced or removed."""
    document = copy.deepcopy(document)
    parent, key, node = None, None, document
    while isinstance(node, (dict, list)) and node and data.draw(st.booleans(), label="deeper"):
        key = data.draw(st.sampled_from(sorted(node) if isinstance(node, dict)
                                        else range(len(node))), label="part")
        parent, node = node, node[key]
    new = data.draw(st.one_of(JSON, ODD, st.just(DELETE), st.integers(-2**80, 2**80)),
                    label="new part")
    if parent is None:
        return None if new is DELETE else new
    if new is DELETE:
        del parent[key]
    else:
        parent[key] = new
    return document


def upload(data, exports: list[bytes], careful: bool):
    """A file for an upload field: random bytes, random JSON, or a real export, whole
    or with a part changed (more often so when careful)."""
    kinds = ["bytes", "json"] + (["export", "changed export"] * (3 if careful else 1)
                                 if exports else [])
    kind = data.draw(st.sampled_from(kinds), label="file kind")
    if kind == "bytes":
        content = data.draw(st.binary(max_size=3000), label="bytes")
    elif kind == "json":
        content = json.dumps(data.draw(JSON, label="json")).encode()
    else:
        export = data.draw(st.sampled_from(exports), label="export")
        document = json.loads(export)
        if kind == "changed export":
            document = changed_document(data, document)
        content = json.dumps(document, ensure_ascii=data.draw(st.booleans())).encode()
    name = data.draw(st.sampled_from(["backup.json", "", "x.exe", "\U0001F600.json"]))
    return io.BytesIO(content), name


POST_RULES = [pytest.param(rule, id=rule_id(rule)) for rule in listed_rules()
              if "POST" in rule.methods]


@pytest.fixture(scope="module")
def built_site(tmp_path_factory):
    with site_for_probing(tmp_path_factory.mktemp("fuzz"), WTF_CSRF_ENABLED=False) as site:
        yield site, site.rows()


@pytest.fixture
def fuzz_site(built_site):
    """The site as it was built, and its rows then."""
    site, rows = built_site
    with site.app.app_context():
        put_back(rows)
    return site, rows


@pytest.mark.parametrize("rule", POST_RULES)
def test_random_form_data_never_fails_nor_half_writes(fuzz_site, rule):
    """Each example starts from the same rows (what one saved is taken out), so
    that it can be replayed."""
    site, rows = fuzz_site
    path = rule_url(rule, site.alpha)
    form = site.forms.get(path)
    exports = list(site.json_bodies.values())

    @FUZZ
    @given(data=st.data())
    def post_random(data):
        careful = data.draw(st.booleans(), label="careful")
        posted = form_data(data, form, careful)
        files = sorted(form.files if form else ())
        for name in files:
            if data.draw(st.integers(0, 5), label=f"{name} sent?"):
                posted[name] = upload(data, exports, careful)
        if files:  # the test client spools bodies over 500 KB to a file it never closes
            posted = {name: shortened(values) for name, values in posted.items()}
        response = site.member(site.alpha).post(path, data=posted)
        assert response.status_code < 500
        if response.status_code in REDIRECTS:
            with site.app.app_context():
                assert invariant_problems() == []
                put_back(rows)
        else:
            assert site.rows() == rows, f"refused with {response.status_code} but wrote"

    post_random()


# JSON bodies, sent to every POST rule: the hand of a round filled in together
# reads one, and every change's once-only key is read from one (web/once.py).
HAND = {"outcome": "dead", "cards": "2S", "base": 0, "number": 1}
UNSTORABLE_TEXT = st.sampled_from(["\ud800", "\udfff 2S", "2S\x00", "x\ud83d"])
JSON_BODY = st.one_of(
    JSON.map(json.dumps),
    st.fixed_dictionaries({}, optional={**{name: st.one_of(JSON, UNSTORABLE_TEXT)
                                           for name in HAND}, "key": UNSTORABLE_TEXT})
    .map(lambda changed: json.dumps({**HAND, **changed})),
    st.sampled_from(["[", "{", "NaN", '{"base": 1' + "0" * 5000 + "}"]),
).map(str.encode) | st.sampled_from([b"[" * 100_000, b"[" * 100_000 + b"]" * 100_000,
                                     b'{"cards": "\xed\xa0\x80"}', b"\xff"])


@pytest.mark.parametrize("rule", POST_RULES)
def test_random_json_never_fails_nor_half_writes(fuzz_site, rule):
    """A 100,000-deep list or half a surrogate pair made a 500 (the parser
    overflowed; neither database's text holds one): now a 400 saying why."""
    site, rows = fuzz_site
    path = rule_url(rule, site.alpha)

    @settings(FUZZ, max_examples=20)
    @given(body=JSON_BODY)
    def post_json(body):
        response = site.member(site.alpha).post(path, data=body,
                                                content_type="application/json")
        assert response.status_code < 500
        if response.status_code in (200, *REDIRECTS):
            with site.app.app_context():
                assert invariant_problems() == []
                put_back(rows)
        else:
            assert site.rows() == rows, f"refused with {response.status_code} but wrote"

    post_json()


def shortened(values):
    if isinstance(values, list):
        return [v[:MULTIPART_TEXT_MAX] for v in values]
    return values


QUERY_KEYS = st.sampled_from(["page", "player", "cards", "preset", "next", "number"]) | st.text(
    min_size=1, max_size=8)


def test_random_query_strings_never_fail_nor_write(fuzz_site):
    site, rows = fuzz_site
    rules = [rule for rule in listed_rules() if "GET" in rule.methods]

    @settings(FUZZ, max_examples=60)
    @given(rule=st.sampled_from(rules), member=st.booleans(),
           query=st.dictionaries(QUERY_KEYS, st.lists(value("", set()), max_size=2), max_size=3))
    def get_random(rule, member, query):
        client = site.member(site.alpha) if member else site.app.test_client()
        response = client.get(rule_url(rule, site.alpha), query_string=query)
        assert response.status_code < 500
        response.close()
        assert site.rows() == rows

    get_random()
