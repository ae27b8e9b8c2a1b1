"""What the web table's browser tests share: where screenshots go, a person's pace for the rate
limits, and a served web table with a headless Chromium (tools/headless.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.web.hub import Hub
from bot.web.server import make_app, start_site
from engine.service.tables import GameService
from tests.bot.web.pace import Pace, paced
from tools.headless import Browser, find_chromium

CHROMIUM = find_chromium()
BOT_TOKEN = "123456:web-test-token"


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory) -> Path:
    """Where the screenshots go: ``TYCOON_TEST_ARTIFACTS`` when set, else a directory of this run's own."""
    named = os.environ.get("TYCOON_TEST_ARTIFACTS")
    if not named:
        return tmp_path_factory.mktemp("artifacts")
    folder = Path(named).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def pace(monkeypatch) -> Pace:
    """Every rate limit made during the test (one per page's socket) reads the ``Pace`` clock."""
    return paced(monkeypatch)


@pytest.fixture
async def web(tmp_path):
    service = await GameService.open(f"sqlite:///{tmp_path / 'web.db'}")
    app = make_app(service, Hub(service, seed=11), lang="en", bot_token=BOT_TOKEN)
    runner, address = await start_site(app, "127.0.0.1", 0)
    browser = await Browser.launch(CHROMIUM, tmp_path / "profile")
    try:
        yield service, address, browser
    finally:
        await browser.close()
        await runner.cleanup()
        await service.idle()
        await service.close()
