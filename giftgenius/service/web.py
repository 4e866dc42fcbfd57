"""The web chat page at ``/``: one HTML file, one script and one style sheet
(``service/web/``, package data), with no build step.

The page's words are the catalogue's ``web`` section, in the language ``?lang=`` names,
else ``Accept-Language``'s (``errors.language``): the HTML's own words are written into it
here, at request time, and the whole section travels in the page as JSON for the script,
which holds no sentence. The script talks to the ``/v1`` API with the key the person pastes
(kept in the browser), like any other client: the page itself needs no key and says nothing
of any user. A strict Content-Security-Policy lets the page run its own script only.
"""

from __future__ import annotations

import functools
import html
import json
from importlib import resources
from string import Template
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from giftgenius import messages as catalogue
from giftgenius.service.errors import language

router = APIRouter(include_in_schema=False)

ASSETS = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class Page(Template):
    """``${key.name}``: a key of the catalogue's ``web`` section, dots allowed."""

    idpattern = r"[a-z][a-z0-9_.]*"


@functools.cache
def _asset(name: str) -> str:
    return resources.files("giftgenius.service").joinpath("web", name).read_text(encoding="utf-8")


def page_language(request: Request, lang: str | None) -> str:
    """``?lang=`` when the catalogue has it, else the request's ``Accept-Language``."""
    return lang if lang in catalogue.LANGUAGES else language(request)


def render(lang: str) -> str:
    """The page in ``lang``: every ``${key}`` is the catalogue's sentence, escaped;
    ``${lang}`` the language and ``${words}`` the whole section as JSON for the script."""
    words = catalogue.messages(lang)["web"]
    values = {key: html.escape(sentence) for key, sentence in words.items()}
    # JSON inside <script>: no "<" may end the element early, whatever a sentence holds
    blob = json.dumps(words, ensure_ascii=False)
    blob = blob.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Page(_asset("index.html")).substitute(values, lang=lang, words=blob)


@router.get("/", response_class=HTMLResponse)
def index(
    request: Request, lang: Annotated[str | None, Query(max_length=8)] = None
) -> HTMLResponse:
    """The chat page, in the person's language."""
    chosen = page_language(request, lang)
    headers = {**HEADERS, "Content-Language": chosen, "Vary": "Accept-Language"}
    return HTMLResponse(render(chosen), headers=headers)


@router.get("/web/{name}")
def asset(name: str, request: Request) -> Response:
    """The page's script and style sheet (nothing else is served from here)."""
    from starlette.exceptions import HTTPException

    if name not in ASSETS:
        raise HTTPException(status_code=404)
    return Response(_asset(name), media_type=ASSETS[name], headers=HEADERS)
