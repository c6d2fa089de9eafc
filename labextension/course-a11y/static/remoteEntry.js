/* The course's accessibility enhancer (issue 27), for the course's widgets in JupyterLab and in the static site.
 *
 * Why a script: ipywidgets lets Python set a widget's classes, never its ARIA attributes, and its Play control is
 * two buttons holding only an icon (no accessible name); a live region must be an element that stays in the page
 * while its text changes, and a widget's HTML is replaced whole at every change. So the course's Python writes the
 * words (translated) into each stepping widget, hidden, and this script puts them where assistive technology reads
 * them:
 *   - Play's buttons get names ("Play", "Stop: back to step 0", from the widget's .course-word-* spans) and
 *     aria-pressed while playing; their icons are hidden from screen readers;
 *   - a slider's handle and its editable read-out get the slider's name (its label's words, else its tooltip:
 *     ipywidgets names neither), and a dropdown keeps its arrow keys (JupyterLab's notebook shortcuts take ↑/↓ from
 *     any element that is not :read-write, which a <select> is not; data-lm-suppress-shortcuts gives them back);
 *   - each stepping widget's .course-live element (role="status": polite, atomic) says the step shown, from the
 *     hidden .course-said text of its visible step frames, once the step has stayed for a moment (a slider dragged
 *     across ten steps says the last), and not while Play runs: when Play stops, it says where it stopped.
 * Nothing here reads or runs what a page or a student wrote: it copies text between elements the course made.
 *
 * One file, two loaders: JupyterLab 4 loads it as a federated extension (package.json's _build.load; the container
 * below is what JupyterLab's loader calls: init(), then get("./extension") gives the plugin), and the static site
 * loads it with a <script> tag. Either way it starts at once; start() is idempotent.
 */
(function () {
  "use strict";
  var ROOT = '[class*="course-ui-"]';
  var QUIET_MS = 300; // a step is said once it has been shown this long (a dragged slider says only its last step)
  var seen = new WeakMap(); // widget root -> {last: text said or skipped, playing: bool, timer}
  var pending = new Set();
  var frame = null;

  function words(root, kind) {
    var el = root.querySelector(".course-word-" + kind);
    return el ? el.textContent : "";
  }

  function shown(el) { // false inside a hidden Stack child, a collapsed box or display:none
    return !!el && el.getClientRects().length > 0;
  }

  function said(root) {
    var parts = [];
    root.querySelectorAll(".course-said").forEach(function (s) {
      if (shown(s.parentElement)) { parts.push(s.textContent); }
    });
    return parts.join(" — ");
  }

  function isPlaying(root) {
    return !!root.querySelector(".widget-play .fa-pause");
  }

  function namePlay(root) {
    root.querySelectorAll(".widget-play").forEach(function (play) {
      var buttons = play.querySelectorAll("button");
      var names = [words(root, "play"), words(root, "stop"), words(root, "repeat")];
      buttons.forEach(function (b, k) {
        if (names[k] && b.getAttribute("aria-label") !== names[k]) { b.setAttribute("aria-label", names[k]); }
        b.querySelectorAll("i").forEach(function (i) { i.setAttribute("aria-hidden", "true"); });
      });
      if (buttons[0]) {
        var pressed = String(!!play.querySelector(".fa-pause"));
        if (buttons[0].getAttribute("aria-pressed") !== pressed) { buttons[0].setAttribute("aria-pressed", pressed); }
      }
    });
  }

  function set(el, name, value) {
    if (el.getAttribute(name) !== value) { el.setAttribute(name, value); }
  }

  function nameControls(root) {
    root.querySelectorAll(".widget-slider, .widget-hslider, .widget-vslider").forEach(function (row) {
      var label = row.querySelector(".widget-label");
      var name = label ? (label.textContent.trim() || label.getAttribute("title") || "") : "";
      if (!name) { return; }
      row.querySelectorAll(".noUi-handle").forEach(function (h) { set(h, "aria-label", name); });
      row.querySelectorAll(".widget-readout").forEach(function (r) {
        set(r, "role", "textbox");
        set(r, "aria-label", name);
      });
    });
    root.querySelectorAll("select").forEach(function (s) { set(s, "data-lm-suppress-shortcuts", "true"); });
  }

  function announce(root) {
    var live = root.querySelector(".course-live");
    if (!live) { return; }
    var st = seen.get(root);
    var now = said(root);
    if (!st) { // the step shown when the widget appears is not news
      seen.set(root, {last: now, playing: isPlaying(root), timer: null});
      return;
    }
    if (isPlaying(root)) { st.playing = true; clearTimeout(st.timer); return; }
    if (now === st.last && !st.playing) { return; }
    clearTimeout(st.timer);
    st.timer = setTimeout(function () {
      if (isPlaying(root)) { return; }
      var text = said(root);
      st.last = text;
      st.playing = false;
      live.textContent = text;
    }, QUIET_MS);
  }

  function enhance(root) {
    namePlay(root);
    nameControls(root);
    announce(root);
  }

  function flush() {
    frame = null;
    pending.forEach(function (root) { if (root.isConnected) { enhance(root); } });
    pending.clear();
  }

  function note(node) {
    var el = node && (node.nodeType === 1 ? node : node.parentElement);
    var root = el && el.closest(ROOT);
    if (root) {
      pending.add(root);
      if (frame === null) { frame = requestAnimationFrame(flush); }
    }
  }

  function start() {
    if (window.__courseA11y || !document.body) { return; }
    window.__courseA11y = new MutationObserver(function (records) {
      records.forEach(function (r) {
        note(r.target);
        r.addedNodes.forEach(function (n) { if (n.nodeType === 1 && n.querySelector) {
          if (n.matches(ROOT)) { note(n); }
          n.querySelectorAll(ROOT).forEach(note);
        } });
      });
    });
    window.__courseA11y.observe(document.body, {childList: true, subtree: true, attributes: true,
                                                attributeFilter: ["class"]});
    document.querySelectorAll(ROOT).forEach(note);
  }

  window.courseA11y = {start: start, said: said};
  if (document.body) { start(); } else { document.addEventListener("DOMContentLoaded", start); }

  var plugin = {id: "course-a11y:plugin", autoStart: true, activate: start};
  window._JUPYTERLAB = window._JUPYTERLAB || {};
  window._JUPYTERLAB["course-a11y"] = {
    init: function () { return Promise.resolve(); },
    get: function () { return Promise.resolve(function () { return {__esModule: true, "default": plugin}; }); }
  };
})();
