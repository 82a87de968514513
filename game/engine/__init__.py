"""Pure-Python rules engine for Carcassonne with The Messengers.

Nothing in this package imports Django, Channels or any storage: it is a set of functions over
immutable values, so the web layer, the record replayer, the tests and the benchmarks all share
one source of truth for the rules.
"""
