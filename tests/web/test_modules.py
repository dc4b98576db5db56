"""A page's JavaScript modules cost no round trip per import level (issue 24):
the server reads each module's imports, preloads every module a page's
scripts import, directly or not, under its fingerprinted name, and maps the
plain names that relative imports resolve to onto the fingerprinted ones."""

import hashlib
import json
import os
import re
from pathlib import Path
from urllib.parse import urljoin

import pytest
from flask import Flask, render_template_string

from scorekeeper.web import modules, static_files
from tests.web.helpers import ROOT, hash_source, import_maps, policy
from tests.web.probing import listed_rules, rule_url, site_for_probing

pytestmark = pytest.mark.any_database

STATIC = ROOT / "static"
MODULE = re.compile(r'<script type="module" src="([^"]+)"')
PRELOAD = re.compile(r'<link rel="modulepreload" href="([^"]+)">')


def fingerprinted(path: Path, folder: Path = STATIC) -> str:
    name = path.relative_to(folder).as_posix()
    root, ext = name.rsplit(".", 1)
    return f"/static/{root}.{hashlib.sha256(path.read_bytes()).hexdigest()[:8]}.{ext}"


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


@pytest.fixture
def little_site(tmp_path):
    """A bare app serving a temporary static folder of modules."""
    app = Flask(__name__, static_folder=None)
    static_files.init_app(app, tmp_path)
    modules.init_app(app)
    return app, tmp_path


# Reading imports


TRICKY = '''// import {no} from "./commented.js";
/*
import {alsoNo} from "./in-a-block-comment.js";
 * import {no} from "./starred.js";
 */
import {a} from "./a.js";
import b, {c as d} from './b.js';
import * as e from "./sub/e.js";
import "./side-effect.js";
import {
  f,
  g,
} from "../up.js";
export {h} from "./h.js";
export * from "./star.js";
export * as ns from "./ns.js";
import x from "a-package";
import {y} from "/static/js/absolute.js";
import {z} from "../../../outside.js";
const text = "import {no} from './in-a-string.js'";
export function load() {
  return import("./lazy.js");
}
const later = () => import( './later.js' );
'''


def test_imports_are_read_as_modules_write_them(little_site):
    app, folder = little_site
    write(folder, {"js/page/main.js": TRICKY})
    with app.app_context():
        static, dynamic = modules.imports("js/page/main.js")
    assert static == ("js/page/a.js", "js/page/b.js", "js/page/sub/e.js",
                      "js/page/side-effect.js", "js/up.js", "js/page/h.js",
                      "js/page/star.js", "js/page/ns.js")
    assert dynamic == ("js/page/lazy.js", "js/page/later.js")


GRAPH = {
    "js/page.js": 'import {one} from "./lib/one.js";\nimport {two} from "./lib/two.js";\n'
                  'const later = () => import("./lazy.js");\n',
    "js/lib/one.js": 'import {three} from "./three.js";\nexport const one = 1;\n',
    "js/lib/two.js": 'import {three} from "./three.js";\nexport const two = 2;\n',
    "js/lib/three.js": 'import "../page.js";\nexport const three = 3;\n',  # a cycle
    "js/other.js": 'import {two} from "./lib/two.js";\n',
    "js/lazy.js": 'import {four} from "./lib/four.js";\n',
    "js/lib/four.js": "export const four = 4;\n",
    "js/alone.js": "export const alone = true;\n",
    # On no page below: neither it nor what it imports is mapped there.
    "js/elsewhere.js": 'import {unused} from "./lib/unused.js";\n',
    "js/lib/unused.js": "export const unused = 0;\n",
}

PAGE = """{{ module_script('js/page.js', {'data-x': 'a&b'}) }}{{ module_script('js/other.js') }}
{{- module_script('js/alone.js') }}<head>{{ import_map() }}{{ module_preloads() }}</head>"""


def test_a_page_preloads_what_its_scripts_import_once_each(little_site):
    app, folder = little_site
    write(folder, GRAPH)
    with app.test_request_context():
        html = render_template_string(PAGE)
    url = {name: fingerprinted(folder / name, folder) for name in GRAPH}
    assert MODULE.findall(html) == [url["js/page.js"], url["js/other.js"], url["js/alone.js"]]
    assert f'src="{url["js/page.js"]}" data-x="a&amp;b">' in html
    # Not the scripts themselves, nor what is imported only when needed.
    preloads = PRELOAD.findall(html)
    assert sorted(preloads) == sorted(url[f"js/lib/{n}.js"] for n in ("one", "two", "three"))


