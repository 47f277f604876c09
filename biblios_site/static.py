"""Static files as the workers serve them in production (whitenoise), less collectstatic's
manifest: `staticfiles.json` maps every file to its content-hashed name, which the pages need
from the disk, never from the web; served, it lists every script and style of the site,
the admin's included."""

from django.contrib.staticfiles.storage import staticfiles_storage
from whitenoise.middleware import WhiteNoiseMiddleware


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """whitenoise's middleware, which would serve every file under STATIC_ROOT, without the
    storage's manifest (a 404 like any unknown path)."""

    def add_file_to_dictionary(self, url, path, stat_cache=None):
        if not self._is_manifest(url):
            super().add_file_to_dictionary(url, path, stat_cache=stat_cache)

    def find_file(self, url):
        return None if self._is_manifest(url) else super().find_file(url)

    def _is_manifest(self, url: str) -> bool:
        name = getattr(staticfiles_storage, "manifest_name", None)
        return name is not None and url == self.static_prefix + name
