"""Use cases: each loads rows, calls the rules engine, writes rows and commits.
The services are the only code that commits. One module per area; every
change takes a Change (what the request brings: the session, the version
its page saw, its key, the phone) and is written inside the one construct
of ``protocol``, which claims the version, audits, keeps the key and
commits. What the services share is in ``_common``. Call sites read
``services.record_round(...)``, whichever module holds it."""

from ._common import SEAT_TOTALS
from .bulk import DEMO_GROUP, analyze_tables, next_demo_group_name
from .drafts import (
    Draft,
    Hand,
    HandConflict,
    RoundGone,
    Saved,
    drop_hands,
    read_draft,
    save_hand,
    set_autosave_rounds,
)
from .groups import (
    KnownDevice,
    TooManyNewGroups,
    change_passphrase,
    count_import,
    create_group,
    find_group,
    group_for_sign_in,
    import_group,
    passphrase_mark,
    seed_demo_group,
    set_passphrase,
    set_timezone,
)
from .money import Settlement, balances, set_paid, settlement
from .night import Night, night
from .protocol import (
    Change,
    Conflict,
    KeyTooOld,
    Once,
    Repeated,
    ServiceError,
    applied,
    check_version,
)
from .rounds import (
    DraftChanged,
    NeedsConfirmation,
    change_house_rules,
    delete_round,
    edit_round,
    record_round,
    restore_round,
    restored_deletions,
    saved_meanwhile,
    warnings_digest,
    where_round_is,
)
from .sessions import (
    active_players,
    end_session,
    group_players,
    join_session,
    leave_session,
    rename_player,
    reopen_session,
    start_session,
)
from .sharing import create_share_link, revoke_share_link
from .sign_ins import sign_in_phone, sign_in_used, sign_out_phone, token_hash
from .streams import StreamCaps, close_stream, open_stream, renew_streams

__all__ = [
    "DEMO_GROUP",
    "SEAT_TOTALS",
    "Change",
    "Conflict",
    "Draft",
    "DraftChanged",
    "Hand",
    "HandConflict",
    "KeyTooOld",
    "KnownDevice",
    "NeedsConfirmation",
    "Night",
    "Once",
    "Repeated",
    "RoundGone",
    "Saved",
    "ServiceError",
    "Settlement",
    "StreamCaps",
    "TooManyNewGroups",
    "active_players",
    "analyze_tables",
    "applied",
    "balances",
    "change_house_rules",
    "change_passphrase",
    "check_version",
    "close_stream",
    "count_import",
    "create_group",
    "create_share_link",
    "delete_round",
    "drop_hands",
    "edit_round",
    "end_session",
    "find_group",
    "group_for_sign_in",
    "group_players",
    "import_group",
    "join_session",
    "leave_session",
    "next_demo_group_name",
    "night",
    "open_stream",
    "passphrase_mark",
    "read_draft",
    "record_round",
    "rename_player",
    "renew_streams",
    "reopen_session",
    "restore_round",
    "restored_deletions",
    "revoke_share_link",
    "save_hand",
    "saved_meanwhile",
    "seed_demo_group",
    "set_autosave_rounds",
    "set_paid",
    "set_passphrase",
    "set_timezone",
    "settlement",
    "sign_in_phone",
    "sign_in_used",
    "sign_out_phone",
    "start_session",
    "token_hash",
    "warnings_digest",
    "where_round_is",
]
