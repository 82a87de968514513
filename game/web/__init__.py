"""The HTTP side: views, forms, path converters and the request guard."""
