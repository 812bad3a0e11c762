"""Browser tests: Playwright driving Debian's Chromium against pytest-django's live server.

A missing browser fails these tests (never skips them): bin/test installs Chromium when
it can. Screenshots of the key pages go to $SCREENSHOT_DIR, else to pytest's temporary
directory; they are for looking at, never committed.
"""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

# Playwright's sync API keeps an event loop running in this thread for the whole test
# session, so Django would refuse every ORM call made here (fixtures, flushes) as
# "async unsafe". Nothing here is async: the calls are safe.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

# CI shares two CPUs between the live server, Chromium and the database: an assertion
# waits up to 15 s for the page to get there (Playwright's default is 5 s), so a busy
# machine is slow, not failing. What the page must show is unchanged.
expect.set_options(timeout=15_000)

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {  # a mid-sized phone, as Chromium's device emulation has it
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch the system's Chromium (Playwright's own browser download is not used)."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"no browser at {CHROMIUM}: install Debian's chromium (bin/test does it as root) "
            "or set CHROMIUM to a Chromium executable",
            pytrace=False,
        )
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    }


@pytest.fixture(scope="session")
def base_url(live_server) -> str:
    """Pages open by path (page.goto("/accounts/login/")) on the live server.

    Defined here, this also replaces pytest-playwright's fallback fixture, a method that
    pytest 9 warns about (and filterwarnings=error would turn that into an error).
    """
    return live_server.url


@pytest.fixture
def server(live_server, transactional_db):
    """The live server, with a database its thread can see (rows are committed)."""
    return live_server


@pytest.fixture
def phone(browser, server):
    """A page in a phone-sized, touch, mobile browser context on the live server."""
    context = browser.new_context(base_url=server.url, **PHONE)
    yield context.new_page()
    context.close()


@pytest.fixture(scope="session")
def screenshot_dir(tmp_path_factory) -> Path:
    chosen = os.environ.get("SCREENSHOT_DIR")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def screenshot(screenshot_dir):
    """screenshot(page, "name"): the whole page as a PNG, for a person to look at."""

    def take(page, name: str) -> Path:
        path = screenshot_dir / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
