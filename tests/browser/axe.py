"""axe-core (vendored, tests/browser/vendor) run on a Playwright page: the violations of the given impacts.

The script goes in with page.add_script_tag(content=...). The app's Content-Security-Policy (script-src 'self')
refuses inline scripts, so on a page whose context was not made with bypass_csp=True that raises; the helper then
evaluates the same source through the DevTools protocol, which no CSP governs (the browser still logs one
"Executing inline script violates..." console error for the refused tag).

Every run also has axe's experimental rule label-content-name-mismatch on (WCAG 2.5.3, label in name: a control's
visible text is part of its accessible name, so a voice user can say what they see); axe leaves it off by default.
That rule takes a descendant's aria-labelledby for the text it shows (a counter's <output> named by its label passes
as "Red" while it shows "3"), so label_not_in_name checks the same against Chromium's own accessible names.
"""

from __future__ import annotations

import json
import re
import urllib.request
from functools import cache
from pathlib import Path
from typing import Any

AXE_JS = Path(__file__).with_name("vendor") / "axe-core-4.11.0.min.js"

# Every folded part opened that needs no request (the ones that load their content are opened by a tap), so that
# axe checks all a page may show.
OPEN_DETAILS = """() => document.querySelectorAll('details').forEach(d => {
  if (!d.querySelector(':scope > summary[hx-get]')) d.open = true;
})"""

# Every visible control whose name comes from aria-label or aria-labelledby, with the text it shows; each is marked
# (data-label-in-name) so the DevTools protocol finds the same ones, in the same document order.
MARK = "data-label-in-name"
NAMED_CONTROLS = """(mark) => {
  const controls = ":is(button, a[href], summary, [role=button], [role=link], [role=tab], [role=menuitem], [role=switch])"
    + ":is([aria-label], [aria-labelledby])";
  return [...document.querySelectorAll(controls)]
    .filter(el => el.checkVisibility({visibilityProperty: true}) && el.innerText.trim())
    .map(el => {
      el.setAttribute(mark, "");
      const where = el.id ? "#" + el.id : el.dataset.typeIn ? `[data-type-in=${el.dataset.typeIn}]` : "";
      return {control: el.tagName.toLowerCase() + where, text: el.innerText.trim()};
    });
}"""

# The options of every run: only violations, and the experimental rules wanted switched on.
EXPERIMENTAL = ("label-content-name-mismatch",)
OPTIONS = {"resultTypes": ["violations"], "rules": {rule: {"enabled": True} for rule in EXPERIMENTAL}}

# The whole document, or the first element matching `selector` when one is given, for the violations of the given
# impacts. Working out each node's CSS selector is a quarter of a run's time, and most runs find nothing: the first
# run goes without them, and only one that finds something is run again to say where.
RUN = """async ([selector, options, impacts]) => {
  const context = selector ? document.querySelector(selector) : document;
  const wanted = result => result.violations.filter(v => impacts.includes(v.impact));
  let found = wanted(await axe.run(context, {...options, selectors: false}));
  if (found.length) found = wanted(await axe.run(context, options));
  return found.map(v => ({
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
    return page.evaluate(RUN, [None, OPTIONS, list(impacts)])


def violations_within(page, selector: str, impacts=("serious", "critical")) -> list[dict]:
    """axe's violations inside one part of the page (the rest of the page has tests of its own)."""
    inject_axe(page)
    return page.evaluate(RUN, [selector, OPTIONS, list(impacts)])


def _words(text: str) -> str:
    """Text as a voice user says it: lower case, letters and digits only, one space between words and around."""
    return " " + " ".join(re.findall(r"[^\W_]+", text.lower())) + " "


def label_not_in_name(page) -> list[str]:
    """The visible controls named by aria-label or aria-labelledby whose visible words are not, whole, in the name
    Chromium computes for them (WCAG 2.5.3); a control showing only a sign (−, +) has no words to say and passes."""
    shown = page.evaluate(NAMED_CONTROLS, MARK)
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        nodes = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": f"[{MARK}]"})["nodeIds"]
        names = [
            cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})["nodes"][0]
            .get("name", {})
            .get("value", "")
            for node in nodes
        ]
    finally:
        page.evaluate("(mark) => document.querySelectorAll(`[${mark}]`).forEach(el => el.removeAttribute(mark))", MARK)
        cdp.detach()
    assert len(names) == len(shown), "the marked controls changed while their names were read"
    return [
        f"{seen['control']} shows {seen['text']!r}, not in its name {name!r}"
        for seen, name in zip(shown, names, strict=True)
        if _words(seen["text"]).strip() and _words(seen["text"]) not in _words(name)
    ]


def describe(violations: list[dict]) -> str:
    """One line per violation, with the selectors of the offending nodes, for an assert message."""
    return "\n".join(f"{v['impact']} {v['id']} ({v['help']}): {', '.join(v['targets'])}" for v in violations)


def api(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST JSON to the live server's API as a program would, to set a page up for axe; the answer's JSON."""
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # a 4xx or 5xx raises, with its status
        return json.load(response)
