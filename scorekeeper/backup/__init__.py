"""A group's data out and back in: the JSON backup (everything), the CSV of
rounds for spreadsheets, and the checks a backup passes before it is imported.

Reading a backup writes nothing. ``read_backup`` checks the whole document and
scores every round again with the rules engine (points, places and money in a
file are never trusted; who dealt and the order of play are kept as they were
at the table), then ``services.import_group`` writes it in one transaction.

What one import may hold is bounded (check.py's MAX_BYTES, MAX_ALL_ROUNDS and
the other MAX_ counts, CHECK_SECONDS): the largest file allowed is read,
checked and written in a few seconds, on SQLite holding the database's write
lock for a fraction of one (bench/README.md, "Import of the largest backup"). Every time
lies in 2000-2099 and every number is whole and within INT_MAX, so nothing
overflows a column or a date shown in any time zone.
"""

from .check import MAX_ALL_ROUNDS, MAX_BYTES, MAX_SESSIONS, read_backup, size_text
from .export import (
    csv_cell,
    csv_text,
    decimal_text,
    export_group,
    load_sessions,
    player_names,
)
from .fields import BackupError
from .format import FORMAT, VERSION

# Only the limits read as backup.X: they are copies, which don't follow a test
# or the bench changing backup.check's.
__all__ = [
    "FORMAT", "MAX_ALL_ROUNDS", "MAX_BYTES", "MAX_SESSIONS", "VERSION", "BackupError",
    "csv_cell", "csv_text", "decimal_text", "export_group", "load_sessions", "player_names",
    "read_backup", "size_text",
]
