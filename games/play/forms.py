"""What every move post carries besides its action: the board version it was made against."""

from django.utils.translation import gettext

from biblios_site.inputs import whole_number
from games.kinds.registry import ActionInputError


def parse_version(data) -> int:
    version = whole_number(data.get("version"))
    if version is None:
        raise ActionInputError(gettext("The form is missing the board version; reload the page."))
    return version
