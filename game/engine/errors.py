"""Specific exceptions raised by the engine.

Every refusal names its reason twice: as a ``code`` with its ``params`` (the facts: a seat, a
tile, a number of points), which game.words.refusals words in the reader's language, and as an
English message for logs, records and the command line. Nothing is changed when one is raised.
"""

from typing import Any


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input.

    ``code`` names the reason (one wording per code in game/words/refusals.py); ``params`` are
    the facts its wording names. A parameter may be another ``EngineError``: the reason of an
    error that wraps it (a record's action that does not replay, a correction refused).
    """

    def __init__(self, message: str, code: str, /, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, Any] = params

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled whole (a computer player thinks in another process): the message, the code,
        # the params and any attribute of a subclass, without calling ``__init__`` again.
        return (_rebuilt, (type(self), str(self), dict(self.__dict__)))


def _rebuilt(kind: type[EngineError], message: str, attributes: dict[str, Any]) -> EngineError:
    error = kind.__new__(kind)
    Exception.__init__(error, message)
    error.__dict__.update(attributes)
    return error


class OptionError(EngineError):
    """An unknown preset, an unknown option, or a value the option does not allow."""


class IllegalCommand(EngineError):
    """A well-formed command that the rules do not allow at this point of the game."""


class NotYourDecision(IllegalCommand):
    """The command comes from a seat that is not the one the game waits for."""


class TurnOver(IllegalCommand):
    """An ``end_turn`` naming a turn whose end the game no longer waits for: a repeated click
    must not end the next player's turn."""


class GameOver(IllegalCommand):
    """The game has ended; no further command is accepted."""


class MalformedCommand(EngineError):
    """A command of unknown type, or lacking a required key, or with a key of a wrong type.

    ``field`` names the key at fault when one key is (an unknown or misplaced one), so that a
    client is told which key to remove rather than a sentence to parse.
    """

    def __init__(
        self, message: str, code: str, /, *, field: str | None = None, **params: Any
    ) -> None:
        super().__init__(message, code, **params)
        self.field = field


class RecordError(EngineError):
    """A game record that cannot be read, or whose replay stops at an illegal action.

    ``index`` is the 0-based index of the offending action when the record itself was readable.
    """

    def __init__(
        self, message: str, code: str, /, *, index: int | None = None, **params: Any
    ) -> None:
        super().__init__(message, code, **params)
        self.index = index
        if index is not None:
            self.params["index"] = index
