"""The words of the edition: what each message tile says, when a figure draws a message, the
editions' names and summaries, and the names of the figures, followers and features.

The engine names all of these by codes (``MessageAction``, ``Figure``, a preset's id, a feature
kind); the functions here say them in the active language (docs/languages.md has the terms).
"""

from __future__ import annotations

from typing import Final

from django.utils.translation import gettext, gettext_noop, ngettext, pgettext

from game.engine.messengers import MESSAGE_SETS, MessageAction
from game.engine.presets import ExtraTile, Options, ScoreAndReturn, Trigger

_A = MessageAction

_MESSAGE_TEXT: Final[dict[MessageAction, str]] = {
    _A.SMALLEST_ROAD: gettext_noop("Score your smallest road"),
    _A.SMALLEST_CITY: gettext_noop("Score your smallest city"),
    _A.SMALLEST_MONASTERY: gettext_noop("Score your smallest monastery"),
    _A.COATS_OF_ARMS: gettext_noop("2 points per coat of arms in your cities"),
    _A.KNIGHTS: gettext_noop("2 points per knight"),
    _A.FARMERS: gettext_noop("2 points per farmer"),
    _A.EXTRA_TILE: gettext_noop("Place one more tile"),
    _A.SCORE_AND_RETURN: gettext_noop("Score a follower and return it"),
}
"""What each message tile says, as printed on the first editions' tiles."""


def message_text(options: Options | None, action: MessageAction) -> str:
    """The edition's words for a message's action: C3's "one more tile" is a whole extra turn
    (``extra_tile = extra_turn``), and its tile says so. Without ``options``: the words of the
    first editions' tiles."""
    if (
        options is not None
        and action is _A.EXTRA_TILE
        and options.extra_tile is ExtraTile.EXTRA_TURN
    ):
        return gettext("Play an extra turn")
    return gettext(_MESSAGE_TEXT[action])


_SCORE_AND_RETURN_RULE: Final[dict[ScoreAndReturn, str]] = {
    ScoreAndReturn.MAJORITY_ONLY: gettext_noop("Only where you have the majority"),
    ScoreAndReturn.ANY_MEEPLE_SCORE_IF_MAJORITY: gettext_noop(
        "Any follower; scores with the majority"
    ),
    ScoreAndReturn.ANY_MEEPLE_SCORE_ALWAYS: gettext_noop("Any follower; always scores"),
    ScoreAndReturn.MAJORITY_OR_RETURN_ANY: gettext_noop("Score your majority, or return any"),
}
"""How the edition reads message 8 (rules/messengers.md §4), in the words of the house rules'
menu: the tile alone does not say which follower may be chosen, nor when it scores."""


def message_detail(options: Options, action: MessageAction) -> str:
    """The edition's reading of a message whose tile leaves it open (message 8, "score a follower
    and return it"), for its card; "" for a message whose words say it all."""
    if action is _A.SCORE_AND_RETURN:
        return gettext(_SCORE_AND_RETURN_RULE[options.score_and_return])
    return ""


def message_names(options: Options) -> dict[str, str]:
    """Each message number of the table's message set in the edition's words."""
    return {
        str(number): message_text(options, action)
        for number, action in MESSAGE_SETS[options.message_set].items()
    }


def message_rule(options: Options) -> str:
    """When a figure draws a message in this edition, in a sentence or two: the trigger's
    sentence, then one sentence per limit the edition sets."""
    if options.trigger is Trigger.END_OF_ROUND:
        sentences = [
            gettext(
                "A figure that ends the turn's scoring on a dark space draws a message; only "
                "the player whose turn it is draws."
            )
        ]
    else:
        sentences = [
            gettext(
                "A figure that lands on a dark space draws a message; only the player whose "
                "turn it is draws."
            )
        ]
    if options.alone_rule:
        sentences.append(gettext("No message where another player's figure already stands."))
    if options.messages_per_round == 1:
        sentences.append(gettext("One message per scoring."))
    else:
        count = options.messages_per_round
        sentences.append(
            ngettext(
                "At most %(count)s message per scoring.",
                "At most %(count)s messages per scoring.",
                count,
            )
            % {"count": count}
        )
    if options.messages_per_turn is not None:
        count = options.messages_per_turn
        sentences.append(
            ngettext(
                "At most %(count)s message per turn.", "At most %(count)s messages per turn.", count
            )
            % {"count": count}
        )
    if not options.chain:
        sentences.append(gettext("Points from a message draw no message."))
    return " ".join(sentences)


def figure_name(figure: str) -> str:
    """A scoring figure's name ("meeple", "messenger")."""
    if figure == "meeple":
        return pgettext("figure", "meeple")
    if figure == "messenger":
        return pgettext("figure", "messenger")
    return figure


def feature_name(kind: str) -> str:
    """A feature kind's name ("road", "city", "monastery", "field")."""
    names = {
        "road": pgettext("feature", "road"),
        "city": pgettext("feature", "city"),
        "monastery": pgettext("feature", "monastery"),
        "field": pgettext("feature", "field"),
    }
    return names.get(kind, kind.replace("_", " "))


def role_name(feature: str) -> str:
    """What a follower is called after the feature it stands on."""
    roles = {
        "road": pgettext("follower", "highwayman"),
        "city": pgettext("follower", "knight"),
        "monastery": pgettext("follower", "monk"),
        "field": pgettext("follower", "farmer"),
    }
    return roles.get(feature, pgettext("follower", "follower"))


PRESET_NAMES: Final = {
    "c1-zmg": gettext_noop("1st edition (2012), Z-Man English rules"),
    "c2-hig": gettext_noop(
        "2nd edition (2017, Big Box 6), Hans im Glück rules with the publisher's clarifications"
    ),
    "c2-zmg": gettext_noop("2nd edition, Z-Man English printing"),
    "c3": gettext_noop("3rd edition (2021, Big Box 7) and 3.1 (2025, Big Box 8)"),
}


PRESET_SUMMARIES: Final = {
    "c1-zmg": gettext_noop(
        "Messages drawn as soon as a figure stops on a dark space; message 8 only for your "
        "majority; both figures merge onto the meeple."
    ),
    "c2-hig": gettext_noop(
        "Messages drawn when a figure ends the round on a dark space; message 8 scores only with "
        "a majority; you choose which figure carries your total."
    ),
    "c2-zmg": gettext_noop(
        "Like the Hans im Glück rules, but drawn on stopping, no draw where another player's "
        "figure stands, and message 8 always scores."
    ),
    "c3": gettext_noop(
        "One figure per turn takes all your points, at most one message a turn, no chains; "
        "one more tile becomes an extra turn."
    ),
}


def preset_summary(preset: str) -> str:
    """An edition's rules in short, as the home page shows them."""
    return gettext(PRESET_SUMMARIES[preset]) if preset in PRESET_SUMMARIES else ""


def preset_name(preset: str) -> str:
    """An edition's name, as the pages show it."""
    return gettext(PRESET_NAMES[preset]) if preset in PRESET_NAMES else preset


def preset_names() -> dict[str, str]:
    """Every edition's name by its id, in the order of ``PRESETS``."""
    return {preset: gettext(name) for preset, name in PRESET_NAMES.items()}
