"""The API's documentation pages, served without the network: ``/docs`` (Swagger UI) and
``/redoc`` (Redoc), both reading ``/openapi.json``.

Their scripts and styles come from the ``fastapi-offline`` package (an install requirement of the
``[server]`` extra), which ships Swagger UI (Apache-2.0), Redoc (MIT) and FastAPI's favicon (MIT)
as files; they are served at ``/docs/assets``. Nothing on these pages loads from another host:
both carry a Content-Security-Policy that allows this server only (Redoc's footer would fetch
its maker's logo from a CDN), and ``tests/viewer/test_api_docs.py`` opens them in Debian's
chromium with every other host refused.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.staticfiles import StaticFiles
from starlette.responses import HTMLResponse

__all__ = ["ASSETS_URL", "add_api_docs"]

ASSETS_URL = "/docs/assets"
#: this server only; the pages' own start-up scripts are inline, Redoc draws in a blob worker
POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'"
)


def assets_folder() -> Path:
    """The folder of the Swagger UI and Redoc files."""
    import fastapi_offline

    return Path(fastapi_offline.__file__).parent / "static"


def add_api_docs(app: FastAPI, *, docs_url: str = "/docs", redoc_url: str = "/redoc") -> None:
    """Serve Swagger UI at ``docs_url`` and Redoc at ``redoc_url`` from local files.

    The app must be built with ``docs_url=None, redoc_url=None`` (FastAPI's own pages load
    their scripts from a CDN)."""
    app.mount(ASSETS_URL, StaticFiles(directory=assets_folder()), name="api-docs-assets")
    openapi_url = app.openapi_url or "/openapi.json"

    @app.get(docs_url, include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        page = get_swagger_ui_html(
            openapi_url=f"{root}{openapi_url}",
            title=f"{app.title} {app.version}: API",
            swagger_js_url=f"{root}{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
            swagger_ui_parameters=app.swagger_ui_parameters,
        )
        return _local_only(page)

    @app.get(redoc_url, include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        page = get_redoc_html(
            openapi_url=f"{root}{openapi_url}",
            title=f"{app.title} {app.version}: API",
            redoc_js_url=f"{root}{ASSETS_URL}/redoc.standalone.js",
            redoc_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
            with_google_fonts=False,
        )
        return _local_only(page)


def _local_only(page: HTMLResponse) -> HTMLResponse:
    page.headers["Content-Security-Policy"] = POLICY
    return page
