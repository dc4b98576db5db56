"""/healthz: for a load balancer or a monitor, is this process up and its database reachable?"""

import sqlalchemy as sa
from flask import Blueprint, current_app, jsonify
from sqlalchemy.exc import SQLAlchemyError

from ..extensions import db

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    try:
        db.session.execute(sa.text("SELECT 1"))
    except SQLAlchemyError:
        # The reason goes to the log only: the answer is public.
        current_app.logger.warning("Health check: the database is unreachable", exc_info=True)
        response = jsonify(status="error", database="unreachable")
        response.status_code = 503
    else:
        response = jsonify(status="ok", database="ok")
    response.cache_control.no_store = True
    return response
