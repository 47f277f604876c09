"""What a worker keeps of its hot data (renders, reads) for the next caller, bounded so that it
never grows with the site: the most recently used entries, at most `size`, safe to share between
the threads a worker renders and serves on."""

import threading
from collections import OrderedDict


class Recent:
    """A mapping of at most `size` entries, the least recently used forgotten first."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, default=None):
        with self._lock:
            value = self._items.get(key, default)
            if key in self._items:
                self._items.move_to_end(key)
            return value

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def items(self) -> list[tuple]:
        """A copy, oldest first."""
        with self._lock:
            return list(self._items.items())

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
