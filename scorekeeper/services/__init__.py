"""Use cases: each loads rows, calls the rules engine, writes rows and commits.
The services are the only code that commits. One module per area; every
change to a session follows the protocol of ``versioning``. Call sites read
``services.record_round(...)``, whichever module holds it."""

from .bulk import (
    DEMO_GROUP,
    analyze_tables,
    import_group,
    next_demo_group_name,
    seed_demo_group,
)
from .drafts import (
    Draft,
    Hand,
    HandConflict,
    RoundGone,
    read_draft,
    save_hand,
    set_autosave_rounds,
)
from .groups import (
    change_passphrase,
    create_group,
    find_group,
    group_for_sign_in,
    set_passphrase,
    set_timezone,
    sign_in_phone,
    sign_out_phone,
)
from .money import Settlement, balances, set_paid, settlement
from .rounds import (
    DraftChanged,
    NeedsConfirmation,
    change_house_rules,
    delete_round,
    edit_round,
    record_round,
    restore_round,
    restored_deletions,
    warnings_digest,
    where_round_is,
)
from .sessions import (
    active_players,
    end_session,
    find_or_create_players,
    group_players,
    join_session,
    leave_session,
    rename_player,
    reopen_session,
    start_session,
)
from .sharing import create_share_link, revoke_share_link
from .totals import SEAT_TOTALS
from .versioning import SNAPSHOT_FIELDS, Conflict, ServiceError, check_version, round_snapshot

__all__ = [
    "DEMO_GROUP",
    "SEAT_TOTALS",
    "SNAPSHOT_FIELDS",
    "Conflict",
    "Draft",
    "DraftChanged",
    "Hand",
    "HandConflict",
    "NeedsConfirmation",
    "RoundGone",
    "ServiceError",
    "Settlement",
    "active_players",
    "analyze_tables",
    "balances",
    "change_house_rules",
    "change_passphrase",
    "check_version",
    "create_group",
    "create_share_link",
    "delete_round",
    "edit_round",
    "end_session",
    "find_group",
    "find_or_create_players",
    "group_for_sign_in",
    "group_players",
    "import_group",
    "join_session",
    "leave_session",
    "next_demo_group_name",
    "read_draft",
    "record_round",
    "rename_player",
    "reopen_session",
    "restore_round",
    "restored_deletions",
    "revoke_share_link",
    "round_snapshot",
    "save_hand",
    "seed_demo_group",
    "set_autosave_rounds",
    "set_paid",
    "set_passphrase",
    "set_timezone",
    "settlement",
    "sign_in_phone",
    "sign_out_phone",
    "start_session",
    "warnings_digest",
    "where_round_is",
]
