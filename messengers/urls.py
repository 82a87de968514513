"""URL configuration for the messengers project."""

from django.contrib import admin
from django.urls import include, path
from django.utils import timezone
from django.views.decorators.cache import cache_control
from django.views.decorators.http import last_modified
from django.views.i18n import JavaScriptCatalog

_STARTED = timezone.now()

# The words the pages make themselves, in the reader's language (docs/languages.md). Pages ask
# for it with their language and the version in the query, so a browser may keep it for a day.
javascript_catalog = cache_control(max_age=86_400)(
    last_modified(lambda request: _STARTED)(JavaScriptCatalog.as_view(domain="djangojs"))
)

urlpatterns = [
    path("admin/", admin.site.urls),
    # The language switcher on every page posts here (Django's set_language).
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", javascript_catalog, name="javascript-catalog"),
    path("", include("game.urls")),
]
