"""The site's own error pages (templates/400.html, 403.html, 404.html): in the reader's language,
with the site's style and the language switcher, as every page."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.parametrize(
    ("language", "heading"),
    [("en", "Page not found"), ("de", "Seite nicht gefunden"), ("cs", "Stránka nenalezena")],
)
def test_a_missing_page_says_so_in_the_readers_language(language: str, heading: str) -> None:
    response = Client().get("/no/such/page", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    page = response.content.decode()
    assert f'<html lang="{language}">' in page
    assert f"<h1>{heading} <span>(404)</span></h1>" in page
    assert 'class="language"' in page
