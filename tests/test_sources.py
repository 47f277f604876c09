"""What the repository holds reads as written: no file keeps the conflict markers of a merge
(a README once shipped both sides of one)."""

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {".venv", ".git", "node_modules", "staticfiles", "__pycache__"}
TEXT = {".py", ".md", ".html", ".css", ".js", ".json", ".toml", ".po", ".txt", ".conf", ".sh"}
MARKER = re.compile(r"^(<{7} |={7}$|>{7} )", re.M)


def tracked_text_files():
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders if name not in SKIPPED]
        for name in files:
            path = Path(folder, name)
            if path.suffix in TEXT or name in ("Makefile", "run"):
                yield path


def test_no_file_keeps_a_merges_conflict_markers():
    found = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}"
        for path in tracked_text_files()
        for text in [path.read_text(errors="replace")]
        for match in MARKER.finditer(text)
    ]
    assert not found, f"conflict markers left by a merge: {found}"
    assert any(path.name == "README.md" for path in tracked_text_files())
