"""What if: a session's money under another preset or other house rules,
beside the money as played. Looking changes nothing: a GET form, no
version, no audit (services.session_what_if writes nothing)."""

from flask import Blueprint, g, render_template, request

from .. import queries, services
from ..forms.what_if import WhatIfForm
from .loading import add_session_id, load_game_session
from .presenters.refusals import refusal
from .presenters.what_if import amounts, changed_rules, compared, refused_lines, round_lines

bp = Blueprint("what_if", __name__)
bp.url_value_preprocessor(load_game_session)
bp.url_defaults(add_session_id)


@bp.get("/sessions/<int:session_id>/what-if")
def index():
    """Opened: the form holds the session's rules. "Use preset" fills it
    with the chosen preset's and compares; "Compare" compares the form's."""
    game = g.game
    rules = None
    if "use_preset" in request.args:
        form = WhatIfForm(request.args).with_preset(game.rules)
        rules = form.house_rules()
    elif request.args:
        form = WhatIfForm(request.args)
        rules = form.house_rules() if form.validate() else None
    else:
        form = WhatIfForm.filled(game.rules)
    page = {"game": game, "form": form, "error": None, "result": None}
    if rules is not None:
        try:
            result = services.session_what_if(game, rules)
        except services.ServiceError as refused:
            page["error"] = refusal(refused)
        else:
            players = [s.player for s in queries.standings(game)]
            rows, lines = compared(result, players), round_lines(result, players)
            page.update(result=result, players=players, rows=rows, lines=lines,
                        refused=refused_lines(result), changed=changed_rules(game.rules, rules),
                        amounts=amounts(rows, lines),
                        # replayed as dealt: the deal's rules change nothing here
                        deal_changed=(rules.direction, rules.dealer_rule)
                        != (game.rules.direction, game.rules.dealer_rule))
    status = 422 if form.errors or page["error"] else 200
    return render_template("what_if/index.html", **page), status
