"""Rounds filled in together: each phone saves the hand of its own player (or
of a player without a phone) in the session's coming round, and every phone
reads who is done and what is wrong.

A hand is kept as typed, problems and all, and checked with the rules engine
in the light of the others: what concerns that player alone is theirs, the
rest (two Hu, more copies of a card than the deck holds) the round's. Nothing
counts until the round is saved (rounds.record_round, which takes the hands
away in its transaction). Every save raises the session's draft_version, not
its version: forms open on other phones stay valid. Each hand has a version
of its own, so that of two phones changing one hand the later is refused and
sees the other's."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm.attributes import set_committed_value

from ..audit import ClearedHand, HandsCleared
from ..extensions import db
from ..limits import DEVICE_MAX, PHONE_ID_LENGTH, TYPING_LAPSE
from ..models import DraftEntry, GameSession, Group, Player, being_typed, utcnow
from ..queries.turns import Upcoming, upcoming
from ..rules import Entry, Problem, RoundError, format_cards, score_round
from ..rules.cards import scan_cards
from ..rules.scoring import OUTCOMES
from ._common import check_open, session_of
from .protocol import N_, Change, ServiceError, answer_again, applying
from .rounds import DraftChanged, NeedsConfirmation, record_round, repeat_warnings


@dataclass(frozen=True)
class Hand:
    """A player's hand as last saved: what was typed, its version, and the
    phone that saved it (its name, its player if it said whose it is, and
    its sign-in's public id). ``typing``: still being typed on that phone
    (sent as typed, its field not yet left, and changed there within
    TYPING_LAPSE): not in yet."""

    player_id: int
    outcome: str
    cards: str
    version: int
    draft_version: int  # the session's draft version that the save made
    device: str
    phone_player_id: int | None
    at: datetime
    phone: str = ""
    typing: bool = False

    @classmethod
    def of(cls, row: DraftEntry) -> Hand:
        return cls(row.player_id, row.outcome, row.cards, row.version, row.draft_version,
                   row.device, row.phone_player_id, row.at, row.phone,
                   being_typed(row.typing, row.at))

    @property
    def typed_until(self) -> datetime:
        """When a hand being typed counts as sent as it is, if its phone
        changes it no more."""
        return self.at + TYPING_LAPSE


@dataclass(frozen=True)
class Place:
    """A player of the coming round: their hand if saved, and its problems.
    ``excused``: no hand, and none needed (another player has Tien Hu, so
    these cards may be left empty: docs/RULES.md §7)."""

    player: Player
    hand: Hand | None
    problems: tuple[Problem, ...] = ()  # the rules engine's, of this hand alone
    excused: bool = False

    @property
    def done(self) -> bool:
        """In: a hand with nothing wrong, not being typed, or no hand needed."""
        return self.excused or (self.hand is not None and not self.problems
                                and not self.hand.typing)

    @property
    def typing(self) -> bool:
        """The hand is still being typed on the phone that sent it."""
        return self.hand is not None and self.hand.typing


@dataclass(frozen=True)
class Draft:
    """The coming round as filled in so far. ``problems`` are the round's
    (more than one player's); ``warnings`` what the table must confirm, once
    everyone is in and nothing is wrong."""

    number: int
    version: int  # the session's
    draft_version: int
    places: tuple[Place, ...]  # in playing order
    problems: tuple[Problem, ...] = ()
    warnings: tuple[Problem, ...] = ()

    @property
    def complete(self) -> bool:
        """Everyone is in and nothing is wrong: the round can be saved."""
        return all(place.done for place in self.places) and not self.problems

    @property
    def typed_until(self) -> datetime | None:
        """The soonest a hand being typed counts as sent, if its phone types
        no more (None: no hand is being typed)."""
        return min((p.hand.typed_until for p in self.places if p.hand and p.hand.typing),
                   default=None)

    @property
    def started(self) -> bool:
        """Some hand is saved: the round is being entered."""
        return any(place.hand is not None for place in self.places)

    def entries(self) -> dict[str, Entry]:
        """The round's entries as saved; a player excused, empty-handed."""
        return {p.player.name: Entry(p.hand.outcome, p.hand.cards) if p.hand else Entry("dead", "")
                for p in self.places if p.hand is not None or p.excused}

    def place_of(self, player_id: int) -> Place:
        return next(p for p in self.places if p.player.id == player_id)


class HandConflict(ServiceError):
    """Another phone saved this hand after the version the save was based on:
    ``hand`` is theirs, ``draft`` the round now. Nothing was saved."""

    def __init__(self, hand: Hand, draft: Draft) -> None:
        super().__init__(N_("This hand was changed from another phone: see theirs, then "
                            "choose."))
        self.hand = hand
        self.draft = draft


class RoundGone(ServiceError):
    """The round the phone was filling in is no longer the coming one, or the
    player no longer plays it: ``draft`` is the coming round now."""

    def __init__(self, message: str, draft: Draft, **values: object) -> None:
        super().__init__(message, **values)
        self.draft = draft


@dataclass(frozen=True)
class Saved:
    """A hand saved; the round now; the round's number if the save recorded it."""

    hand: Hand
    draft: Draft
    recorded: int | None = None


def read_draft(session: GameSession, coming: Upcoming | None = None) -> Draft:
    """The coming round as filled in so far. A session that never had a hand
    saved (draft version 0) asks the database nothing more."""
    coming = coming or upcoming(session)
    hands = _hands(session) if session.draft_version else {}
    return _assess(session, coming, {pid: Hand.of(row) for pid, row in hands.items()})


def _hands(session: GameSession) -> dict[int, DraftEntry]:
    return {row.player_id: row for row in db.session.scalars(
        sa.select(DraftEntry).where(DraftEntry.session_id == session.id))}


def _assess(session: GameSession, coming: Upcoming, hands: dict[int, Hand]) -> Draft:
    """Each player's problems and the round's, as the rules engine sees the
    hands saved so far; hands of players who no longer play don't count."""
    order = coming.order
    names = [p.name for p in order]
    tien_hu = any(hands[p.id].outcome == "tien_hu" for p in order if p.id in hands)
    excused = {p.id for p in order if tien_hu and p.id not in hands}
    entries = {p.name: Entry(hands[p.id].outcome, hands[p.id].cards) if p.id in hands
               else Entry("dead", "") for p in order if p.id in hands or p.id in excused}
    own: dict[str, list[Problem]] = {name: [] for name in names}
    shared: list[Problem] = []
    warnings: list[Problem] = []
    if entries:
        try:
            warnings = score_round(names, entries, session.rules).warnings
            if len(entries) == len(names):  # everyone is in: a round entered twice?
                warnings += repeat_warnings(session, coming, entries)
        except RoundError as error:
            for problem in error.problems:
                if problem.code == "missing_entry":
                    continue  # not in yet: the strip says so
                if len(problem.players) == 1 and problem.players[0] in own:
                    own[problem.players[0]].append(problem)
                else:
                    shared.append(problem)
    places = tuple(Place(p, hands.get(p.id), tuple(own[p.name]), p.id in excused)
                   for p in order)
    return Draft(coming.number, session.version, session.draft_version, places,
                 tuple(shared), tuple(warnings))


def save_hand(change: Change, player_id: int, outcome: str, cards: str, *,
              base: int, number: int, typing: bool = False) -> Saved:
    """Save a player's hand in round ``number`` as typed, kept even with
    problems. ``base`` is the hand's version the phone last saw (0: none).
    Refused (HandConflict) if another phone saved a different hand since;
    RoundGone if the round was saved, or the player no longer plays it. A
    hand sent as it is ``typing`` (its field not yet left) is kept as being
    typed on the change's phone, not in until that phone sends it as left
    (the same hand sent again then is saved as in) or goes quiet
    (TYPING_LAPSE). With the group's autosave_rounds, the last hand in saves
    the round at once, unless something in it needs a look. The change's
    key answers with the Saved."""
    session = session_of(change)
    check_open(session)
    if outcome not in OUTCOMES:
        raise ServiceError(N_("The outcome %(outcome)s is not one of %(outcomes)s"),
                           outcome=repr(outcome), outcomes=", ".join(OUTCOMES))
    version = _take_draft_version(session)
    if version != session.version:  # changed since this request read it: read afresh
        db.session.expire(session)
    coming = upcoming(session)
    rows = _hands(session)
    hands = {pid: Hand.of(row) for pid, row in rows.items()}
    row = rows.get(player_id)
    if coming.number != number:
        raise RoundGone(
            N_("Round %(number)s has been saved: this is round %(now)s now.")
            if coming.number > number else
            N_("The rounds were changed on another phone: this is round %(now)s now."),
            _unwritten(session, coming, hands), number=number, now=coming.number)
    if player_id not in {p.id for p in coming.order}:
        raise RoundGone(N_("That player does not play this round."),
                        _unwritten(session, coming, hands))
    same = row is not None and (row.outcome, row.cards) == (outcome, cards)
    if row is not None and same and (typing or not row.typing):  # nothing new
        draft = _unwritten(session, coming, hands)
        return Saved(hands[player_id], draft, None if typing else _autosave(change, coming, draft))
    # The same hand, being typed, sent as left from a page that had not seen
    # it (a phone back after a reload, its earlier send landed late) is no
    # conflict: it goes in.
    if row is not None and not same and row.version != base:
        raise HandConflict(hands[player_id], _unwritten(session, coming, hands))
    players = {p.id for p in coming.order}
    # A hand claims the draft version (above), not the session's, and is not
    # audited: its round is, when it is saved.
    with applying(change, claim=False, audited=False) as done:
        if row is None:
            row = DraftEntry(session_id=session.id, player_id=player_id, version=0)
            db.session.add(row)
        row.outcome, row.cards, row.version = outcome, cards, row.version + 1
        row.draft_version, row.device = session.draft_version, change.device[:DEVICE_MAX]
        row.phone_player_id = change.player_id if change.player_id in players else None
        row.phone, row.typing, row.at = change.phone[:PHONE_ID_LENGTH], typing, utcnow()
        db.session.flush()
        hands[player_id] = Hand.of(row)
        draft = _assess(session, coming, hands)
        done.result = saved = Saved(hands[player_id], draft)
    recorded = _autosave(change, coming, draft)
    if recorded is None:
        return saved
    saved = replace(saved, recorded=recorded)
    answer_again(change, saved)
    return saved


def _take_draft_version(session: GameSession) -> int:
    """Raise the session's draft version, this transaction's first write (so
    that saves of one session's hands, and the saving of its round, take
    turns); the session's version as it is now."""
    raised, version = db.session.execute(
        sa.update(GameSession).where(GameSession.id == session.id)
        .values(draft_version=GameSession.draft_version + 1)
        .returning(GameSession.draft_version, GameSession.version)
        .execution_options(synchronize_session=False)).one()
    set_committed_value(session, "draft_version", raised)
    return version


def _unwritten(session: GameSession, coming: Upcoming, hands: dict[int, Hand]) -> Draft:
    """The round as it stands, for a save that writes nothing: the draft
    version taken is given back."""
    draft = _assess(session, coming, hands)
    db.session.rollback()
    return replace(draft, draft_version=draft.draft_version - 1)


def _autosave(change: Change, coming: Upcoming, draft: Draft) -> int | None:
    """Record the round if the group saves a round as soon as its last hand is
    in, and nothing in it needs a look; its number, or None. The hand's key
    is not the round's: the round is recorded in a change of its own."""
    group = db.session.get(Group, change.group.id)
    if group is None or not group.autosave_rounds or not draft.complete or draft.warnings:
        return None
    try:
        return record_round(replace(change, seen=draft.version, once=None), draft.entries(),
                            coming=coming, draft=draft.draft_version)
    except (RoundError, NeedsConfirmation, DraftChanged, ServiceError):
        return None  # a change meanwhile: the hands stay, for Save


def drop_hands(change: Change, hands: dict[int, tuple[str, str]]) -> int:
    """ "Same game: drop mine": take away the hands of the coming round that
    the change's phone saved and that are ``hands`` (player id: outcome, cards
    as typed), those of a round refused because another phone saved it first;
    how many went. Every phone's strip follows, by the draft version. Like
    any change of a hand, it is not audited; nor does it carry a key: done
    twice, it drops nothing the second time."""
    session = session_of(change)
    _take_draft_version(session)
    gone = [row for player_id, row in _hands(session).items()
            if row.device == change.device[:DEVICE_MAX] and player_id in hands
            and _as_typed(row.outcome, row.cards) == _as_typed(*hands[player_id])]
    if not gone:
        db.session.rollback()  # the draft version taken is given back
        return 0
    for row in gone:
        db.session.delete(row)
    db.session.commit()
    return len(gone)


def clear_hands(change: Change, number: int) -> int:
    """ "Clear this round's hands": take away every hand saved in round
    ``number``, the coming one (hands typed into a round that was then left
    come back on every phone's form until then); how many went. Unlike a
    hand, it is a change of the session, audited with the hands as they were:
    every phone's form and strip empty, by the session's version and the
    draft version. ServiceError if round ``number`` is no longer the coming
    one, or has no hands."""
    session = session_of(change)
    check_open(session)
    coming = upcoming(session)
    if coming.number != number:
        raise ServiceError(N_("Round %(number)s is no longer the round being entered: "
                              "nothing was cleared."), number=number)
    names = {seat.player_id: seat.player.name for seat in session.seats}
    turn = {player.id: place for place, player in enumerate(coming.order)}
    with applying(change) as done:
        _take_draft_version(session)
        rows = sorted(_hands(session).values(),
                      key=lambda row: (turn.get(row.player_id, len(turn)), row.player_id))
        if not rows:  # cleared from another phone meanwhile: nothing is written
            raise ServiceError(N_("Round %(number)s has no hands to clear."), number=number)
        for row in rows:
            db.session.delete(row)
        done.audit(HandsCleared(number, tuple(
            ClearedHand(names.get(row.player_id, "?"), row.outcome, row.cards, row.device)
            for row in rows)))
        done.result = len(rows)
    return len(rows)


def _as_typed(outcome: str, cards: str) -> tuple[str, str]:
    """A hand as typed, in the notation it is stored in if it can be read."""
    readable, errors = scan_cards(cards)
    return outcome, " ".join(cards.upper().split()) if errors else format_cards(readable)


def set_autosave_rounds(group: Group, on: bool) -> None:  # a house setting: not audited
    """The house setting: save a round filled in together as soon as its last
    hand is in (when nothing needs a look), or only when someone taps Save."""
    group.autosave_rounds = on
    db.session.commit()
