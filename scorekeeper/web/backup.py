"""A group's data out (JSON, CSV) and back in (JSON, into a new group)."""

import json
import re
import unicodedata

import sqlalchemy as sa
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from .. import backup, services
from ..forms.backup import ImportGroupForm
from ..models import utcnow
from .access import client_address, sign_in, signed_in, signed_in_group
from .filters import local_time
from .new_groups import (
    device_typed,
    group_form,
    group_name,
    may_create_group,
    refused_for_now,
    single_group,
    too_many,
)
from .presenters.refusals import refusal

bp = Blueprint("backup", __name__)


def slug(name: str) -> str:
    """ "Friday table" -> "friday-table": ASCII only, for a file's name."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-") or "group"


def download(body: str, mimetype: str, filename: str) -> Response:
    return Response(body, mimetype=mimetype, headers={
        "Content-Disposition": f'attachment; filename="{filename}"',
        "Cache-Control": "private, no-store"})


def local_day(moment) -> str:
    """ "2026-11-22": the day at the signed-in group's table, for file names."""
    return local_time(moment).date().isoformat()


@bp.get("/group/export.json")
@signed_in
def export_json():
    group = signed_in_group()
    now = utcnow()
    document = backup.export_group(group, now)
    return download(json.dumps(document, ensure_ascii=False, separators=(",", ":")),
                    "application/json", f"{slug(group.name)}-{local_day(now)}.json")


@bp.get("/group/export.csv")
@signed_in
def export_csv():
    group = signed_in_group()
    text = backup.csv_text(backup.load_sessions(group), backup.player_names(group),
                           group.timezone)
    return download(text, "text/csv", f"{slug(group.name)}-{local_day(utcnow())}.csv")


@bp.get("/sessions/<int:session_id>/export.csv")
@signed_in
def export_session_csv(session_id):
    group = signed_in_group()
    sessions = backup.load_sessions(group, session_id)
    if not sessions:  # none, or another group's
        abort(404)
    text = backup.csv_text(sessions, backup.player_names(group), group.timezone)
    day = local_day(sessions[0].started_at)
    return download(text, "text/csv", f"{slug(group.name)}-session-{session_id}-{day}.csv")


@bp.route("/groups/import", methods=["GET", "POST"])
def import_group():
    if not may_create_group():
        abort(404)
    form = group_form(ImportGroupForm)
    error = None
    if form.validate_on_submit():
        try:
            services.count_import(client_address())
        except services.TooManyNewGroups as full:
            return refused_for_now(full, import_page(form, too_many("imports", full)))
        try:
            found = backup.read_backup(form.backup.data.read())
        except backup.BackupError as problem:
            form.backup.errors.append(refusal(problem))
        else:
            device = device_typed(form)
            try:
                group = services.import_group(group_name(form), form.passphrase.data, found,
                                              device=device, address=client_address())
            except services.ServiceError as problem:
                error = refusal(problem)
            else:
                return _signed_in_to_import(group, device)
    return import_page(form, error), 422 if request.method == "POST" else 200


def import_page(form, error: str | None) -> str:
    return render_template("backup/import.html", form=form, error=error,
                           fixed_name=single_group(), max_bytes=backup.MAX_BYTES,
                           max_rounds=backup.MAX_ALL_ROUNDS)


def _signed_in_to_import(group, device: str):
    """This phone, signed in to the group just imported. The import is
    committed by then: should signing in fail (the database busy), the page
    says the group is there, rather than an error page saying nothing was saved."""
    name, group_id = group.name, group.id
    try:
        sign_in(group, device)
    except sa.exc.SQLAlchemyError as error:  # rolled back by the service
        g.database_failed = True  # the page asks the database nothing more
        current_app.logger.warning("Group %s imported, but the phone was not signed in: %s",
                                   group_id, type(error).__name__)
        return render_template("backup/imported.html", name=name), 503
    return redirect(url_for("home.index"))


@bp.errorhandler(413)
def import_too_large(error):
    """An upload over MAX_CONTENT_LENGTH, refused unread: the import page again
    (empty: the form was not read either), saying how large a backup may be."""
    form = ImportGroupForm(formdata=None)
    if single_group():
        del form.name
    message = _("the file is larger than %(size)s, the most a backup may be",
                size=backup.size_text(backup.MAX_BYTES))
    return import_page(form, message), 413
