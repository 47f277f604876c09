"""The French and Spanish catalogues hold every string of the code, translated.

`update_translations` (what `make messages` runs) extracts the strings of a copy of the project
into a copy of its catalogues: a string added to the code since the catalogues were last
updated comes out untranslated (or fuzzy, when gettext guesses from a similar one), and fails.
"""

import shutil
import subprocess

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from accounts.management.commands.update_translations import translated_languages
from tests.i18n.catalogue import read_po

# What extraction never reads; copying it would only cost time.
NOT_SOURCE = shutil.ignore_patterns(
    ".venv",
    ".git",
    "tests",
    "test-artifacts",
    ".hypothesis",
    ".pytest_cache",
    ".ruff_cache",
    "*.sqlite3*",
    "staticfiles",
    "__pycache__",
    "*.mo",
    "node_modules",
    "*.whl",
)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    """The catalogues as `make messages` would leave them, made in a copy of the project."""
    root = tmp_path_factory.mktemp("project") / "copy"
    shutil.copytree(settings.BASE_DIR, root, ignore=NOT_SOURCE)
    with override_settings(LOCALE_PATHS=[root / "locale"]):
        call_command("update_translations", root=str(root), verbosity=0)
    return {lang: root / "locale" / lang / "LC_MESSAGES" / "django.po" for lang in ["fr", "es"]}


def test_the_site_is_translated_into_french_and_spanish():
    assert translated_languages() == ["fr", "es"]


@pytest.mark.parametrize("language", ["fr", "es"])
def test_every_string_of_the_code_is_translated(extracted, language):
    entries = read_po(extracted[language])
    assert len(entries) > 300  # the extraction did find the site's strings
    missing = [entry.msgid for entry in entries if not entry.translated]
    assert not missing, f"{language}: {len(missing)} untranslated or fuzzy: {missing[:20]}"


@pytest.mark.parametrize("language", ["fr", "es"])
def test_translations_keep_their_placeholders(extracted, language):
    """Msgfmt --check: every %(name)s of a msgid is in its translation, plurals complete."""
    check = subprocess.run(
        ["msgfmt", "--check", "-o", "/dev/null", str(extracted[language])],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr


def test_the_committed_catalogues_are_the_extracted_ones(extracted):
    """`make messages` was run after the last string change: nothing is left to merge."""
    for language, path in extracted.items():
        committed = settings.BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"
        assert {e.key for e in read_po(committed)} == {e.key for e in read_po(path)}, language
