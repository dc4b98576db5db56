"""Read-only queries for the pages, one module per area; each page runs a
fixed number of statements whatever the years of history. Call sites read
``queries.scoreboard(...)`` whichever module holds it."""

from .audit import CHANGES_PER_PAGE, changes_since, session_changes, session_event
from .history import (
    ROUNDS_PER_PAGE,
    Money,
    PlayedSession,
    PlayerRecord,
    Seated,
    SessionSummary,
    finished_sessions,
    open_sessions,
    played_sessions,
    player_record,
    players_on_record,
    recently_finished,
    session_record,
    session_rounds,
)
from .last_time import LastTime, last_time
from .live import Playing, State, group_states, live_state, live_states, playing
from .own import own_standing, seated_player
from .paging import PER_PAGE, Page, page_count, page_params, paged
from .tables import (
    BOARD_ROUNDS,
    GROUP_EVENTS,
    BoardRow,
    Place,
    RoundPage,
    Scoreboard,
    Standing,
    by_points,
    group_events,
    group_of_sign_in,
    known_players,
    load_board,
    load_round,
    open_invites,
    places,
    round_count,
    round_page,
    scoreboard,
    share_links,
    standings,
)
from .turns import LastRound, Upcoming, coming_after, last_round, round_hands, upcoming

__all__ = [
    "BOARD_ROUNDS", "CHANGES_PER_PAGE", "GROUP_EVENTS", "PER_PAGE", "ROUNDS_PER_PAGE",
    "BoardRow", "LastRound", "LastTime", "Money", "Page", "Place",
    "PlayedSession", "PlayerRecord", "Playing", "RoundPage",
    "Scoreboard", "Seated", "SessionSummary", "Standing", "State", "Upcoming", "by_points",
    "changes_since", "coming_after", "finished_sessions", "group_events", "group_of_sign_in",
    "group_states", "known_players",
    "last_round", "last_time", "live_state", "live_states",
    "load_board", "load_round", "open_invites", "open_sessions", "own_standing", "page_count",
    "page_params", "paged", "places",
    "played_sessions", "player_record", "players_on_record", "playing", "recently_finished",
    "round_count", "round_hands", "round_page", "scoreboard", "seated_player",
    "session_changes", "session_event",
    "session_record", "session_rounds", "share_links",
    "standings", "upcoming",
]
