"""Static files under names that carry a hash of their content, cached for a year.

``url_for('static', filename='css/app.css')`` gives ``/static/css/app.3f2a1b9c.css``.
That name changes whenever the file does, so a browser may keep it for a year
without asking again (and it is sent in brotli at its best, compressed once).
The plain name still answers, with a short lifetime, for links written by hand
and for relative imports between JavaScript modules in a browser without
import maps (web/modules.py maps them to the fingerprinted names).

Scripts and stylesheets go out minified (rjsmin, rcssmin: comments and
spaces out, nothing renamed), once per version of the file: static/ keeps
them as written, and there is still no build step.
"""

import hashlib
import os
import posixpath
import re

import brotli
import rcssmin
import rjsmin
from flask import current_app, redirect, request, send_from_directory, url_for
from werkzeug.exceptions import NotFound
from werkzeug.security import safe_join

YEAR = 365 * 24 * 60 * 60
PLAIN_MAX_AGE = 5 * 60  # seconds
FINGERPRINTED = re.compile(r"(?P<root>.+)\.(?P<digest>[0-9a-f]{8})(?P<ext>\.[^./]+)?")
MINIFIERS = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}
# What a file is sent as, minified and in brotli, kept per process by its
# name and digest: the same bytes for every app the process makes.
MINIFIED: dict[tuple[str, str], str] = {}
IN_BROTLI: dict[tuple[str, str], bytes] = {}


def init_app(app, folder):
    """Serve ``folder`` at /static/ under the endpoint ``static``, as Flask would,
    but with fingerprinted names (so the app is made with ``static_folder=None``)."""
    app.extensions["static_files"] = {"folder": str(folder), "digests": {}}
    app.add_url_rule("/static/<path:filename>", endpoint="static", view_func=serve)
    app.url_defaults(fingerprint_url)


def digest(filename):
    """The first 8 hex digits of the file's SHA-256, or None if there is no such file.

    Read once per process; in debug mode read again whenever the file's mtime changes."""
    static = current_app.extensions["static_files"]
    known = static["digests"].get(filename)
    if known and not current_app.debug:
        return known[1]
    path = safe_join(static["folder"], filename)
    if path is None or not os.path.isfile(path):
        return None
    mtime = os.stat(path).st_mtime_ns
    if known and known[0] == mtime:
        return known[1]
    with open(path, "rb") as file:
        hexdigest = hashlib.sha256(file.read()).hexdigest()[:8]
    static["digests"][filename] = (mtime, hexdigest)
    return hexdigest


def fingerprint_url(endpoint, values):
    """url_for hook: css/app.css becomes css/app.<digest>.css."""
    if endpoint != "static" or "filename" not in values:
        return
    filename = values["filename"]
    hexdigest = digest(filename)
    if hexdigest:
        root, ext = posixpath.splitext(filename)
        values["filename"] = f"{root}.{hexdigest}{ext}"


def plain_url(filename):
    """The file's URL under its plain name, which url_for does not give."""
    current = url_for("static", filename=filename)
    hexdigest = digest(filename)
    if not hexdigest:
        return current
    root, ext = posixpath.splitext(current)
    return root.removesuffix(f".{hexdigest}") + ext


def serve(filename):
    if digest(filename):
        return send(filename, PLAIN_MAX_AGE)
    match = FINGERPRINTED.fullmatch(filename)
    if not match:
        raise NotFound()
    plain = match["root"] + (match["ext"] or "")
    current = digest(plain)
    if current is None:
        raise NotFound()
    if current != match["digest"]:
        # A page rendered before the file changed (or by a worker not yet
        # restarted): the current file beats an unstyled page.
        return redirect(url_for("static", filename=plain))
    response = send(plain, YEAR)
    response.cache_control.immutable = True  # send_file made it public, max-age=YEAR
    return brotli_at_best(response, plain, current)


def brotli_at_best(response, filename, hexdigest):
    """A fingerprinted file in brotli at its best quality (about a fifth
    smaller than Flask-Compress's quick levels, which suit pages made anew
    each time), compressed once per version of the file and kept: a phone
    loads it once a version, over whatever link it has (bench/README.md)."""
    config = current_app.config
    if (request.accept_encodings.quality("br") <= 0 or response.status_code != 200
            or response.mimetype not in config["COMPRESS_MIMETYPES"]
            or (response.content_length or 0) < config["COMPRESS_MIN_SIZE"]):
        return response  # Flask-Compress's affair
    known = IN_BROTLI.get((filename, hexdigest))
    if known is None:
        known = IN_BROTLI[filename, hexdigest] = brotli.compress(response.get_data(),
                                                                 quality=11)
    response.set_data(known)
    response.headers["Content-Encoding"] = "br"
    response.headers.pop("Accept-Ranges", None)  # ranges of the file, not of this
    response.vary.add("Accept-Encoding")
    response.set_etag(f"{hexdigest}-br")
    return response.make_conditional(request)


def send(filename, max_age):
    folder = current_app.extensions["static_files"]["folder"]
    response = send_from_directory(folder, filename, max_age=max_age)
    # Read whole (the files are small) rather than streamed: Flask-Compress then
    # compresses it like a page. The file is closed at once, not when the server
    # closes the response, which a client gone mid-answer could leave to the
    # garbage collector.
    response.direct_passthrough = False
    response.make_sequence()
    response.close()
    minify = MINIFIERS.get(posixpath.splitext(filename)[1])
    if minify is not None and response.status_code == 200:
        response.set_data(minified(filename, response.get_data(as_text=True), minify))
    return response


def minified(filename, text, minify):
    """The file as sent: minified once per version of it, and kept."""
    key = (filename, digest(filename))
    known = MINIFIED.get(key)
    if known is None:
        known = MINIFIED[key] = minify(text)
    return known
