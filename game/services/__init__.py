"""The game's use cases: commands, corrections, the lobby, seating, computers at a table, the
story, the words of the log and of refusals, and publishing a change after its commit.

Each function that changes a table does it in one transaction with the table's row locked and
publishes the change after the commit, so a page, a websocket, a computer player's thread and a
management command all change a game the same way. The web and the live transport call them;
they build on the store and the engine, and know nothing of sockets or pages. One module per
job: ``commands`` applies a command, ``permissions`` says who may, ``refusals`` words a refusal,
``saving`` saves and publishes it.
"""
