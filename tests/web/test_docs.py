"""The interactive docs in Chromium, under their Content-Security-Policy:
Swagger UI draws every operation, and the browser refuses nothing it loads."""

from __future__ import annotations

from tests.service.spec_check import spec

from .conftest import DESKTOP, shoot


def test_the_docs_draw_every_operation_with_nothing_refused_by_their_policy(browser, base_url):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base_url}/docs")
    page.wait_for_selector(".opblock")
    page.wait_for_load_state("networkidle")
    operations = sum(1 for item in spec()["paths"].values() for method in item
                     if method in ("get", "put", "post", "delete", "patch"))
    assert page.locator(".opblock").count() == operations
    assert not [line for line in console if "Content Security Policy" in line], console
    assert errors == []
    shoot(page, "docs", DESKTOP)
