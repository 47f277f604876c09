"""The light and dark themes: every text colour of static/css/site.css reads at 4.5:1 or more
(WCAG 2 AA for normal text) on every background it is drawn on, in both themes.

The tokens are read from the stylesheet itself, so changing a colour there is what is tested.
"""

import re
from pathlib import Path

import pytest
from django.conf import settings

SITE_CSS = Path(settings.BASE_DIR) / "static" / "css" / "site.css"
TOKEN = re.compile(r"--([a-z-]+):\s*light-dark\(\s*(#[0-9a-fA-F]{6})\s*,\s*(#[0-9a-fA-F]{6})\s*\)")

# Text tokens and the backgrounds each is drawn on.
TEXT_ON = {
    ("text", "text-muted", "link", "danger", "success"): ("bg", "surface", "surface-raised"),
    ("text",): ("highlight",),
    ("on-accent", "on-accent-muted"): ("accent",),
}
AA_NORMAL_TEXT = 4.5


def tokens() -> dict[str, tuple[str, str]]:
    """Each `--name: light-dark(#light, #dark)` of site.css, as {name: (light, dark)}."""
    return {name: (light, dark) for name, light, dark in TOKEN.findall(SITE_CSS.read_text())}


def relative_luminance(hex_colour: str) -> float:
    """WCAG 2's relative luminance of an sRGB colour written #rrggbb."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    lighter, darker = sorted(map(relative_luminance, (one, other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


PAIRS = [
    (text, background)
    for texts, backgrounds in TEXT_ON.items()
    for text in texts
    for background in backgrounds
]


def test_the_contrast_formula_matches_wcags_reference_values():
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert contrast("#2b2118", "#2b2118") == 1


def test_every_token_is_a_light_dark_pair_with_the_tested_ones_among_them():
    found = tokens()
    named = {name for pair in PAIRS for name in pair}
    assert named <= set(found), f"not defined as light-dark() pairs: {named - set(found)}"


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(("text", "background"), PAIRS)
def test_text_reads_at_aa_contrast_in_both_themes(text, background, theme):
    side = 0 if theme == "light" else 1
    found = tokens()
    ratio = contrast(found[text][side], found[background][side])
    assert ratio >= AA_NORMAL_TEXT, (
        f"--{text} on --{background} in the {theme} theme: {ratio:.2f}:1, under 4.5:1"
    )


def test_site_css_has_no_colour_outside_its_tokens():
    """Every literal colour sits in the :root tokens, so both themes cover the whole site."""
    css = SITE_CSS.read_text()
    root = re.search(r":root\s*\{.*?\n\}", css, re.S)
    rest = css[: root.start()] + css[root.end() :]
    literals = re.findall(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(", rest)
    assert literals == []
