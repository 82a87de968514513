"""Operations: health, metrics, housekeeping, the limits per address and the read budget, and
the answers given while a service the game depends on is away.

What an operator watches and what protects the server, not what a game does. It stands beside
the layers of docs/architecture.md rather than in them: the pages, the websocket and the
services count, time or limit something here, and the metrics and the action log read a few
names of the services and of the frames back.
"""
