"""axe-core (vendored, tests/browser/vendor) run on a Playwright page: the violations of the given impacts.

The script goes in with page.add_script_tag(content=...). The app's Content-Security-Policy (script-src 'self')
refuses inline scripts, so on a page whose context was not made with bypass_csp=True that raises; the helper then
evaluates the same source through the DevTools protocol, which no CSP governs (the browser still logs one
"Executing inline script violates..." console error for the refused tag).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

AXE_JS = Path(__file__).with_name("vendor") / "axe-core-4.11.0.min.js"

RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map(v => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.map(n => n.target.join(" ")),
  }));
}"""


@cache
def _source() -> str:
    return AXE_JS.read_text(encoding="utf-8")


def inject_axe(page) -> None:
    """Put axe-core in the page once: a script tag, or, when the CSP refuses inline scripts, an evaluate."""
    if page.evaluate("typeof window.axe !== 'undefined'"):
        return
    try:
        page.add_script_tag(content=_source())
    except Exception as refused:  # playwright's Error: "Executing inline script violates ... Content Security Policy"
        if "content security policy" not in str(refused).lower():
            raise
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(_source())
    assert page.evaluate("typeof window.axe.run === 'function'"), "axe-core could not be loaded"


def axe_violations(page, impacts=("serious", "critical")) -> list[dict]:
    """The page's axe violations whose impact is one of `impacts`: [{id, impact, help, targets}, ...]."""
    inject_axe(page)
    return [v for v in page.evaluate(RUN) if v["impact"] in impacts]


def violations_within(page, selector: str, impacts=("serious", "critical")) -> list[dict]:
    """axe's violations inside one part of the page (the rest of the page has tests of its own)."""
    inject_axe(page)
    found = page.evaluate(
        """async (selector) => (await axe.run(document.querySelector(selector), {resultTypes: ['violations']}))
        .violations.map(v => ({id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map(n => n.target.join(' '))}))""",
        selector,
    )
    return [v for v in found if v["impact"] in impacts]


def describe(violations: list[dict]) -> str:
    """One line per violation, with the selectors of the offending nodes, for an assert message."""
    return "\n".join(f"{v['impact']} {v['id']} ({v['help']}): {', '.join(v['targets'])}" for v in violations)
