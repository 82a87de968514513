"""The server's settings with English alone in LANGUAGES: every update is worded and serialised
once, as before the pages spoke German and Czech. `bench/ws_load.py --settings
bench.one_language_settings` measures beside it what wording each update in three languages
costs (docs/performance.md, "Languages")."""

from messengers.settings import *  # noqa: F403

LANGUAGES = [("en", "English")]
