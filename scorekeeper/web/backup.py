"""A group's data out (JSON, CSV) and back in (JSON, into a new group)."""

import json
import re
import unicodedata

from flask import (
    Blueprint,
    Response,
    abort,
    redirect,
    render_template,
    request,
    url_for,
)

from .. import backup, services
from ..forms.backup import ImportGroupForm
from ..models import utcnow
from .access import current_group, sign_in, signed_in
from .filters import local_time
from .groups import (
    count_passphrase_guess,
    group_form,
    group_name,
    may_create_group,
    single_group,
    throttle_by_address,
    throttle_by_group,
)

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
    group = current_group()
    now = utcnow()
    document = backup.export_group(group, now)
    return download(json.dumps(document, ensure_ascii=False, separators=(",", ":")),
                    "application/json", f"{slug(group.name)}-{local_day(now)}.json")


@bp.get("/group/export.csv")
@signed_in
def export_csv():
    group = current_group()
    text = backup.csv_text(backup.load_sessions(group), backup.player_names(group),
                           group.timezone)
    return download(text, "text/csv", f"{slug(group.name)}-{local_day(utcnow())}.csv")


@bp.get("/sessions/<int:session_id>/export.csv")
@signed_in
def export_session_csv(session_id):
    group = current_group()
    sessions = backup.load_sessions(group, session_id)
    if not sessions:  # none, or another group's
        abort(404)
    text = backup.csv_text(sessions, backup.player_names(group), group.timezone)
    day = local_day(sessions[0].started_at)
    return download(text, "text/csv", f"{slug(group.name)}-session-{session_id}-{day}.csv")


@bp.route("/groups/import", methods=["GET", "POST"])
@throttle_by_address
@throttle_by_group
def import_group():
    if not may_create_group():
        abort(404)
    form = group_form(ImportGroupForm)
    error = None
    if form.validate_on_submit():
        count_passphrase_guess()
        try:
            found = backup.read_backup(form.backup.data.read())
        except backup.BackupError as problem:
            form.backup.errors.append(str(problem))
        else:
            try:
                group = services.import_group(group_name(form), form.passphrase.data, found,
                                              device=form.device.data)
            except services.ServiceError as problem:
                error = str(problem)
            else:
                sign_in(group, form.device.data)
                return redirect(url_for("home.index"))
    page = render_template("backup/import.html", form=form, error=error,
                           fixed_name=single_group())
    return page, 422 if request.method == "POST" else 200
