"""The live transport: the table's websocket, from the socket to the page.

Consumers, frame decoding, snapshots, per-connection limits, presence kept in memory and the
channel layers. A frame is decoded and checked here and handed to a service; what the service
changed reaches every page through the table's group after its commit, whoever called it. So
this package decides nothing about the game: it calls the services and reads through them, and
no layer below imports it.
"""
