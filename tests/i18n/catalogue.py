"""A small reader of gettext .po files: enough to check that every entry is translated."""

import ast
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Entry:
    msgid: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)

    @property
    def key(self) -> tuple[str | None, str]:
        return self.msgctxt, self.msgid

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr.values()) and "fuzzy" not in self.flags


def _unquote(text: str) -> str:
    return ast.literal_eval(text)


def read_po(path: Path) -> list[Entry]:
    """The live entries of a catalogue (the header and obsolete `#~` entries left out)."""
    entries, entry, current = [], Entry(), None
    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            if current is not None:
                entries.append(entry)
            entry, current = Entry(), None
            continue
        if line.startswith("#,"):
            entry.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            target, index = current
            if target == "msgstr":
                entry.msgstr[index] += _unquote(line)
            else:
                setattr(entry, target, (getattr(entry, target) or "") + _unquote(line))
        else:
            keyword, value = line.split(" ", 1)
            if keyword.startswith("msgstr"):
                index = int(keyword[7:-1]) if "[" in keyword else 0
                entry.msgstr[index] = _unquote(value)
                current = ("msgstr", index)
            else:
                setattr(entry, keyword, _unquote(value))
                current = (keyword, None)
    return [e for e in entries if e.msgid]
