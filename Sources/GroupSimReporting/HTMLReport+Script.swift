/// The time slider's script: plain JavaScript with no library, run from the page itself.
///
/// It reads the JSON list `HTMLReport+Timeline.swift` embeds and walks it as
/// `ScreenReplay.apply` does: a message sent or delivered adds its line to the device's
/// transcript (a bubble, a text, a sticker, or on an old system its plain lines, M26), a
/// collapse turns the session's old bubble into its summary line or removes it (M10), the
/// input field's draft follows staging, cancelling and sending (M16, M17), the extension
/// is open after `didBecomeActive` in the style the step asked for (M19, M24). Walking
/// keeps a copy of the state every 256 events, so moving the cursor back is cheap.
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
        return {
          screens: data.devices.map(function () {
            return { lines: data.conversations.map(function () { return []; }),
                     drafts: data.conversations.map(function () { return null; }), open: null };
          }),
          steps: data.devices.map(function () { return null; })
        };
      }
      function copy(state) { return JSON.parse(JSON.stringify(state)); }

      function add(screen, d, id) {
        var m = messages[id];
        if (!m) { return; }
        var lines = screen.lines[m.c];
        var line = { kind: "text", m: id, session: m.session, person: m.person, name: m.name,
                     text: m.text, sub: null, state: null, url: null };
        if (m.kind === "app") {
          if (data.devices[d].ios9) {
            m.plain.forEach(function (text) {
              var plain = Object.assign({}, line); plain.kind = "plain"; plain.text = text; lines.push(plain);
            });
            return;
          }
          line.kind = "bubble"; line.sub = m.sub; line.state = m.state; line.url = m.url;
        } else {
          line.kind = m.kind;
        }
        lines.push(line);
      }

      function styleOf(step) {
        if (step && step.a === "open") { return step.style; }
        if (step && step.a === "tap") { return "expanded"; }
        return "compact";
      }

      function apply(state, e) {
        var d = e.d;
        if (d < 0 || d >= state.screens.length) { return; }
        var screen = state.screens[d], step = state.steps[d];
        var slot = step ? step.c : 0;
        switch (e.k) {
        case "step": state.steps[d] = { c: e.c, a: e.a, style: e.style }; break;
        case "delivered": state.steps[d] = null; add(screen, d, e.m); break;
        case "sent":
          add(screen, d, e.m);
          if (e.field && messages[e.m]) { screen.drafts[messages[e.m].c] = null; }
          break;
        case "collapsed":
          var m = messages[e.m];
          if (!m) { break; }
          var lines = screen.lines[m.c];
          for (var i = lines.length - 1; i >= 0; i--) {
            if (lines[i].m === e.m && lines[i].kind === "bubble") {
              if (e.summary) {
                lines[i] = { kind: "summary", m: e.m, session: m.session, person: m.person, name: m.name, text: m.summary };
              } else {
                lines.splice(i, 1);
              }
              break;
            }
          }
          break;
        case "staged": screen.drafts[slot] = e.draft; break;
        case "cancelled": screen.drafts[slot] = null; break;
        case "reinstalled":
          screen.drafts = screen.drafts.map(function () { return null; }); screen.open = null; break;
        case "callback":
          if (e.cb === "didBecomeActive" || e.cb === "didTransition") { screen.open = styleOf(step); }
          if (e.cb === "didResignActive") { screen.open = null; }
          break;
        case "cloudAnswer": state.steps[d] = null; break;
        }
      }

      // Walking: the state after event `at`, with a copy kept every 256 events.
      var checkpoints = [], state = fresh(), at = -1;
      function walkTo(target) {
        if (target < at) {
          var back = Math.floor((target + 1) / 256) - 1;
          while (back >= 0 && !checkpoints[back]) { back--; }
          state = back >= 0 ? copy(checkpoints[back]) : fresh();
          at = back >= 0 ? (back + 1) * 256 - 1 : -1;
        }
        while (at < target) {
          at++;
          apply(state, events[at]);
          if ((at + 1) % 256 === 0 && !checkpoints[(at + 1) / 256 - 1]) { checkpoints[(at + 1) / 256 - 1] = copy(state); }
        }
      }

      // Drawing a screen as the page draws the final transcripts, with the live bubbles marked.
      function el(tag, cls, text) {
        var node = document.createElement(tag);
        if (cls) { node.className = cls; }
        if (text !== undefined && text !== null) { node.textContent = text; }
        return node;
      }
      function meta(line, extra) {
        var node = el("div", "meta");
        node.appendChild(el("span", "id", "m" + line.m));
        node.appendChild(document.createTextNode(" " + line.name));
        if (extra) { node.appendChild(document.createTextNode(extra)); }
        return node;
      }
      function drawLine(line, device, live) {
        var side = line.person === device.person ? "mine" : "theirs";
        if (line.kind === "summary") {
          var summary = el("div", "summary", line.text);
          summary.title = "m" + line.m + ", collapsed (M10)";
          return summary;
        }
        if (line.kind !== "bubble") {
          var extra = line.kind === "sticker" ? " · sticker" : line.kind === "plain" ? " · plain (M26)" : "";
          var box = el("div", "bubble " + (line.kind === "text" ? "text " : line.kind + " ") + side);
          box.appendChild(meta(line, extra));
          box.appendChild(el("div", "caption", line.text));
          return box;
        }
        var bubble = el("div", "bubble " + side + (live ? " live" : ""));
        var head = meta(line);
        if (line.session !== null) {
          head.appendChild(document.createTextNode(" · "));
          head.appendChild(el("span", "session", line.session));
        }
        bubble.appendChild(head);
        bubble.appendChild(el("div", "caption", line.text === null ? "(no caption)" : line.text));
        if (line.sub !== null) { bubble.appendChild(el("div", "subcaption", line.sub)); }
        if (line.state && line.state.length) {
          var state = el("div", "state");
          line.state.forEach(function (pair, index) {
            if (index > 0) { state.appendChild(document.createTextNode(" ")); }
            state.appendChild(el("span", "key", pair[0]));
            state.appendChild(document.createTextNode("=" + pair[1]));
          });
          bubble.appendChild(state);
        } else if (line.url !== null) {
          bubble.appendChild(el("div", "state", "url " + line.url));
        } else {
          bubble.appendChild(el("div", "state none", "no URL"));
        }
        if (live) {
          var what = line.state && line.state.length ? line.state.map(function (p) { return p[0] + "=" + p[1]; }).join(" ") : "no state";
          bubble.appendChild(el("div", "tap", device.app
            ? "live bubble of " + line.session + ": a tap opens the extension on m" + line.m + " (" + what + ")"
            : "live bubble of " + line.session));
        }
        return bubble;
      }
      // Of each session's summary lines only the last few are drawn (M14).
      function drawn(lines) {
        var remaining = {}, shown = [];
        for (var i = lines.length - 1; i >= 0; i--) {
          var line = lines[i], keep = true;
          if (line.kind === "summary" && line.session !== null) {
            var left = line.session in remaining ? remaining[line.session] : data.summaryLines;
            keep = left > 0; remaining[line.session] = left - 1;
          }
          if (keep) { shown.unshift(line); }
        }
        return shown;
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
          var lines = drawn(screen.lines[slot]);
          if (lines.length === 0) { view.appendChild(el("p", "empty", "(nothing yet)")); }
          // The live bubble of a session is its newest: an older one is about to collapse (M10).
          var newest = {};
          lines.forEach(function (line, index) { if (line.kind === "bubble" && line.session !== null) { newest[line.session] = index; } });
          lines.forEach(function (line, index) {
            view.appendChild(drawLine(line, device, line.kind === "bubble" && line.session !== null && newest[line.session] === index));
          });
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
        for (var d = 0; d < cards.length && d < data.devices.length; d++) { drawScreen(cards[d], state.screens[d], data.devices[d]); }
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
