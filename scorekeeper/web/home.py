from babel.lists import format_list
from flask import Blueprint, render_template, request

from .. import queries
from ..forms.home import CheckHandForm
from ..rules import PRESETS, CardError, HouseRules, best_melds, hand_problems, parse_cards
from . import phone_choice
from .access import current_group, phone_chosen, phone_player_id
from .locales import formatting
from .new_groups import may_create_group
from .presenters.problems import all_words, words
from .presenters.rule_book import house_rules_book, outcome_help, preset_names
from .presenters.rules import pays_lines

bp = Blueprint("home", __name__)

RECENT_SESSIONS = 3
PLAYING_SHOWN = 5  # more open than this: a link to all of them


@bp.get("/")
def index():
    form = CheckHandForm(request.args)
    arrangement = None
    if request.args.get("cards", "").strip() and form.validate():
        rules = PRESETS[form.preset.data]()
        try:
            cards = parse_cards(form.cards.data)
        except CardError as error:
            form.cards.errors.append(words(error))
        else:
            # A hand no deal can give is refused before the solver sees it.
            problems = hand_problems(cards, rules)
            if problems:
                form.cards.errors.extend(f"{problem}." for problem in all_words(problems))
            else:
                arrangement = best_melds(cards, rules)
    group = current_group()
    asking = group is not None and not phone_chosen()  # "Which player are you?"
    playing = queries.open_sessions(group, 1, PLAYING_SHOWN) if group else None
    # What the page follows live (its group's stream: sessions in play and
    # payments), and the hands in of each round being entered.
    now = queries.playing(group.id) if group else queries.Playing("", {})
    return render_template(
        "home/index.html", form=form, arrangement=arrangement,
        checking="cards" in request.args, group=group,
        may_create=group is None and may_create_group(),
        playing=playing, live_state=now.state, entering=now.hands,
        finished=queries.recently_finished(group, RECENT_SESSIONS) if group else [],
        owed=queries.still_owed(group, phone_player_id()) if group else [],
        question=phone_choice.ask() if asking else None,
        players=queries.known_players(group) if group and asking else [])


@bp.get("/rules")
def rules():
    """The game in short and every house rule explained: for anyone, signed in or not."""
    presets = preset_names()
    return render_template("home/rules.html", house=house_rules_book(), presets=presets,
                           presets_listed=format_list(presets, locale=formatting()),
                           outcomes=outcome_help(),
                           example=pays_lines(HouseRules.penang(), "RM", 4))
