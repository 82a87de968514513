"""Logging filters of the ``LOGGING`` setting (messengers/settings.py)."""

from __future__ import annotations

import logging


class WithoutTraceback(logging.Filter):
    """Keep a record's message and drop its traceback: one line, whatever caused it.

    Django logs every request with a Host outside ``ALLOWED_HOSTS`` through
    ``django.security.DisallowedHost`` with the exception attached, some thirty lines of
    traceback that say nothing the message does not (an unknown name is no error of the server).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True
