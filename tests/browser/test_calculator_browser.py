"""The calculator in a real browser: htmx swaps, the formaction save, autofocus, and no CSP violations.

Uses the live_server and page fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser


def _no_csp_violations(page) -> None:
    """Nothing in the console mentions the Content-Security-Policy."""
    needles = ("content security policy", "content-security-policy")
    violations = [text for text in page.console_errors if any(n in text.lower() for n in needles)]
    assert not violations, violations


def test_spqf_calculate_then_save(page, live_server: str) -> None:
    """Fill two SPQF players, Calculate (htmx swap), read the result, Save, land on the result page."""
    page.goto(f"{live_server}/calculator/spqf")
    page.fill("[name='name-0']", "Ann")
    page.fill("[name='vp_tokens-0']", "10")
    page.fill("[name='civ_level-0']", "3")
    page.fill("[name='monument_modifiers-0']", "4")
    page.fill("[name='name-1']", "Bob")
    page.fill("[name='vp_tokens-1']", "12")
    page.fill("[name='civ_level-1']", "2")
    page.get_by_role("button", name="Calculate").click()

    result = page.locator("#calc-result")
    result.wait_for()
    assert "Ann wins" in result.inner_text()
    # 10 tokens + 9 (level 3) + 4 Monument + 3 bonus = 26.
    assert "Ann wins with 26 VP." in result.inner_text()
    # The typed form survived the swap, and htmx focused the result (so the phone scrolls to it).
    assert page.input_value("[name='vp_tokens-1']") == "12"
    assert page.evaluate("document.activeElement.id") == "calc-result"

    page.get_by_role("button", name="Save to history").click()
    page.wait_for_url(re.compile(r"/plays/\d+$"))
    assert "Ann" in page.locator(".winners").inner_text()
    assert page.get_by_role("link", name="Score sheet (PDF)").is_visible()
    _no_csp_violations(page)


def test_spires_mistake_shows_beside_the_field(page, live_server: str) -> None:
    """A 422 from the server swaps in the message beside the field, keeping what was typed."""
    page.goto(f"{live_server}/calculator/spires")
    page.fill("[name='name-0']", "Ann")
    page.fill("[name='towers.red-0']", "3")
    page.fill("[name='crowns-0']", "5")
    page.fill("[name='name-1']", "ann")
    page.fill("[name='crowns-1']", "2")
    page.get_by_role("button", name="Calculate").click()

    message = page.locator("#name-1-error")
    message.wait_for()
    assert "already playing" in message.inner_text()
    assert page.input_value("[name='towers.red-0']") == "3"
    assert page.input_value("[name='name-1']") == "ann"
    assert page.locator("#calc-result").count() == 0

    page.fill("[name='name-1']", "Bob")
    page.get_by_role("button", name="Calculate").click()
    page.locator("#calc-result").wait_for()
    assert "Ann wins" in page.locator("#calc-result").inner_text()
    _no_csp_violations(page)
