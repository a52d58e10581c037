"""The sync check's "something new", drawn once per play version for every device that asks the same (issue 21).

A tap on one device moves the play's version on, and within 400 ms each other device at the table asks for what
changed: the same counters, scoreboard and log news, drawn from the same saved play. So each server draws that
answer once per (play, version, the log entry the device shows, the language it is read in) and gives the others
a copy. A version is never reused (every write to a play moves it on), so a kept answer is never out of date.

The answer carries this session's CSRF token (the Undo form's hidden field): it is kept with a placeholder where
the token was, and every device gets its own token put back.

Devices of a table ask within moments of each other, so several may find no answer kept yet: the first draws it and
the others wait for that drawing (`drawing`) rather than each drawing its own. On a busy server the drawing takes
longer and more devices would come in meanwhile, each adding a drawing to the load that slowed it.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import cast

from flask import Flask, Response, make_response

from companion.web.security import csrf_token

EXTENSION = "companion_shared_answers"
# Plays followed at once on one server, a few log positions each: a club night's 40 tables fit many times over.
KEPT = 256
# How long a device waits for another's drawing of the same answer before it draws one itself (the other failed,
# or its play moved on meanwhile and it kept the answer under a newer version).
WAIT_SECONDS = 1.0

# (play id, version, log entry shown, log panel opened, the reader's language: the answer's words are in it)
AnswerKey = tuple[int, int, int | None, bool, str]


class SharedAnswers:
    """A server's newest sync-check answers by (play id, version, log entry shown, log panel opened, language)."""

    def __init__(self) -> None:
        self._answers: OrderedDict[AnswerKey, tuple[bytes, int, list[tuple[str, str]]]] = OrderedDict()
        self._drawing: dict[AnswerKey, threading.Event] = {}
        self._lock = threading.Lock()
        # Stands in for the session's token in a kept answer; random, so no drawn text can hold it by chance.
        self.placeholder = secrets.token_hex(16).encode()

    def copy(self, key: AnswerKey, token: str) -> tuple[bytes, int, list[tuple[str, str]]] | None:
        """The kept answer's body with this token, its status and content headers; None when none is kept."""
        with self._lock:
            kept = self._answers.get(key)
            if kept is not None:
                self._answers.move_to_end(key)
        if kept is None:
            return None
        body, status, headers = kept
        return body.replace(self.placeholder, token.encode()), status, headers

    def get(self, key: AnswerKey) -> Response | None:
        """A copy of the kept answer as this request's response, with its session's token; None when none is kept."""
        kept = self.copy(key, csrf_token())
        if kept is None:
            return None
        body, status, headers = kept
        response = make_response(body, status)
        response.headers.update(headers)
        return response

    @contextmanager
    def drawing(self, key: AnswerKey) -> Iterator[bool]:
        """Around drawing the answer of `key`: True for the first request to come, which draws it; False for one
        that came while another drew it, once that drawing is done (or WAIT_SECONDS passed): get() may have it."""
        with self._lock:
            underway = self._drawing.get(key)
            if underway is None:
                self._drawing[key] = done = threading.Event()
        if underway is not None:
            underway.wait(WAIT_SECONDS)
            yield False
            return
        try:
            yield True
        finally:
            with self._lock:
                del self._drawing[key]
            done.set()

    def keep(self, key: AnswerKey, response: Response) -> None:
        """Keep a drawn answer (its body with the token taken out, its status and content headers)."""
        if response.status_code != 200:
            return
        body = response.get_data().replace(csrf_token().encode(), self.placeholder)
        headers = [(name, value) for name, value in response.headers.items() if name.lower().startswith("content-t")]
        with self._lock:
            self._answers[key] = (body, response.status_code, headers)
            self._answers.move_to_end(key)
            while len(self._answers) > KEPT:
                self._answers.popitem(last=False)


def shared_answers(app: Flask) -> SharedAnswers:
    """The server's kept answers, made on first use."""
    return cast(SharedAnswers, app.extensions.setdefault(EXTENSION, SharedAnswers()))
