"""The one place where the game's facts become words, in the reader's language.

The engine and the services say what happened and why a request was refused in structured facts
(an event's kind, its players, points and place; a refusal's code and parameters); the modules
here word them through Django's translation catalogues (docs/languages.md), under the language
that is active: a page's, a websocket's, or each of settings.LANGUAGES in turn for an update that
every connection of a table receives.
"""
