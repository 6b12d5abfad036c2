"""The work the web app does off its event loop: laying out packets and drawing previews.

Laying out pages takes a second or more, so it runs in worker threads (`WORKERS` at
most), and the server keeps answering other requests meanwhile. WeasyPrint and PDFium do
not lay out or draw two documents at once safely, so one lock lets one packet or preview
be made at a time; a packet made is kept (`KEPT` of them, by game night, version and
options), so a page's twenty previews cost one packet and twenty drawings.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

import anyio
import anyio.to_thread

from generator.app.preview import page_count, page_png
from generator.app.printed import PdfFile
from generator.app.saved import PacketOptions, game_night_packet
from generator.app.store import Saved

WORKERS = 2
KEPT = 8
T = TypeVar("T")


class Renderer:
    """Makes packets and previews off the event loop, one at a time, and keeps the last."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._limiter = anyio.CapacityLimiter(WORKERS)
        self._packets: OrderedDict[tuple[object, ...], list[PdfFile]] = OrderedDict()
        self._pngs: OrderedDict[tuple[object, ...], bytes] = OrderedDict()

    async def run(self, work: Callable[[], T]) -> T:
        """Run `work` in a worker thread, holding the render lock."""

        def locked() -> T:
            with self._lock:
                return work()

        return await anyio.to_thread.run_sync(locked, limiter=self._limiter)

    def _packet_now(self, saved: Saved, options: PacketOptions) -> list[PdfFile]:
        key = (saved.id, saved.version, options)
        if key in self._packets:
            self._packets.move_to_end(key)
            return self._packets[key]
        files = game_night_packet(saved, options)
        self._packets[key] = files
        while len(self._packets) > KEPT:
            self._packets.popitem(last=False)
        return files

    async def packet(self, saved: Saved, options: PacketOptions) -> list[PdfFile]:
        """Return the packet (and handouts, when asked) of `saved`."""
        return await self.run(lambda: self._packet_now(saved, options))

    async def pages(self, saved: Saved, options: PacketOptions) -> int:
        """Return how many pages the packet of `saved` has."""
        return await self.run(lambda: page_count(self._packet_now(saved, options)[0].pdf))

    async def preview(self, saved: Saved, options: PacketOptions, page: int, width: int) -> bytes:
        """Return page `page` of the packet of `saved` as a PNG `width` pixels wide."""
        key = (saved.id, saved.version, options, page, width)

        def draw() -> bytes:
            if key in self._pngs:
                self._pngs.move_to_end(key)
                return self._pngs[key]
            png = page_png(self._packet_now(saved, options)[0].pdf, page, width_px=width)
            self._pngs[key] = png
            while len(self._pngs) > KEPT * 8:
                self._pngs.popitem(last=False)
            return png

        return await self.run(draw)
