"""The settings of the sites the browser tests start: the site's own (production's, unless the
environment sets DEBUG), with a cheap password hasher. Every test browser signs up or logs in,
and the real hasher's million rounds cost about a second of CPU each on the two cores the suite
shares; the hasher's choice is Django's, not ours to test (as biblios_site/settings_test.py)."""

from biblios_site.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
