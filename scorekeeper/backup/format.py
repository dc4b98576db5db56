"""The JSON document, version 1 (times are UTC, ISO 8601 with a Z; money is
integer cents; players are named, never numbered; ``session`` and ``restores``
are 0-based indexes into the document's ``sessions`` and ``audit`` lists)::

    {"format": "scorekeeper-group", "version": 1, "exported_at": TIME,
     "group": {"name": TEXT, "timezone": IANA NAME},
     "players": [{"name": TEXT, "created_at": TIME,
                  "payto": {"kind": TEXT, "value": TEXT}}],
     "sessions": [{"started_at": TIME, "ended_at": TIME or null, "version": INT,
                   "currency": TEXT, "house_rules": {HouseRules fields},
                   "first_dealer": NAME,
                   "seats": [{"player": NAME, "position": INT, "active": BOOL}],
                   "rounds": [{"number": INT, "dealer": NAME, "created_at": TIME,
                               "entries": [{"player": NAME, "seat": INT, "turn": INT,
                                            "outcome": TEXT, "cards": TEXT, "points": INT,
                                            "position": INT, "tier_cents": INT,
                                            "hu_cents": INT, "joker_ace_cents": INT,
                                            "net_cents": INT}]}],
                   "payments": [{"payer": NAME, "payee": NAME, "cents": INT,
                                 "paid_at": TIME}]}],
     "payments": [{"payer": NAME, "payee": NAME, "cents": INT, "currency": TEXT,
                   "paid_at": TIME}],
     "audit": [{"at": TIME, "device": TEXT, "action": TEXT, "subject": TEXT,
                "session": INDEX or null, "version": INT or null,
                "before": OBJECT or null, "after": OBJECT or null}]}

An event's "before" and "after" are its action's payload as scorekeeper.audit
writes it (Payload.to_json); an action that module does not know may hold any
objects.

A player's "payto" (their payment details for paying by QR: a kind of
payto.Kind and its DuitNow ID, PayNow proxy or bank QR text) is there only
for a player who has them; backups from before had none.

The group's "timezone" (where its times are shown, e.g. "Asia/Kuala_Lumpur")
came after the first backups: one without it is imported with DEFAULT_TIMEZONE.
A session's "payments" pay its own transfers, in whole or in part; the
document's "payments", paid across sessions ("Settle everything"), came later
too: one without them has none.
"""
FORMAT = "scorekeeper-group"
VERSION = 1
