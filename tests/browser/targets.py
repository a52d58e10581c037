"""Tap targets checked as a finger meets them: every visible control in a part of the page is at least 44 × 44 px,
inside the viewport, and not covered by anything else at its centre or near its corners."""

from __future__ import annotations

MIN_TARGET = 44

CONTROLS = "button, input:not([type=hidden]), select, textarea, summary"

COUNT_JS = """([scope, controls]) => [...document.querySelectorAll(scope)]
  .flatMap(part => [...part.querySelectorAll(controls)])
  .filter(el => el.checkVisibility({visibilityProperty: true})).length"""

# For control number i: scrolled into view, its box, and what a finger at its centre and at 4 points just inside its
# corners would hit. A radio or check box inside its label (a chip) is tapped anywhere on that label, so the label's
# box is the target measured.
CHECK_JS = """([scope, controls, i]) => {
  const all = [...document.querySelectorAll(scope)].flatMap(part => [...part.querySelectorAll(controls)])
    .filter(el => el.checkVisibility({visibilityProperty: true}));
  const control = all[i];
  const label = control.closest('label');
  const el = (control.type === 'radio' || control.type === 'checkbox') && label ? label : control;
  el.scrollIntoView({block: 'center', inline: 'nearest'});
  const r = el.getBoundingClientRect();
  const own = label ? label.textContent.trim() : control.textContent.trim();
  const name = control.getAttribute('aria-label') || own.slice(0, 40) || control.id || control.name;
  const classes = n => n.className && typeof n.className === 'string' ?
    '.' + n.className.trim().split(/\\s+/).join('.') : '';
  const describe = n => n ? n.tagName.toLowerCase() + (n.id ? '#' + n.id : '') + classes(n) : 'nothing';
  // Whole pixels, rounded towards the centre; a pill's corner points go in as far as its rounding, plus 1 px.
  const radius = Math.min(parseFloat(getComputedStyle(el).borderTopLeftRadius) || 0, r.width / 2, r.height / 2);
  const inset = Math.max(3, Math.ceil(radius * (1 - Math.SQRT1_2)) + 1);
  const left = Math.ceil(r.left + inset), top = Math.ceil(r.top + inset);
  const right = Math.floor(r.right - inset), bottom = Math.floor(r.bottom - inset);
  const points = {centre: [r.left + r.width / 2, r.top + r.height / 2], 'top left': [left, top],
    'top right': [right, top], 'bottom left': [left, bottom], 'bottom right': [right, bottom]};
  const covered = [];
  for (const [where, [x, y]] of Object.entries(points)) {
    const hit = document.elementFromPoint(x, y);
    if (!(hit && (hit === el || el.contains(hit)))) covered.push(where + ' by ' + describe(hit));
  }
  return {name, left: r.left, right: r.right, width: r.width, height: r.height,
          viewport: document.documentElement.clientWidth, covered};
}"""


def count_controls(page, scope: str, controls: str = CONTROLS) -> int:
    """How many visible controls the parts of the page matching `scope` hold."""
    return page.evaluate(COUNT_JS, [scope, controls])


def target_problems(page, scope: str, controls: str = CONTROLS) -> list[str]:
    """What a finger would get wrong in the parts matching `scope`: small, off-screen or covered controls."""
    problems = []
    wide, room = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    if wide > room:
        problems.append(f"the page scrolls sideways: {wide} px wide in a {room} px viewport")
    for i in range(count_controls(page, scope, controls)):
        box = page.evaluate(CHECK_JS, [scope, controls, i])
        name = box["name"]
        if box["left"] < 0 or box["right"] > box["viewport"]:
            problems.append(
                f"{name}: sticks out of the {box['viewport']} px viewport ({box['left']:.0f} to {box['right']:.0f} px)"
            )
        if box["width"] < MIN_TARGET or box["height"] < MIN_TARGET:
            problems.append(f"{name}: {box['width']:.0f}x{box['height']:.0f} px, under {MIN_TARGET}x{MIN_TARGET}")
        if box["covered"]:
            problems.append(f"{name}: covered at {'; '.join(box['covered'])}")
    return problems
