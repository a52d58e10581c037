"""What a device says of an action besides the action: its own id for it and how long ago it was made.

A tracker sends every tap with an `Idempotency-Key` (the same key again is the same tap, applied once: a retry after
an answer lost on the Wi-Fi) and, for a tap kept on the device while the server could not be reached, the
`Companion-Action-Age`: the milliseconds since the tap was made, by the device's own clock. An age, not a time of
day, because a tablet's clock may be minutes off the server's; the server dates the tap by its own clock, that long
ago. The JSON API takes the same two headers.
"""

from __future__ import annotations

import re
from datetime import timedelta

from flask import Request

from companion.games.base import FieldError, InputErrors
from companion.language import _
from companion.store.models import utcnow
from companion.store.records import NOW, Sent

IDEMPOTENCY_KEY = "Idempotency-Key"
ACTION_AGE = "Companion-Action-Age"
# A uuid is 36 characters; the column keeps 64.
KEY_MAX = 64
_KEY = re.compile(rf"[\x21-\x7e]{{1,{KEY_MAX}}}")
# A tap kept for longer than a month is still dated by the play's newest action, which bounds it anyway.
AGE_MAX_MS = 31 * 24 * 3600 * 1000


def sent_with(request: Request) -> Sent:
    """The request's action id and when its action was made (InputErrors, naming the header, when malformed)."""
    key = request.headers.get(IDEMPOTENCY_KEY)
    age = request.headers.get(ACTION_AGE)
    if key is None and age is None:
        return NOW
    errors = []
    if key is not None and not _KEY.fullmatch(key):
        errors.append(
            FieldError(
                IDEMPOTENCY_KEY, _("The action's id is 1 to %(most)s visible characters (a uuid, say).", most=KEY_MAX)
            )
        )
    made_at = None
    if age is not None:
        if not age.isascii() or not age.isdigit() or int(age) > AGE_MAX_MS:
            errors.append(
                FieldError(ACTION_AGE, _("How long ago the action was made is a whole number of milliseconds."))
            )
        else:
            made_at = utcnow() - timedelta(milliseconds=int(age))
    if errors:
        raise InputErrors(errors)
    return Sent(client_id=key, made_at=made_at)
