"""The API's documentation pages (/docs, /redoc) in a real browser with no network: every request
to a host other than the server is refused and recorded, and the pages must still render the
operations of /openapi.json. The two browser tests are slow (the viewer in a real browser, as in
test_browser.py: make test runs them); make test-fast keeps the check, without a browser, that the
pages name only local files."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .browser import artifact


def _offline_page(browser, base: str):
    """A page that may reach ``base`` only; returns (page, the other URLs it tried)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    refused: list[str] = []
    local = urlsplit(base).netloc

    def route(request_route) -> None:
        url = request_route.request.url
        if urlsplit(url).netloc == local or url.startswith(("data:", "blob:")):
            request_route.continue_()
        else:
            refused.append(url)
            request_route.abort()

    context.route("**/*", route)
    return context, page, refused


@pytest.mark.slow
def test_swagger_ui_renders_offline(browser, live) -> None:
    context, page, refused = _offline_page(browser, live.url)
    try:
        page.goto(f"{live.url}/docs")
        expect(page.locator(".swagger-ui .info .title")).to_contain_text("ripplemem")
        search = page.locator(".opblock-summary-path", has_text="/v1/search").first
        expect(search).to_be_visible()
        search.click()  # an operation opens with its request schema
        expect(page.locator(".opblock-body").first).to_be_visible()
        page.screenshot(path=artifact("api-docs-swagger.png"))
    finally:
        context.close()
    assert refused == []


@pytest.mark.slow
def test_redoc_renders_offline(browser, live) -> None:
    context, page, refused = _offline_page(browser, live.url)
    try:
        page.goto(f"{live.url}/redoc")
        expect(page.get_by_role("heading", name="ripplemem").first).to_be_visible(timeout=30_000)
        expect(page.get_by_text("/v1/search").first).to_be_attached()
        page.screenshot(path=artifact("api-docs-redoc.png"))
    finally:
        context.close()
    assert refused == []


def test_the_docs_pages_name_only_local_files(live) -> None:
    with live.client() as client:
        for path in ("/docs", "/redoc"):
            page = client.get(path)
            assert page.status_code == 200, path
            assert "http://" not in page.text.replace(live.url, "")
            assert "https://" not in page.text
            assets = client.get("/docs/assets/swagger-ui-bundle.js")
            assert assets.status_code == 200 and len(assets.content) > 100_000
