"""How we play: a session's house rules in plain words for the new player at
the table, each with a small example worked out by the rules engine from the
session's own settings and players. The money sentences are pays_lines'."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import get_template_attribute
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup, escape

from ...rules import (
    Entry,
    HouseRules,
    RoundError,
    RoundScore,
    find_meld,
    next_dealer,
    parse_cards,
    playing_order,
    score_round,
)
from ..filters import isolate, listed, priced, signed_priced
from .places import ordinal
from .rules import DIRECTIONS, pays_lines

# The example round's hands, one a player (no meld in any, one card of each
# at most): points of every kind, a joker and an ace.
EXAMPLE_HANDS = ("3D 4D", "JK 7H", "AS 9H", "KS QC 2S", "5C 6H", "10D 8S")
NO_JOKER = "2H"  # the joker's stand-in at a table that plays without jokers


@dataclass(frozen=True)
class Part:
    """A section of the page: its heading, what the rule says, and examples."""

    title: str
    lines: list[Markup]
    examples: list[Markup] = field(default_factory=list)


def _said(message: str, **values: object) -> Markup:
    """A translated sentence with its values put in, escaped (a name, cards
    as chips: Markup, kept)."""
    return Markup(message) % values


def chips(text: str) -> Markup:
    """Cards as the card pad shows them, red and black: "7♥ 8♥ JK" (the
    pages' ``cards`` macro)."""
    return Markup(get_template_attribute("_macros.html", "cards")(parse_cards(text)).rstrip())


def _hand(rules: HouseRules, text: str) -> str:
    return text if rules.jokers else text.replace("JK", NO_JOKER)


def how_we_play(rules: HouseRules, currency: str, names: list[str]) -> list[Part]:
    """Every part of the page, for a table of ``names`` (clockwise, two at least)."""
    example = example_round(rules, names)
    return [_deck(rules, names), _points(rules, names), _passport(rules, names),
            _money(rules, currency, names, example), _jokers(rules, currency, names),
            _dealing(rules, names, example)]


def _deck(rules: HouseRules, names: list[str]) -> Part:
    n = len(names)
    packs = rules.packs_for(n)
    # (ngettext puts the values in: numbers, nothing to escape)
    lines = [Markup(ngettext("%(num)s pack of 52 cards, shuffled together with the jokers: "
                             "%(jokers)s.",
                             "%(num)s packs of 52 cards, shuffled together with the jokers: "
                             "%(jokers)s.", packs, jokers=rules.jokers)),
             _said(_("Each of the %(players)s players is dealt %(cards)s cards. Nobody draws or "
                     "discards: in turn, each lays down a meld or adds cards to one on the "
                     "table."), players=n, cards=rules.cards_dealt(n))]
    if rules.extra_pack_players is not None:
        lines.append(_said(_("From %(players)s players, one more pack goes in."),
                           players=rules.extra_pack_players))
    return Part(_("Cards"), lines)


def _points(rules: HouseRules, names: list[str]) -> Part:
    hand = parse_cards(_hand(rules, "7H 8H JK"))
    points = [rules.points(card) for card in hand]
    lines = [_said(_("What is left in your hand when the game ends counts as points, and "
                     "fewer is better: 2 to 10 their number; J, Q and K 10; an ace 15; a "
                     "joker %(joker)s."), joker=rules.joker_points)]
    example = _said(_("If %(name)s is left holding %(cards)s, that is %(sum)s = %(total)s "
                      "points."), name=isolate(names[0]),
                    cards=chips(_hand(rules, "7H 8H JK")),
                    sum=" + ".join(map(str, points)), total=sum(points))
    return Part(_("Points"), lines, [example])


def _passport(rules: HouseRules, names: list[str]) -> Part:
    runs_only = rules.passport == "run"
    if runs_only:
        lines = [Markup(_("Your first meld of a game is your passport, and it must be a run: "
                          "three or more cards of one suit in a row."))]
    else:
        lines = [Markup(_("Your first meld of a game is your passport: any meld, a run (three "
                          "or more cards of one suit in a row) or a set (three or more of one "
                          "rank)."))]
    if rules.no_passport_last:
        lines.append(Markup(_("A player who can't make a passport sits out with the whole hand "
                              "and places last, whatever the points.")))
    else:
        lines.append(Markup(_("A player who can't make a passport sits out with the whole hand, "
                              "whose points count like anyone's.")))
    examples = []
    for text in ("8H 8C 8S", "7H 8H 9H"):
        cards = chips(text)
        if find_meld(parse_cards(text), rules, runs_only=runs_only):
            examples.append(_said(_("%(cards)s is a passport here."), cards=cards))
        else:
            examples.append(_said(_("%(cards)s is no passport here."), cards=cards))
    return Part(_("The passport"), lines, examples)


Example = tuple[RoundScore[str], dict[str, Entry]]


def example_round(rules: HouseRules, names: list[str]) -> Example | None:
    """The example round: nobody out, each player one of EXAMPLE_HANDS, the
    last seat dealing, scored by the engine; None if the rules deal hands
    too small for it."""
    order = playing_order(names, names[-1], rules)
    entries = {name: Entry("dead", _hand(rules, text))
               for name, text in zip(names, EXAMPLE_HANDS, strict=False)}
    try:
        return score_round(order, entries, rules), entries
    except RoundError:
        return None


def _money(rules: HouseRules, currency: str, names: list[str], example: Example | None) -> Part:
    lines = [escape(line) for line in pays_lines(rules, currency, len(names))]
    lines.append(Markup(_("Hu: a player who lays down every card ends the game at once and is "
                          "first; the others' cards don't count. Tien Hu: a dealt hand that "
                          "melds whole wins before anyone plays.")))
    if example is None:
        return Part(_("Places and money"), lines)
    score, entries = example
    examples = [Markup(_("Say a game ends with nobody out:"))]
    for name in sorted(names, key=lambda n: score.position[n]):
        examples.append(_said(
            _("%(name)s, left with %(cards)s: %(points)s points, %(place)s, %(money)s."),
            name=isolate(name), cards=chips(str(entries[name].cards)),
            points=score.points[name], place=ordinal(score.position[name]),
            money=signed_priced(score.net_cents[name], currency)))
    return Part(_("Places and money"), lines, examples)


def _jokers(rules: HouseRules, currency: str, names: list[str]) -> Part:
    if rules.scheme == "none" or not rules.joker_ace_cents:
        line = _said(_("Jokers and aces left in hand cost no money of their own here; a joker "
                       "still counts %(points)s points and an ace 15."), points=rules.joker_points)
        return Part(_("Jokers and aces"), [line])
    lines = [_said(_("Each joker or ace left in hand is a unit (an ace whose twin is in the "
                     "same hand counts 2), and every two players settle the difference at "
                     "%(amount)s a unit: holding them costs you. Not in a Tien Hu round."),
                   amount=priced(rules.joker_ace_cents, currency))]
    # One player holds a joker and an ace, the others neither, and one went out.
    holder, others = names[0], names[1:]
    held = "JK AS" if rules.jokers else "AS"
    entries = {holder: Entry("dead", held), others[0]: Entry("hu")}
    entries.update({name: Entry("dead", text) for name, text in
                    zip(others[1:], ("3D", "4C", "5H", "6S"), strict=False)})
    try:
        score = score_round(names, entries, rules)
    except RoundError:  # hands dealt too small for the example
        return Part(_("Jokers and aces"), lines)
    cost = -score.breakdown[holder].joker_ace
    # (ngettext puts the values in: each one escaped or safe markup)
    example = Markup(ngettext(
        "If %(name)s is left holding %(cards)s and the other player none, %(name)s pays "
        "%(amount)s for them, besides the rest.",
        "If %(name)s is left holding %(cards)s and the %(num)s others none, %(name)s pays "
        "%(amount)s for them in all, besides the rest.",
        len(others), name=isolate(holder), cards=chips(held),
        amount=escape(priced(cost, currency))))
    return Part(_("Jokers and aces"), lines, [example])


def _dealing(rules: HouseRules, names: list[str], example: Example | None) -> Part:
    direction = str(DIRECTIONS[rules.direction])
    if rules.direction == "clockwise":
        lines = [_said(_("Play goes %(direction)s: the player on the dealer's left starts, and "
                         "the dealer plays last."), direction=direction)]
    else:
        lines = [_said(_("Play goes %(direction)s: the player on the dealer's right starts, and "
                         "the dealer plays last."), direction=direction)]
    lines.append(Markup({
        "winner": _("The winner of a game deals the next; of players tied for first, the one "
                    "who played first."),
        "loser": _("The player with the most points deals the next; of players tied, the one "
                   "who played first."),
        "rotate": _("The deal passes to the next seat in the direction of play."),
    }[rules.dealer_rule]))
    dealer = names[-1]
    order = playing_order(names, dealer, rules)
    examples = [_said(_("If %(dealer)s deals, the order of play is %(order)s."),
                      dealer=isolate(dealer), order=listed([isolate(n) for n in order]))]
    if example is not None:
        examples.append(_said(_("After the game in the example of places and money, %(name)s "
                                "deals."),
                              name=isolate(next_dealer(names, dealer, example[0], rules))))
    return Part(_("Who deals next"), lines, examples)
