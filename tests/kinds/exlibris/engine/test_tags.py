"""Every rule of the spec is cited by a test: each tag X1-X90 of
`ex-libris-spec.md` appears in the name or the docstring of a test function under tests/, a range
("X19-X33" in a docstring, "x6_to_x11" in a name) citing each tag it spans."""

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[3]
TAGS = range(1, 91)
CITATION = re.compile(r"\bx(\d{1,2})(?:\s*(?:[-–]|to)\s*x?(\d{1,2}))?(?!\d)", re.IGNORECASE)


def cited_in(text: str) -> set[int]:
    found = set()
    for first, last in CITATION.findall(text.replace("_", " ")):
        found.update(range(int(first), int(last or first) + 1))
    return found


def citations_in_tests() -> dict[int, list[str]]:
    """Tag -> the test functions citing it."""
    citations: dict[int, list[str]] = {}
    for path in TESTS.rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                text = f"{node.name} {ast.get_docstring(node) or ''}"
                for tag in cited_in(text):
                    citations.setdefault(tag, []).append(f"{path.name}::{node.name}")
    return citations


def test_the_citation_reader_reads_names_docstrings_and_ranges():
    assert cited_in("test_x8_draft") == {8}
    assert cited_in("X19-X21 and x90") == {19, 20, 21, 90}
    assert cited_in("test_x25_x26_x45_the_dump") == {25, 26, 45}
    assert cited_in("test_x6_to_x8_basic_deal") == {6, 7, 8}
    assert cited_in("X100 and box12") == set()


def test_every_rule_tag_is_cited_by_a_test():
    citations = citations_in_tests()
    missing = [f"X{tag}" for tag in TAGS if tag not in citations]
    assert not missing, f"no test cites {', '.join(missing)}"
