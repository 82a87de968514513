"""The live transport: the table websocket from the socket to the page.

Consumers, frame decoding, snapshots, per-connection limits, presence kept in memory and the
channel layers. It calls the services and reads through them; nothing below imports it.
"""
