"""The HTTP side: views, forms, path converters, the tile catalogue, the seats' colours and the
request guard.

A page changes tables only through the services, as the websocket does, so that a change made
from a page is checked, saved and published exactly like one made at the table.
Nothing in the layers below imports it.
"""