def test_the_import_map_sends_every_name_the_page_imports_to_its_fingerprinted_one(
        little_site):
    app, folder = little_site
    write(folder, GRAPH)
    with app.test_request_context():
        html = render_template_string(PAGE)
    # Not js/lazy.js, imported when needed, nor what it imports.
    imported = ["js/lib/one.js", "js/lib/two.js", "js/lib/three.js", "js/page.js"]
    (text,) = re.findall(r'<script type="importmap">(.*?)</script>', html)
    assert json.loads(text) == {"imports": {
        f"/static/{name}": fingerprinted(folder / name, folder) for name in imported}}


def edit(path: Path, text: str) -> None:
    before = path.stat().st_mtime_ns
    path.write_text(text)
    os.utime(path, ns=(before + 10**9, before + 10**9))  # a visibly later mtime


def preloads_of(app) -> list[str]:
    with app.test_request_context():
        return PRELOAD.findall(render_template_string(PAGE))


def test_in_debug_mode_the_imports_follow_edits(little_site):
    app, folder = little_site
    write(folder, GRAPH)
    app.debug = True
    assert len(preloads_of(app)) == 3
    edit(folder / "js/alone.js", 'import {four} from "./lib/four.js";\n')
    assert fingerprinted(folder / "js/lib/four.js", folder) in preloads_of(app)


def test_otherwise_the_imports_are_read_once(little_site):
    app, folder = little_site
    write(folder, GRAPH)
    first = preloads_of(app)
    edit(folder / "js/alone.js", 'import {four} from "./lib/four.js";\n')
    assert preloads_of(app) == first


# The app's own pages


SPECIFIER = re.compile(r"""(?:\bfrom|^import)\s*["'](\.\.?/[^"']+)["']""", re.M)


def static_imports(path: Path) -> set[Path]:
    """What a module imports, found as simply as can be: a relative name after
    ``from`` or a bare ``import``."""
    return {(path.parent / name).resolve() for name in SPECIFIER.findall(path.read_text())}


def imported_by(scripts: list[Path]) -> set[Path]:
    found: set[Path] = set()
    waiting = list(scripts)
    while waiting:
        for path in static_imports(waiting.pop()):
            if path not in found:
                found.add(path)
                waiting.append(path)
    return found - set(scripts)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with site_for_probing(tmp_path_factory.mktemp("modules")) as site:
        yield site


def html_pages(site):
    """Every page as a member of the group gets it, and as a signed-out phone."""
    for client in (site.member(site.alpha), site.app.test_client()):
        for rule in listed_rules():
            if "GET" not in rule.methods:
                continue
            with client.get(rule_url(rule, site.alpha)) as response:
                if response.mimetype == "text/html":
                    yield rule.rule, response


def file_of(url: str) -> Path:
    """The file behind a fingerprinted URL."""
    match = re.fullmatch(r"/static/(.+)\.[0-9a-f]{8}(\.js)", url)
    assert match, url
    path = STATIC / (match[1] + match[2])
    assert fingerprinted(path) == url, url
    return path.resolve()


def test_every_page_preloads_exactly_what_its_modules_import(site):
    seen = 0
    for rule, response in html_pages(site):
        html = response.text
        scripts = [file_of(url) for url in MODULE.findall(html)]
        preloads = PRELOAD.findall(html)
        assert len(preloads) == len(set(preloads)), rule
        assert {file_of(url) for url in preloads} == imported_by(scripts), rule
        seen += bool(preloads)
    assert seen > 20  # pages with modules that import others were seen


def test_relative_imports_resolve_through_the_map_to_the_files_preloaded(site):
    response = site.member(site.alpha).get(f"/sessions/{site.alpha.ids['session']}/rounds/new")
    html = response.text
    (text,) = import_maps(response)
    assert policy(response)["script-src"] == ["'self'", hash_source(text)]
    mapping = json.loads(text)["imports"]
    preloads = PRELOAD.findall(html)
    resolved = 0
    for url in MODULE.findall(html):
        path = file_of(url)
        for name in SPECIFIER.findall(path.read_text()):
            # What the browser asks for, from the fingerprinted script: the plain name.
            plain = urljoin(url, name)
            assert mapping[plain] == fingerprinted((path.parent / name).resolve()), plain
            assert mapping[plain] in preloads
            resolved += 1
    assert resolved
    for current in mapping.values():
        with site.app.test_client().get(current) as answer:
            assert answer.status_code == 200
            assert "immutable" in answer.headers["Cache-Control"]
