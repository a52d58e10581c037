// The tracker's queue of taps kept on the device (issue 34). A tap, an undo, a game action or Next turn that can't
// reach the app (the table's Wi-Fi dropped, no answer in time, a proxy's 502/503/504, a fault of the server) is kept
// in localStorage, per play, and sent later: once (its Idempotency-Key), in order, dated when it was made
// (Companion-Action-Age). While taps wait, new ones wait behind them: a tap never overtakes an older one. A refusal
// (a 4xx) of a tap sent at once is the rule speaking and is shown as it always was; nothing is kept for it.
//
// Storage: localStorage["companion:queue:<play>"] = {"entries": [entry, ...], "refused": null or {label, words}},
// entry = {id, play, since, made, url, fields: [[name, value], ...], label, mark, kind}. "refused" is set when a
// kept tap was refused on its way back and taps after it still wait: they wait for the player's choice.
(function () {
  "use strict";

  // What a person reads, in the page's language: base.html carries the words (companion/web/i18n.py).
  const WORDS = JSON.parse(document.querySelector('meta[name="companion-words"]')?.content || "{}");
  const PLURAL = new Intl.PluralRules(document.documentElement.lang || "en");
  function word(key, fill) {
    let words = WORDS[key] || key;
    if (Array.isArray(words)) words = words[PLURAL.select(fill.n) === "one" ? 0 : 1];
    return words.replace(/\{(\w+)\}/g, (whole, name) => (name in fill ? String(fill[name]) : whole));
  }
  const SAY = {
    waiting: (n) => word("waiting", { n }),
    saved: (n) => word("saved", { n }),
    dropped: (n) => word("dropped", { n }),
    refused: (label, words) => word("refused", { label, words }),
    rest: (n) => word("rest", { n }),
    unreachable: word("unreachable", {}),
    offline: word("queue_offline", {}),
    kept: word("kept", {}),
    gone: word("gone", {}),
    status: (status) => word("status", { status }),
    badge: (n) => word("badge", { n }),
    finishWaits: word("finishWaits", {}),
    sendRest: word("sendRest", {}),
    dropRest: word("dropRest", {}),
    choice: word("choice", {}),
    undo: word("undo", {}),
    set: (value) => word("set", { value }),
  };

  const TIMEOUT_MS = 8000;
  const RETRY_MS = 1500;
  // How long a draw of the play may take before the device counts as still offline.
  const DRAW_WAIT_MS = 4000;
  // "3 taps saved" gives way to what stands after this long; a refusal stays until the next tap.
  const SAID_MS = 6000;
  // The server refuses an age of more than a month (companion/web/sent.py).
  const AGE_MAX_MS = 31 * 24 * 3600 * 1000;
  const STORE = "companion:queue:";
  const KEY = "Idempotency-Key";
  const AGE = "Companion-Action-Age";
  const KEPT_POSTS = /^\/plays\/(\d+)\/(seats\/\d+|table|actions|undo)$/;
  const LIVE = /^\/plays\/\d+\/live$/;
  // A proxy saying the app is away; the app's own 503 (a database fault) carries HX-Retarget and its words.
  const AWAY = [502, 503, 504];
  // Only for the answer's log news, which a kept tap's answer does not draw (the play is drawn after).
  const UNSENT_FIELDS = ["log_after", "log_waiting"];

  const tracker = document.querySelector(".tracker");
  const poll = tracker && tracker.querySelector("[hx-get$='/live']");
  if (!poll) return;
  const play = poll.getAttribute("hx-get").match(/\/plays\/(\d+)\/live$/)[1];
  const storeKey = STORE + play;

  const kept = Boolean(document.body.dataset.keptCopy);
  let offline = kept;
  let fault = null;
  let said = null;
  let saidTimer = null;
  let sending = false;
  let memory = { entries: [], refused: null };
  const waiters = new Set();

  // Storage -----------------------------------------------------------------------------------------------------

  function read() {
    try {
      const stored = JSON.parse(localStorage.getItem(storeKey) || "null");
      if (stored && Array.isArray(stored.entries)) return stored;
      return { entries: [], refused: null };
    } catch (unavailable) {
      // Storage refused (a private window, a full quota): the queue lives as long as the page.
      return memory;
    }
  }

  function write(queue) {
    memory = queue;
    try {
      if (queue.entries.length || queue.refused) localStorage.setItem(storeKey, JSON.stringify(queue));
      else localStorage.removeItem(storeKey);
    } catch (unavailable) {
      // Kept in memory only.
    }
  }

  function keep(entry) {
    const queue = read();
    if (!queue.entries.some((e) => e.id === entry.id)) queue.entries.push(entry);
    write(queue);
  }

  function waiting() {
    return read().entries.length > 0;
  }

  // What a tap is -----------------------------------------------------------------------------------------------

  // http on a LAN is no secure context: randomUUID is missing there, getRandomValues is not.
  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  function pathOf(config) {
    return new URL(config.path, location.href).pathname;
  }

  function isKeptPost(config) {
    return config.verb === "post" && KEPT_POSTS.test(pathOf(config)) && config.elt && tracker.contains(config.elt);
  }

  function isLive(config) {
    return config.verb === "get" && LIVE.test(pathOf(config));
  }

  function formOf(elt) {
    return elt && elt.closest ? elt.closest("form") : null;
  }

  // How many times a person has touched the form (app.js counts it): the same count means nothing typed since.
  function formState(form) {
    return form ? form.dataset.edits || "0" : "";
  }

  function seatName(form) {
    const heading = form.closest(".seat") && form.closest(".seat").querySelector("h2");
    if (!heading) return "";
    const text = Array.from(heading.childNodes).find((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim());
    return text ? text.textContent.trim() : "";
  }

  function change(fields) {
    const delta = fields.get("delta");
    if (delta !== null) {
      const step = Number(delta);
      return step < 0 ? `−${Math.abs(step)}` : `+${step}`;
    }
    return SAY.set(fields.get("value"));
  }

  // Where a kept tap shows as waiting: the counter it changes (a seat's +2...+5 chips belong to its counter), else
  // its own form, found again after a reload or a redraw by its id, or by where it posts and its slot.
  function markOf(form, kind, fields, path) {
    if (kind === "counter") {
      const scope = path.endsWith("/table") ? "table" : path.split("/").pop();
      const id = `c-${scope}-${fields.get("field").replace(/\./g, "-")}`;
      if (document.getElementById(id)) return { id };
    }
    if (form.id) return { id: form.id };
    const slot = form.querySelector("input[name=slot], input[name=action]");
    return { action: form.getAttribute("action"), slot: slot ? slot.value : "" };
  }

  function labelOf(form, kind, fields, mark, submitter) {
    if (kind === "undo") return SAY.undo;
    const who = seatName(form);
    if (kind === "counter") {
      const label = mark.id ? document.getElementById(`${mark.id}-label`) : null;
      const what = label ? label.textContent.trim() : fields.get("field");
      return `${who ? who + ": " : ""}${what} ${change(fields)}`;
    }
    const button = submitter || form.querySelector("button[type=submit], button:not([type])");
    const text = button ? (button.getAttribute("aria-label") || button.textContent).trim() : fields.get("action");
    return who && !text.startsWith(who) ? `${who}: ${text}` : text;
  }

  // What a request would save, as a queue entry; null for a typed value left empty (the server saves nothing).
  function entryOf(config) {
    const form = formOf(config.elt);
    if (!form) return null;
    const path = pathOf(config);
    const fields = new URLSearchParams();
    for (const [name, value] of config.formData.entries()) {
      if (typeof value === "string" && !UNSENT_FIELDS.includes(name)) fields.append(name, value);
    }
    const kind = path.endsWith("/undo") ? "undo" : path.endsWith("/actions") ? "action" : "counter";
    if (kind === "counter" && !fields.has("delta") && !(fields.get("value") || "").trim()) return null;
    const event = config.triggeringEvent;
    // The moment of the finger, not of the request: a tap may wait behind others in htmx's queue.
    const made = event && event.timeStamp ? Math.round(performance.timeOrigin + event.timeStamp) : Date.now();
    const submitter = config.elt.matches("button") ? config.elt : event && event.submitter;
    const mark = markOf(form, kind, fields, path);
    return {
      id: newId(),
      play,
      since: fields.get("since"),
      made: Math.min(made, Date.now()),
      url: path,
      fields: Array.from(fields.entries()),
      label: labelOf(form, kind, fields, mark, submitter),
      mark,
      kind,
    };
  }

  // The form is back to its defaults once its tap is kept, as once saved (app.js), unless it was typed in since.
  function settle(config, entry) {
    const form = formOf(config.elt);
    if (form && (config.companionFormState === undefined || config.companionFormState === formState(form))) form.reset();
    return entry;
  }

  // The requests ------------------------------------------------------------------------------------------------

  document.addEventListener("htmx:configRequest", function (event) {
    const config = event.detail;
    if (formOf(config.elt) && formOf(config.elt).id === "finish" && waiting()) {
      event.preventDefault();
      return;
    }
    if (!isKeptPost(config)) return;
    const entry = entryOf(config);
    clearSaid();
    if (waiting()) {
      // Behind the taps that wait, never before them.
      event.preventDefault();
      if (entry) keep(settle(config, entry));
      render();
      return;
    }
    if (!entry) return;
    config.headers[KEY] = entry.id;
    config.timeout = TIMEOUT_MS;
    config.companionEntry = entry;
    config.companionFormState = formState(formOf(config.elt));
  });

  // A kept tap, or the sync check, failing: said by the queue, not by app.js's "Not saved".
  function unreachable(event) {
    const config = event.detail.requestConfig;
    if (!config) return;
    if (config.companionEntry) keep(settle(config, config.companionEntry));
    else if (!isLive(config)) return;
    config.companionQueue = true;
    offline = true;
    render();
  }
  document.addEventListener("htmx:sendError", unreachable);
  document.addEventListener("htmx:timeout", unreachable);

  // A 5xx for a tap sent at once: kept. A proxy's page is not swapped into the counter; the app's own fault says
  // its words in the bar, beside the taps that wait.
  document.addEventListener("htmx:beforeSwap", function (event) {
    const detail = event.detail;
    const config = detail.requestConfig;
    if (!config || !config.companionEntry || detail.xhr.status < 500) return;
    detail.shouldSwap = false;
    config.companionQueue = true;
    keep(settle(config, config.companionEntry));
    const words = faultWords(detail.xhr.status, detail.xhr.getResponseHeader("HX-Retarget"), detail.xhr.responseText);
    if (words) fault = words;
    else offline = true;
    render();
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    const config = event.detail.requestConfig;
    if (config && isLive(config)) {
      waiters.forEach(function (waiter) {
        if (waiter.xhrs.has(event.detail.xhr)) waiter.done(event.detail.successful);
      });
    }
    if (event.detail.successful && offline) {
      offline = false;
      render();
      flush();
    }
  });

  document.addEventListener("htmx:beforeSend", function (event) {
    const config = event.detail.requestConfig;
    if (config && isLive(config)) waiters.forEach((waiter) => waiter.xhrs.add(event.detail.xhr));
  });

  // The play drawn as it now stands: the tracker's own sync check, asked now (it is also asked every 400 ms). True
  // once a check sent from now on was answered; false when the app still can't be reached.
  function drawPlay() {
    return new Promise(function (resolve) {
      const waiter = { xhrs: new Set() };
      const timer = setTimeout(() => waiter.done(false), DRAW_WAIT_MS);
      waiter.done = function (ok) {
        clearTimeout(timer);
        waiters.delete(waiter);
        resolve(ok);
      };
      waiters.add(waiter);
      // htmx rejects its promise when the check can't be sent: the waiter hears that from the events already.
      htmx.ajax("GET", poll.getAttribute("hx-get"), { source: poll, swap: "none" }).catch(function () {});
    });
  }

  // Sending the queue -------------------------------------------------------------------------------------------

  function textOf(element) {
    const copy = element.cloneNode(true);
    copy.querySelectorAll("a").forEach((link) => link.remove());
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  // The server's words in an answer: the refusal the tracker would show in its bar, else its message.
  function wordsIn(html) {
    const page = new DOMParser().parseFromString(html || "", "text/html");
    for (const selector of ["#refusal", "[data-fault]", "[role=alert]", ".error"]) {
      for (const element of page.querySelectorAll(selector)) {
        const text = textOf(element);
        if (text) return text;
      }
    }
    return "";
  }

  function faultWords(status, retarget, body) {
    if (!retarget && AWAY.includes(status)) return null;
    return wordsIn(body) || SAY.status(status);
  }

  function csrfToken() {
    const field = tracker.querySelector("input[name=csrf_token]");
    return field ? field.value : "";
  }

  function body(entry) {
    const fields = new URLSearchParams(entry.fields);
    // The page's own token: the session may have a newer one than when the tap was kept.
    const token = csrfToken();
    if (token) fields.set("csrf_token", token);
    return fields;
  }

  function timeoutSignal() {
    if (AbortSignal.timeout) return AbortSignal.timeout(TIMEOUT_MS);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), TIMEOUT_MS);
    return controller.signal;
  }

  // One kept tap sent: "saved", "refused" (with the server's words), "fault" (kept, with them) or "unreachable".
  async function send(entry) {
    const headers = {
      "HX-Request": "true",
      [KEY]: entry.id,
      [AGE]: String(Math.min(Math.max(0, Date.now() - entry.made), AGE_MAX_MS)),
      "Content-Type": "application/x-www-form-urlencoded",
      "X-CSRF-Token": csrfToken(),
    };
    let response;
    let text = "";
    try {
      response = await fetch(entry.url, {
        method: "POST", headers, body: body(entry), credentials: "same-origin", cache: "no-store", signal: timeoutSignal(),
      });
      if (response.status >= 300) text = await response.text();
    } catch (lost) {
      return { kind: "unreachable" };
    }
    const status = response.status;
    if (status >= 200 && status < 300) {
      return response.headers.get("HX-Redirect") ? { kind: "refused", words: SAY.gone } : { kind: "saved" };
    }
    if (status >= 500) {
      const words = faultWords(status, response.headers.get("HX-Retarget"), text);
      return words ? { kind: "fault", words } : { kind: "unreachable" };
    }
    return { kind: "refused", words: wordsIn(text) || SAY.status(status) };
  }

  function settled(entry) {
    const queue = read();
    queue.entries = queue.entries.filter((e) => e.id !== entry.id);
    return queue;
  }

  // The queue sent, one tap at a time, after the play is drawn as it now stands; drawn again once done or stopped.
  async function flush() {
    const start = read();
    if (sending || !start.entries.length || start.refused) return;
    sending = true;
    let saved = 0;
    let stopped = false;
    try {
      if (!(await drawPlay())) {
        offline = true;
        return;
      }
      for (;;) {
        const queue = read();
        const entry = queue.entries[0];
        if (!entry || queue.refused) break;
        const answer = await send(entry);
        if (answer.kind === "unreachable") {
          offline = true;
          break;
        }
        if (answer.kind === "fault") {
          fault = answer.words;
          break;
        }
        fault = null;
        offline = false;
        const rest = settled(entry);
        if (answer.kind === "refused") {
          if (rest.entries.length) rest.refused = { label: entry.label, words: answer.words };
          write(rest);
          say({ saved, label: entry.label, words: answer.words });
          stopped = true;
          break;
        }
        write(rest);
        saved += 1;
        say({ saved });
      }
    } finally {
      sending = false;
      render();
    }
    if (saved || stopped) await drawPlay();
  }

  // The player's choice after a refusal -------------------------------------------------------------------------

  function sendRest() {
    const queue = read();
    queue.refused = null;
    write(queue);
    clearSaid();
    render();
    flush();
  }

  function dropRest() {
    const queue = read();
    const dropped = queue.entries.length;
    write({ entries: [], refused: null });
    say({ dropped });
    render();
    drawPlay();
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-queue-send]")) sendRest();
    else if (event.target.closest("[data-queue-drop]")) dropRest();
  });

  // What the player sees ----------------------------------------------------------------------------------------

  function say(what) {
    clearTimeout(saidTimer);
    said = what;
    if (!what.words) {
      saidTimer = setTimeout(function () {
        said = null;
        render();
      }, SAID_MS);
    }
    render();
  }

  function clearSaid() {
    clearTimeout(saidTimer);
    said = null;
  }

  function message(queue) {
    const n = queue.entries.length;
    const parts = [];
    if (said && said.saved) parts.push(SAY.saved(said.saved));
    if (queue.refused && n) {
      return { tone: "refused", text: [...parts, SAY.refused(queue.refused.label, queue.refused.words), SAY.rest(n)] };
    }
    if (n) {
      const why = fault || (offline ? (kept ? SAY.kept : SAY.unreachable) : "");
      return { tone: fault ? "fault" : "waiting", text: [...parts, SAY.waiting(n), why] };
    }
    if (said && said.words) return { tone: "refused", text: [...parts, SAY.refused(said.label, said.words)] };
    if (said && said.dropped) return { tone: "saved", text: [SAY.dropped(said.dropped)] };
    if (said) return { tone: "saved", text: parts };
    if (offline) return { tone: "waiting", text: [kept ? SAY.kept : SAY.offline] };
    return null;
  }

  // The bar's message, in #flash (the live region): only replaced when it says something new, so it is heard once.
  function showMessage(queue) {
    const flash = document.getElementById("flash");
    if (!flash) return;
    const own = flash.querySelector("[data-queue]");
    const shown = message(queue);
    if (!shown) {
      if (own) flash.replaceChildren();
      return;
    }
    const text = shown.text.filter(Boolean).join(" ");
    if (own && own.dataset.queue === shown.tone && own.textContent === text) return;
    const line = document.createElement("p");
    line.id = "queue-status";
    line.className = "queue-status";
    line.dataset.queue = shown.tone;
    if (shown.tone === "refused" || shown.tone === "fault") line.setAttribute("role", "alert");
    line.textContent = text;
    flash.replaceChildren(line);
    delete flash.dataset.offline;
  }

  function markTarget(mark) {
    if (mark.id) return document.getElementById(mark.id);
    return Array.from(tracker.querySelectorAll("form")).find(function (form) {
      const slot = form.querySelector("input[name=slot], input[name=action]");
      return form.getAttribute("action") === mark.action && (slot ? slot.value : "") === mark.slot;
    }) || null;
  }

  // Each waiting change marked on its form (a badge and an outline, never a value the rules have not checked).
  function showMarks(entries) {
    const counts = new Map();
    entries.forEach(function (entry) {
      const target = entry.mark ? markTarget(entry.mark) : null;
      if (target) counts.set(target, (counts.get(target) || 0) + 1);
    });
    tracker.querySelectorAll(".queued").forEach(function (element) {
      if (counts.has(element)) return;
      element.classList.remove("queued");
      delete element.dataset.queued;
    });
    counts.forEach(function (n, element) {
      element.classList.add("queued");
      element.dataset.queued = SAY.badge(n);
    });
  }

  // No Finish while taps wait: the result would be scored without them.
  function holdFinish(n) {
    const button = document.querySelector("#finish button[type=submit]");
    if (!button) return;
    if (n) {
      button.disabled = true;
      button.dataset.queueHeld = SAY.finishWaits;
      button.setAttribute("aria-describedby", "queue-status");
    } else if (button.dataset.queueHeld) {
      button.disabled = false;
      delete button.dataset.queueHeld;
      button.removeAttribute("aria-describedby");
    }
  }

  // A waiting tap may be taken back like any other: the server's newest action is that tap once it is sent.
  function openUndo(entries) {
    const button = document.getElementById("undo-button");
    if (button && entries.some((entry) => entry.kind !== "undo")) button.disabled = false;
  }

  function showChoice(queue) {
    let panel = document.getElementById("queue-choice");
    if (!(queue.refused && queue.entries.length)) {
      if (panel) panel.hidden = true;
      return;
    }
    if (!panel) {
      panel = document.createElement("div");
      panel.id = "queue-choice";
      panel.className = "queue-choice";
      panel.setAttribute("role", "group");
      panel.setAttribute("aria-label", SAY.choice);
      panel.setAttribute("aria-describedby", "queue-status");
      panel.append(choiceButton(SAY.sendRest, "queueSend", "button primary"), choiceButton(SAY.dropRest, "queueDrop", "button"));
      (document.getElementById("tracker-bar") || tracker).append(panel);
    }
    panel.hidden = false;
  }

  function choiceButton(text, flag, className) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = className;
    button.dataset[flag] = "";
    button.textContent = text;
    return button;
  }

  function render() {
    const queue = read();
    showMessage(queue);
    showMarks(queue.entries);
    holdFinish(queue.entries.length);
    openUndo(queue.entries);
    showChoice(queue);
  }

  // When to send ------------------------------------------------------------------------------------------------

  // Answers redraw the undo button, Speros's board and a refused Finish: the marks and holds go back on, once per
  // answer however many pieces it swapped.
  let renderAsked = false;
  function renderSoon() {
    if (renderAsked) return;
    renderAsked = true;
    queueMicrotask(function () {
      renderAsked = false;
      render();
    });
  }
  document.addEventListener("htmx:afterSettle", renderSoon);
  document.addEventListener("htmx:oobAfterSwap", renderSoon);
  window.addEventListener("online", flush);
  window.addEventListener("offline", function () {
    offline = true;
    render();
  });
  // Another tab of the same play kept or sent a tap.
  window.addEventListener("storage", function (event) {
    if (event.key === storeKey) render();
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) flush();
  });
  setInterval(function () {
    if (!sending) flush();
  }, RETRY_MS);

  render();
  // After htmx has set the page up (its own DOMContentLoaded handler comes first): taps kept before a reload go now.
  document.addEventListener("DOMContentLoaded", flush);
})();
