"""A system Chromium, headless, driven by Playwright for Python: the results page's browser tests and benchmark.

No browser is downloaded: the Chromium is Debian's (``apt-get install chromium``, ``/usr/bin/chromium``) or the
one ``CHROMIUM`` names. :func:`unavailable` says why no browser can be had (then the tests skip with that
reason). :func:`open_page` loads a page from its file and records what a user could not see: console errors,
uncaught exceptions and every request other than the page's own file.
"""
import os
import shutil
import time
from contextlib import contextmanager
from pathlib import Path

#: headless, no sandbox (root in a container), no GPU (software WebGL), nothing sent anywhere on its own
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--use-angle=swiftshader",
                 "--enable-unsafe-swiftshader", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-default-apps", "--disable-extensions"]


def chromium_path():
    """The system Chromium: ``CHROMIUM``, else ``chromium`` or ``chromium-browser`` on the PATH; None if none."""
    if os.environ.get("CHROMIUM"):
        return os.environ["CHROMIUM"] if os.access(os.environ["CHROMIUM"], os.X_OK) else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


def unavailable():
    """Why no browser can be driven here (one line), or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install playwright; the test extra)"
    if chromium_path() is None:
        return "no system Chromium (apt-get install chromium, or CHROMIUM=/path/to/chromium)"
    return None


@contextmanager
def chromium():
    """A launched headless Chromium (Playwright ``Browser``)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class Visit:
    """A page opened from its file: ``page``, ``errors`` (console errors, uncaught exceptions), ``requests`` (every
    URL asked for other than the page's own file) and ``load_s`` (from navigation to the first rendered frame)."""

    def __init__(self, page, url):
        self.page, self.url, self.errors, self.requests = page, url, [], []
        page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        page.on("request", lambda r: None if r.url == url else self.requests.append(r.url))
        page.on("requestfailed", lambda r: self.requests.append(f"failed: {r.url}"))

    def api(self, expression, *args):
        """Evaluate ``expression`` (a function of ``window.chronoOrigami``'s API, e.g. ``a => a.state``)."""
        return self.page.evaluate(f"([args]) => ({expression})(window.chronoOrigami, ...args)", [list(args)])


def open_page(browser, path, width=1100, height=800, timeout_s=60):
    """Open the page at ``path`` and wait for its first rendered frame; returns the :class:`Visit`."""
    page = browser.new_page(viewport={"width": width, "height": height})
    url = Path(path).resolve().as_uri()
    visit = Visit(page, url)
    t = time.perf_counter()
    page.goto(url)
    page.wait_for_function("window.chronoOrigami && window.chronoOrigami.ready", timeout=timeout_s * 1000)
    visit.load_s = time.perf_counter() - t
    visit.first_render_ms = page.evaluate("window.chronoOrigami.firstRenderMs")
    return visit
