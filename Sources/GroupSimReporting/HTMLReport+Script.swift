/// The time slider's script: plain JavaScript with no library, run from the page itself.
///
/// A player: it reads the JSON list `HTMLReport+Timeline.swift` embeds and plays the
/// screen changes Swift worked out for each event (`ScreenReplay`): lines set, inserted or
/// removed, drafts, the extension's style. It draws lines from the message table and
/// derives no rule itself. Playing keeps a copy of the screens every 256 events, so
/// moving the cursor back is cheap.
/// A page may hold several runs (a lesson's broken and fixed designs): each embeds its
/// events in a script whose id is `PREFIXtimeline-data`, PREFIX starting its ids, and
/// gets its own slider. `window.groupsimTimelines[k].seek(i)` moves run k's cursor to event `i` (what
/// the browser check calls), `.count` is its number of events; `window.groupsimTimeline`
/// is the first run's.
extension HTMLReport {
    static let timelineScript = #"""
    (function () {
      "use strict";
      var timelines = [], active = null;
      var sources = document.querySelectorAll('script[type="application/json"][id$="timeline-data"]');
      for (var s = 0; s < sources.length; s++) {
        var made = setup(sources[s], sources[s].id.slice(0, sources[s].id.length - "timeline-data".length));
        if (made) { timelines.push(made); }
      }
      if (timelines.length === 0) { return; }
      // ← and → step through the events from anywhere on the page but a field or a slider
      // (which moves by itself), Home and End jump to the ends: of the run last used.
      document.addEventListener("keydown", function (event) {
        var target = event.target;
        if (event.altKey || event.ctrlKey || event.metaKey) { return; }
        if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) { return; }
        (active || timelines[0]).key(event);
      });
      window.groupsimTimelines = timelines.map(function (t) { return t.api; });
      window.groupsimTimeline = window.groupsimTimelines[0];

    function setup(source, prefix) {
      function byId(name) { return document.getElementById(prefix + name); }
      var nav = byId("scrubber");
      if (!nav) { return null; }
      var data = JSON.parse(source.textContent);
      var events = data.events, count = events.length;
      if (count === 0) { return null; }
      var messages = {};
      data.messages.forEach(function (m) { messages[m.id] = m; });
      var range = byId("scrub-range");
      var say = byId("scrub-say");
      var moment = byId("scrub-moment");
      var timeOut = byId("scrub-time");
      var playButton = byId("scrub-play");
      var transcripts = byId("transcripts");
      var cards = transcripts ? transcripts.querySelectorAll(".device-transcript") : [];
      var heading = transcripts ? transcripts.querySelector("h2") : null;
      var flowSection = byId("flow");
      var svg = flowSection ? flowSection.querySelector("svg.flow") : null;
      var svgNS = "http://www.w3.org/2000/svg";

      function fresh() {
        return data.devices.map(function () {
          return { lines: data.conversations.map(function () { return []; }),
                   drafts: data.conversations.map(function () { return null; }), open: null };
        });
      }
      function copy(screens) { return JSON.parse(JSON.stringify(screens)); }

      function apply(screens, e) {
        var screen = screens[e.d];
        if (!screen) { return; }
        (e.lines || []).forEach(function (c) {
          var lines = screen.lines[c[0]];
          if (c.length === 2) { lines.splice(c[1], 1); } else { lines.splice(c[1], c[2] === "i" ? 0 : 1, c.slice(3)); }
        });
        if (e.drafts) { screen.drafts = e.drafts.slice(); }
        if ("open" in e) { screen.open = e.open; }
      }

      // Playing: the screens after event `at`, with a copy kept every 256 events.
      var checkpoints = [], screens = fresh(), at = -1;
      function walkTo(target) {
        if (target < at) {
          var back = Math.floor((target + 1) / 256) - 1;
          while (back >= 0 && !checkpoints[back]) { back--; }
          screens = back >= 0 ? copy(checkpoints[back]) : fresh();
          at = back >= 0 ? (back + 1) * 256 - 1 : -1;
        }
        while (at < target) {
          at++;
          apply(screens, events[at]);
          if ((at + 1) % 256 === 0 && !checkpoints[(at + 1) / 256 - 1]) { checkpoints[(at + 1) / 256 - 1] = copy(screens); }
        }
      }

      // Drawing a screen as the page draws the final transcripts, with the live bubbles marked.
      function el(tag, cls, text) {
        var node = document.createElement(tag);
        if (cls) { node.className = cls; }
        if (text !== undefined && text !== null) { node.textContent = text; }
        return node;
      }
      function meta(m, extra) {
        var node = el("div", "meta");
        node.appendChild(el("span", "id", "m" + m.id));
        node.appendChild(document.createTextNode(" " + m.name));
        if (extra) { node.appendChild(document.createTextNode(extra)); }
        return node;
      }
      // A frame is [message, kind, extra]: extra is 1 for a live bubble, a plain line's index.
      function drawLine(frame, device) {
        var m = messages[frame[0]], kind = frame[1], live = kind === "bubble" && frame[2] === 1;
        var side = m.person === device.person ? "mine" : "theirs";
        if (kind === "summary") {
          var summary = el("div", "summary", m.summary);
          summary.title = "m" + m.id + ", collapsed (M10)";
          return summary;
        }
        if (kind !== "bubble") {
          var extra = kind === "sticker" ? " · sticker" : kind === "plain" ? " · plain (M26)" : "";
          var box = el("div", "bubble " + (kind === "text" ? "text " : kind + " ") + side);
          box.appendChild(meta(m, extra));
          box.appendChild(el("div", "caption", kind === "plain" ? m.plain[frame[2]] : m.text));
          return box;
        }
        var bubble = el("div", "bubble " + side + (live ? " live" : ""));
        var head = meta(m);
        if (m.session !== null) {
          head.appendChild(document.createTextNode(" · "));
          head.appendChild(el("span", "session", m.session));
        }
        bubble.appendChild(head);
        bubble.appendChild(el("div", "caption", m.text === null ? "(no caption)" : m.text));
        if (m.sub !== null) { bubble.appendChild(el("div", "subcaption", m.sub)); }
        if (m.state && m.state.length) {
          var state = el("div", "state");
          m.state.forEach(function (pair, index) {
            if (index > 0) { state.appendChild(document.createTextNode(" ")); }
            state.appendChild(el("span", "key", pair[0]));
            state.appendChild(document.createTextNode("=" + pair[1]));
          });
          bubble.appendChild(state);
        } else if (m.url !== null) {
          bubble.appendChild(el("div", "state", "url " + m.url));
        } else {
          bubble.appendChild(el("div", "state none", "no URL"));
        }
        if (live) {
          var what = m.state && m.state.length ? m.state.map(function (p) { return p[0] + "=" + p[1]; }).join(" ") : "no state";
          bubble.appendChild(el("div", "tap", device.app
            ? "live bubble of " + m.session + ": a tap opens the extension on m" + m.id + " (" + what + ")"
            : "live bubble of " + m.session));
        }
        return bubble;
      }
      function drawScreen(card, screen, device) {
        var view = card.querySelector(".screen");
        if (!view) { return; }
        view.textContent = "";
        var now = card.querySelector(".now");
        if (!now) { now = el("p", "now"); view.parentNode.insertBefore(now, view); }
        var status = device.app ? (screen.open ? "extension open, " + screen.open : "extension closed") : "no extension here";
        var drafts = screen.drafts.filter(function (d) { return d !== null; });
        now.textContent = status + (drafts.length ? " · draft in the input field: " + drafts.join("; ") : "");
        data.conversations.forEach(function (conversation, slot) {
          if (data.several) { view.appendChild(el("p", "conversation", conversation)); }
          var lines = screen.lines[slot];
          if (lines.length === 0) { view.appendChild(el("p", "empty", "(nothing yet)")); }
          lines.forEach(function (frame) { view.appendChild(drawLine(frame, device)); });
        });
      }

      // The instant on the message flow: a line across the lanes, the copies in flight drawn over.
      var overlay = null;
      function rowY(t) {
        var rows = data.rows;
        if (rows.length === 0) { return 0; }
        if (t <= rows[0][0]) { return rows[0][1]; }
        for (var i = 1; i < rows.length; i++) {
          if (t <= rows[i][0]) {
            var a = rows[i - 1], b = rows[i];
            return a[1] + (b[1] - a[1]) * (t - a[0]) / (b[0] - a[0]);
          }
        }
        return rows[rows.length - 1][1];
      }
      function svgEl(tag, attrs) {
        var node = document.createElementNS(svgNS, tag);
        Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
        return node;
      }
      function drawCursor(index) {
        if (!svg) { return; }
        if (overlay) { overlay.remove(); }
        overlay = svgEl("g", { "class": "cursor" });
        var e = events[index], y = rowY(e.t);
        overlay.appendChild(svgEl("line", { x1: 0, y1: y, x2: data.width, y2: y, "class": "now-line" }));
        var label = svgEl("text", { x: 4, y: y - 4, "class": "now-label" });
        label.textContent = e.at;
        overlay.appendChild(label);
        data.copies.forEach(function (c) {
          if (c[5] > index || c[6] <= index) { return; }
          var group = svgEl("g", { "class": "inflight" });
          group.appendChild(svgEl("line", { x1: c[1], y1: c[2], x2: c[3], y2: c[4], stroke: c[9] }));
          var part = c[8] > c[7] ? Math.min(1, Math.max(0, (e.t - c[7]) / (c[8] - c[7]))) : 0;
          group.appendChild(svgEl("circle", { cx: c[1] + (c[3] - c[1]) * part, cy: c[2] + (c[4] - c[2]) * part, r: 5, fill: c[9] }));
          var title = svgEl("title", {});
          title.textContent = "m" + c[0] + " in flight";
          group.appendChild(title);
          overlay.appendChild(group);
        });
        svg.appendChild(overlay);
      }

      function ruleLink(rule) {
        var link = el("a", "rule-link", rule);
        link.href = data.rules + "#" + rule.toLowerCase();
        link.title = "rule " + rule + " in " + data.rules;
        return link;
      }

      var current = count - 1;
      function show(index) {
        index = Math.max(0, Math.min(count - 1, index));
        current = index;
        range.value = String(index);
        walkTo(index);
        var e = events[index];
        timeOut.textContent = e.at + " · event " + (index + 1) + " of " + count;
        say.textContent = "";
        say.appendChild(el("b", null, e.at + ": "));
        say.appendChild(document.createTextNode(e.say + " "));
        if (e.rule) { say.appendChild(ruleLink(e.rule)); }
        if (e.moment) {
          moment.hidden = false;
          moment.textContent = e.moment + " ";
          var why = el("a", null, "Why, and the fix");
          why.href = "#" + prefix + "pitfall-" + (e.pitfall + 1);
          moment.appendChild(why);
        } else {
          moment.hidden = true;
          moment.textContent = "";
        }
        if (heading) { heading.textContent = "What each device shows at " + e.at + \#
    (index === count - 1 ? ", the end" : " (after event " + (index + 1) + " of " + count + ")"); }
        for (var d = 0; d < cards.length && d < data.devices.length; d++) { drawScreen(cards[d], screens[d], data.devices[d]); }
        drawCursor(index);
      }

      // Playing: one event after another, the pause growing with the virtual time between them.
      var timer = null;
      function stop() {
        if (timer !== null) { clearTimeout(timer); timer = null; }
        playButton.textContent = "▶ play";
        playButton.setAttribute("aria-label", "play");
      }
      function tick() {
        if (current >= count - 1) { stop(); return; }
        var gap = (events[current + 1].t - events[current].t) / 1e6;
        show(current + 1);
        timer = setTimeout(tick, Math.max(180, Math.min(1600, 180 + gap * 40)));
      }
      playButton.addEventListener("click", function () {
        if (timer !== null) { stop(); return; }
        if (current >= count - 1) { show(0); }
        playButton.textContent = "❚❚ pause";
        playButton.setAttribute("aria-label", "pause");
        timer = setTimeout(tick, 200);
      });
      var me = {};
      function use() { active = me; }
      nav.addEventListener("click", use);
      range.addEventListener("input", function () { use(); stop(); show(Number(range.value)); });
      byId("scrub-prev").addEventListener("click", function () { stop(); show(current - 1); });
      byId("scrub-next").addEventListener("click", function () { stop(); show(current + 1); });
      byId("scrub-first").addEventListener("click", function () { stop(); show(0); });
      byId("scrub-last").addEventListener("click", function () { stop(); show(count - 1); });
      me.key = function (event) {
        if (event.target === range) { return; }
        var moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: count - 1 };
        if (!(event.key in moves)) { return; }
        event.preventDefault();
        stop();
        show(moves[event.key]);
      };
      nav.hidden = false;
      me.api = { count: count, seek: function (index) { stop(); show(index); }, devices: data.devices, prefix: prefix };
      return me;
    }
    }());
    """#
}
