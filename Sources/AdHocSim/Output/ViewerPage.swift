/// `view.html`: one self-contained page that plays a run's `timeline.jsonl` back (no external
/// scripts, fonts or network; SVG for the phones, a canvas for sessions, frames and pulses).
///
/// It shows the phones at their positions over time, coloured by state (up, failed, joined
/// late, not yet joined); sessions as lines; message frames and their route returns hop by hop
/// as they leave each phone; a light pulse per heartbeat; the selected phone's route table; a
/// message list whose entries draw that message's every hop (retries in orange); for flows the
/// probe RTTs and the bytes delivered over time; a time slider, play/pause, speed and a legend,
/// the place's name, a scale bar and the one-hop range circle on hover. `#t=SECONDS` in the
/// address opens the page paused at that time (`&node=ID` selects a phone, `&msg=K` the K-th
/// message). Big runs stay usable: the canvas draws at most
/// a few thousand items per frame, newest first.
public enum ViewerPage {
    /// The page for `timeline` (the text of a `timeline.jsonl`).
    public static func html(timeline: String) -> String {
        let lines = timeline.split(separator: "\n", omittingEmptySubsequences: true)
        // The records as one JSON array inside a script element: "<" is escaped so no string
        // in the data can close the element.
        let data = "[" + lines.joined(separator: ",\n") + "]"
        let safe = data.replacingOccurrences(of: "<", with: "\\u003c")
        // The page's own two scripts carry a nonce; the Content-Security-Policy runs only
        // scripts with it, so no inline event handler (`onerror=` in a tampered value) ever
        // runs, and forbids every network access (`default-src 'none'`). The nonce is derived
        // from the timeline, so the same run gives the same page bytes.
        var hash = StableHash()
        hash.combine(timeline)
        let nonce = hash.hex
        let policy =
            "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'unsafe-inline'; img-src data:; "
            + "base-uri 'none'; form-action 'none'"
        let page = head.replacingOccurrences(
            of: "<meta charset=\"utf-8\">",
            with: "<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"\(policy)\">")
        return (page + "<script type=\"application/json\" id=\"timeline\">" + safe + "</script>\n" + script + tail)
            .replacingOccurrences(of: "<script>", with: "<script nonce=\"\(nonce)\">")
    }

    static let head = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>AdHocSim run</title>
        <style>
        body { font: 13px system-ui, sans-serif; margin: 0; color: #222; background: #fafafa; }
        header { padding: 6px 12px; background: #263238; color: #fff; }
        header b { font-size: 15px; }
        #main { display: flex; gap: 10px; padding: 8px; }
        #stage { position: relative; width: 820px; height: 620px; background: #fff; border: 1px solid #ccc; flex: none; }
        #stage canvas, #stage svg { position: absolute; left: 0; top: 0; }
        #side { flex: 1; min-width: 260px; max-height: 700px; overflow: auto; }
        #controls { padding: 4px 8px; display: flex; gap: 8px; align-items: center; }
        #slider { flex: 1; }
        .node { cursor: pointer; stroke: #fff; stroke-width: 1; }
        .panel { background: #fff; border: 1px solid #ccc; margin-bottom: 8px; padding: 6px; }
        .panel h3 { margin: 0 0 4px 0; font-size: 13px; }
        .msgs { max-height: 260px; overflow: auto; position: relative; }
        .msgs div { cursor: pointer; padding: 1px 2px; }
        .msgs div:hover, .msgs div.sel { background: #e3f2fd; }
        table { border-collapse: collapse; } td { padding: 0 6px 0 0; vertical-align: top; }
        .legend span { display: inline-block; margin-right: 10px; }
        .sw { display: inline-block; width: 10px; height: 10px; border-radius: 5px; vertical-align: middle; margin-right: 3px; }
        </style>
        </head>
        <body data-ready="no" data-errors="0">
        <script>
        // Errors are counted on the page (data-errors) so a headless browser can check them.
        function countError() { document.body.dataset.errors = String(Number(document.body.dataset.errors) + 1); }
        window.addEventListener('error', countError);
        var consoleError = console.error;
        console.error = function () { countError(); consoleError.apply(console, arguments); };
        </script>
        <header><b id="title"></b> <span id="subtitle"></span></header>
        <div id="controls">
          <button id="play">Play</button>
          <label>speed <select id="speed">
            <option value="0.1">0.1×</option><option value="1" selected>1×</option>
            <option value="10">10×</option><option value="100">100×</option></select></label>
          <input id="slider" type="range" min="0" max="1000" step="1" value="0">
          <span id="clock">0.000 s</span>
        </div>
        <div id="main">
          <div id="stage"><canvas id="canvas" width="820" height="620"></canvas><svg id="svg" width="820" height="620"></svg></div>
          <div id="side">
            <div class="panel legend" id="legend"></div>
            <div class="panel"><h3>Selected phone</h3><div id="routes">Click a phone to see its route table.</div></div>
            <div class="panel" id="flowpanel" style="display:none"><h3>Flows</h3><div id="flows"></div></div>
            <div class="panel" id="msgpanel" style="display:none"><h3>Messages</h3><div class="msgs" id="msgs"></div></div>
          </div>
        </div>

        """#

    static let script = #"""
        <script>
        (function () {
        'use strict';
        var T = JSON.parse(document.getElementById('timeline').textContent);
        var H = T[0];
        var N = H.nodes.length;
        var by = { pos: [], session: [], hb: [], hop: [], route: [], progress: [], rtt: [], msg: [], truncated: [] };
        for (var i = 1; i < T.length; i++) { var r = T[i]; if (by[r.e]) by[r.e].push(r); }
        function byTime(a, b) { return a.t - b.t; }
        for (var k in by) by[k].sort(byTime);
        var NS = 1e9, duration = H.duration_ns;
        var COLORS = { up: '#1976d2', failed: '#d32f2f', late: '#7b1fa2', absent: '#bdbdbd',
          session: 'rgba(96,125,139,0.55)', msg: '#0288d1', ret: '#43a047', retry: '#fb8c00', hb: 'rgba(255,193,7,' };

        // Positions over time per node: [t, x, y], the first at time zero.
        var track = H.nodes.map(function (n) { return [[0, n.x, n.y]]; });
        by.pos.forEach(function (p) { track[p.n].push([p.t, p.x, p.y]); });
        function lastAt(list, t) { // index of the last entry with list[i][0] <= t
          var lo = 0, hi = list.length - 1;
          while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (list[mid][0] <= t) lo = mid; else hi = mid - 1; }
          return lo;
        }
        function position(n, t) { var e = track[n][lastAt(track[n], t)]; return [e[1], e[2]]; }

        // The view: every position ever taken fits, with a margin.
        var minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
        track.forEach(function (l) { l.forEach(function (e) {
          minX = Math.min(minX, e[1]); maxX = Math.max(maxX, e[1]); minY = Math.min(minY, e[2]); maxY = Math.max(maxY, e[2]); }); });
        var W = 820, Hh = 620, pad = 40;
        var spanX = Math.max(maxX - minX, 1), spanY = Math.max(maxY - minY, 1);
        var scale = Math.min((W - 2 * pad) / spanX, (Hh - 2 * pad - 30) / spanY);
        var offX = (W - spanX * scale) / 2;
        function sx(x) { return offX + (x - minX) * scale; }
        var offY = (Hh - 30 - spanY * scale) / 2;
        function sy(y) { return Hh - 30 - offY - (y - minY) * scale; }

        // Node states from the scripted events.
        var events = H.events.slice().sort(byTime);
        var joins = {}; events.forEach(function (e) { if (e.action === 'join') joins[e.n] = true; });
        function stateAt(n, t) {
          var s = joins[n] ? 'absent' : 'up';
          for (var j = 0; j < events.length && events[j].t <= t; j++) {
            var e = events[j]; if (e.n !== n) continue;
            if (e.action === 'fail') s = 'failed';
            else if (e.action === 'recover') s = joins[n] ? 'late' : 'up';
            else if (e.action === 'join') s = 'late';
          }
          return s;
        }

        // Sessions as intervals.
        var open = {}, intervals = [];
        by.session.forEach(function (s) {
          var key = s.a * N + s.b;
          if (s.up) open[key] = s.t;
          else if (open[key] !== undefined) { intervals.push([s.a, s.b, open[key], s.t]); delete open[key]; }
        });
        for (var key in open) intervals.push([Math.floor(key / N), key % N, open[key], Infinity]);

        function firstFrom(list, t) { // index of the first entry with .t >= t
          var lo = 0, hi = list.length;
          while (lo < hi) { var mid = (lo + hi) >> 1; if (list[mid].t < t) lo = mid + 1; else hi = mid; }
          return lo;
        }

        // Title, legend.
        document.getElementById('title').textContent = H.scenario;
        document.getElementById('subtitle').textContent = ' · ' + H.place + ' · ' + H.technology + ' · ' + N +
          ' phones · ' + (duration / NS).toFixed(1) + ' s simulated' +
          (by.truncated.length ? ' · recording stopped after ' + by.truncated[0].kept + ' records (' +
            by.truncated[0].dropped + ' not recorded)' : '');
        var legend = [['up', 'up'], ['failed', 'failed'], ['late', 'joined late'], ['absent', 'not yet joined']]
          .map(function (p) { return '<span><i class="sw" style="background:' + COLORS[p[0]] + '"></i>' + p[1] + '</span>'; }).join('');
        if (H.mesh) legend += '<span><i class="sw" style="background:' + COLORS.session + ';border-radius:0;height:3px"></i>session</span>' +
          '<span><i class="sw" style="background:' + COLORS.msg + '"></i>message frame</span>' +
          '<span><i class="sw" style="background:' + COLORS.ret + '"></i>route return</span>' +
          '<span><i class="sw" style="background:' + COLORS.retry + '"></i>retry (selected message)</span>' +
          '<span><i class="sw" style="background:rgba(255,193,7,0.8)"></i>heartbeat</span>';
        legend += '<div>Hover a phone for its one-hop range (' + H.range_m.toFixed(0) + ' m); click it for its routes.</div>';
        document.getElementById('legend').innerHTML = legend;

        // Phones as SVG circles; the range circle and the scale bar.
        var svgNS = 'http://www.w3.org/2000/svg', svg = document.getElementById('svg');
        var rangeCircle = document.createElementNS(svgNS, 'circle');
        rangeCircle.setAttribute('fill', 'rgba(25,118,210,0.06)'); rangeCircle.setAttribute('stroke', 'rgba(25,118,210,0.5)');
        rangeCircle.setAttribute('r', String(H.range_m * scale)); rangeCircle.style.display = 'none';
        svg.appendChild(rangeCircle);
        var radius = N > 300 ? 2.5 : (N > 60 ? 4 : 7);
        var circles = [], labels = [], hovered = -1, selected = -1, selectedMsg = null;
        for (var n = 0; n < N; n++) {
          var c = document.createElementNS(svgNS, 'circle');
          c.setAttribute('class', 'node'); c.setAttribute('r', String(radius)); c.dataset.n = String(n);
          var title = document.createElementNS(svgNS, 'title'); title.textContent = H.nodes[n].id; c.appendChild(title);
          c.addEventListener('mouseenter', function (ev) { hovered = Number(ev.target.dataset.n); draw(); });
          c.addEventListener('mouseleave', function () { hovered = -1; draw(); });
          c.addEventListener('click', function (ev) { selected = Number(ev.target.dataset.n); draw(); });
          svg.appendChild(c); circles.push(c);
          if (N <= 40) {
            var lab = document.createElementNS(svgNS, 'text'); lab.setAttribute('font-size', '11'); lab.textContent = H.nodes[n].id;
            if (sx(H.nodes[n].x) > W - 80) lab.setAttribute('text-anchor', 'end');
            svg.appendChild(lab); labels.push(lab);
          }
        }
        (function scaleBar() {
          var want = spanX / 5, nice = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];
          var len = nice[0]; nice.forEach(function (v) { if (v <= want) len = v; });
          var g = document.createElementNS(svgNS, 'g');
          var line = document.createElementNS(svgNS, 'rect');
          line.setAttribute('x', String(pad)); line.setAttribute('y', String(Hh - 22));
          line.setAttribute('width', String(len * scale)); line.setAttribute('height', '4'); line.setAttribute('fill', '#444');
          var text = document.createElementNS(svgNS, 'text');
          text.setAttribute('x', String(pad + len * scale + 6)); text.setAttribute('y', String(Hh - 16)); text.setAttribute('font-size', '11');
          text.textContent = len + ' m';
          g.appendChild(line); g.appendChild(text); svg.appendChild(g);
        })();

        // Messages and flows panels.
        var hopsByMsg = {};
        by.hop.forEach(function (h) { var key = h.w + ':' + h.m; (hopsByMsg[key] = hopsByMsg[key] || []).push(h); });
        if (by.msg.length) {
          document.getElementById('msgpanel').style.display = '';
          var list = document.getElementById('msgs'), shown = by.msg.slice(0, 400), html = [];
          shown.forEach(function (m, i) {
            // Every value read back from the timeline is escaped: a tampered timeline shows text,
            // never markup.
            var fate = m.delivered === null ? 'not delivered' : 'delivered in ' + ((m.delivered - m.t) / 1e6).toFixed(1) + ' ms, ' + escapeText(m.hops) + ' hops';
            html.push('<div data-i="' + i + '">' + (m.t / NS).toFixed(2) + ' s · ' + escapeText(m.id) + ' #' + escapeText(m.m) + ' ' +
              escapeText(H.nodes[m.from].id) + '→' + escapeText(H.nodes[m.to].id) + ': ' + fate +
              (m.attempts > 1 ? ' (' + escapeText(m.attempts) + ' attempts)' : '') + '</div>');
          });
          if (by.msg.length > shown.length) html.push('<div>… ' + (by.msg.length - shown.length) + ' more</div>');
          list.innerHTML = html.join('');
          list.addEventListener('click', function (ev) {
            var d = ev.target.closest('div[data-i]'); if (!d) return;
            Array.prototype.forEach.call(list.children, function (x) { x.classList.remove('sel'); });
            d.classList.add('sel'); selectedMsg = shown[Number(d.dataset.i)]; seek(selectedMsg.t);
          });
        }
        function escapeText(s) { return String(s).replace(/[&<>"']/g, function (c) { return '&#' + c.charCodeAt(0) + ';'; }); }

        var charts = [];
        if (H.flows.length && (by.rtt.length || by.progress.length)) {
          document.getElementById('flowpanel').style.display = '';
          var box = document.getElementById('flows');
          H.flows.forEach(function (f, fi) {
            // Each probe at the time its echo came back (a thesis test sends its probes at once).
            var rtts = by.rtt.filter(function (r) { return r.f === fi; })
              .map(function (r) { return [r.t + r.ms * 1e6, r.ms]; }).sort(function (a, b) { return a[0] - b[0]; });
            var prog = by.progress.filter(function (r) { return r.f === fi; }).map(function (r) { return [r.t, r.bytes]; });
            box.insertAdjacentHTML('beforeend', '<div>' + escapeText(f.id) + ' (' + escapeText(f.protocol) + ', ' +
              escapeText(H.nodes[f.from].id) + '→' + escapeText(H.nodes[f.to].id) + ')</div>');
            if (rtts.length) charts.push(chart(box, rtts, 'probe RTT (ms) at its echo', true));
            if (prog.length) charts.push(chart(box, prog, 'bytes delivered', false));
          });
        }
        function chart(box, pts, label, dots) {
          var w = 300, h = 110, s = document.createElementNS(svgNS, 'svg');
          s.setAttribute('width', String(w)); s.setAttribute('height', String(h));
          var t0 = pts[0][0], t1 = Math.max(pts[pts.length - 1][0], t0 + 1), vmax = -Infinity, vmin = Infinity;
          pts.forEach(function (p) { vmax = Math.max(vmax, p[1]); vmin = Math.min(vmin, p[1]); });
          if (!dots) vmin = 0;
          if (vmax <= vmin) vmax = vmin + 1;
          function cx(t) { return 30 + (t - t0) / (t1 - t0) * (w - 40); }
          function cy(v) { return h - 18 - (v - vmin) / (vmax - vmin) * (h - 30); }
          var body = '<rect x="30" y="12" width="' + (w - 40) + '" height="' + (h - 30) + '" fill="none" stroke="#ddd"/>';
          if (dots) pts.forEach(function (p) { body += '<circle cx="' + cx(p[0]).toFixed(1) + '" cy="' + cy(p[1]).toFixed(1) + '" r="1.5" fill="#1976d2"/>'; });
          else body += '<polyline fill="none" stroke="#43a047" points="' + pts.map(function (p) { return cx(p[0]).toFixed(1) + ',' + cy(p[1]).toFixed(1); }).join(' ') + '"/>';
          body += '<text x="30" y="10" font-size="10">' + label + ', ' + vmin.toFixed(dots ? 1 : 0) + ' to ' + vmax.toFixed(dots ? 1 : 0) + '</text>' +
            '<text x="30" y="' + (h - 4) + '" font-size="10">' + (t0 / NS).toFixed(2) + ' s</text>' +
            '<text x="' + (w - 50) + '" y="' + (h - 4) + '" font-size="10">' + (t1 / NS).toFixed(2) + ' s</text>';
          s.innerHTML = body;
          var cursor = document.createElementNS(svgNS, 'line');
          cursor.setAttribute('y1', '12'); cursor.setAttribute('y2', String(h - 18)); cursor.setAttribute('stroke', '#d32f2f');
          s.appendChild(cursor); box.appendChild(s);
          return { cursor: cursor, x: cx, t0: t0, t1: t1 };
        }

        // Drawing.
        var canvas = document.getElementById('canvas'), ctx = canvas.getContext('2d');
        var now = 0, playing = false, speed = 1, lastFrame = 0, maxItems = 3000;
        function arrow(a, b, color, width, dashed) {
          ctx.strokeStyle = color; ctx.lineWidth = width; ctx.setLineDash(dashed ? [6, 4] : []);
          ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke(); ctx.setLineDash([]);
          var ang = Math.atan2(b[1] - a[1], b[0] - a[0]), l = 7;
          ctx.beginPath(); ctx.moveTo(b[0], b[1]);
          ctx.lineTo(b[0] - l * Math.cos(ang - 0.4), b[1] - l * Math.sin(ang - 0.4));
          ctx.lineTo(b[0] - l * Math.cos(ang + 0.4), b[1] - l * Math.sin(ang + 0.4)); ctx.closePath();
          ctx.fillStyle = color; ctx.fill();
        }
        function screen(n, t) { var p = position(n, t); return [sx(p[0]), sy(p[1])]; }
        function draw() {
          var t = now;
          ctx.clearRect(0, 0, W, Hh);
          var pos = []; for (var n = 0; n < N; n++) pos.push(screen(n, t));
          // Sessions.
          ctx.strokeStyle = COLORS.session; ctx.lineWidth = 1; ctx.beginPath();
          var drawn = 0;
          for (var i = 0; i < intervals.length && drawn < maxItems * 3; i++) {
            var s = intervals[i]; if (s[2] > t || s[3] <= t) continue;
            ctx.moveTo(pos[s[0]][0], pos[s[0]][1]); ctx.lineTo(pos[s[1]][0], pos[s[1]][1]); drawn++;
          }
          ctx.stroke();
          // Heartbeat pulses of the last second.
          var hbFrom = firstFrom(by.hb, t - NS), count = 0;
          for (var j = firstFrom(by.hb, t + 1) - 1; j >= hbFrom && count < maxItems; j--, count++) {
            var h = by.hb[j], age = (t - h.t) / NS;
            ctx.strokeStyle = COLORS.hb + (0.7 * (1 - age)).toFixed(3) + ')'; ctx.lineWidth = 2;
            ctx.beginPath(); ctx.arc(pos[h.n][0], pos[h.n][1], radius + 2 + age * 18, 0, 2 * Math.PI); ctx.stroke();
          }
          // Frames of the last moments, newest first.
          var window_ = Math.max(0.3, 0.3 * speed) * NS, hopFrom = firstFrom(by.hop, t - window_);
          count = 0;
          for (var q = firstFrom(by.hop, t + 1) - 1; q >= hopFrom && count < maxItems; q--, count++) {
            var hp = by.hop[q], alpha = 1 - (t - hp.t) / window_;
            ctx.globalAlpha = Math.max(0.15, alpha);
            arrow(pos[hp.a], pos[hp.b], hp.k === 'msg' ? COLORS.msg : COLORS.ret, 2);
          }
          ctx.globalAlpha = 1;
          // The selected message: every hop of every attempt.
          if (selectedMsg) {
            (hopsByMsg[selectedMsg.w + ':' + selectedMsg.m] || []).forEach(function (hp) {
              if (hp.t > t) return;
              // The message solid and wide, its route return dashed beside it; retries in orange.
              var ret = hp.k !== 'msg', a = pos[hp.a], b = pos[hp.b];
              if (ret) {
                var dx = b[0] - a[0], dy = b[1] - a[1], l = Math.sqrt(dx * dx + dy * dy) || 1;
                a = [a[0] - dy / l * 4, a[1] + dx / l * 4]; b = [b[0] - dy / l * 4, b[1] + dx / l * 4];
              }
              arrow(a, b, hp.try > 0 ? COLORS.retry : (ret ? COLORS.ret : COLORS.msg), ret ? 2 : 4, ret);
            });
          }
          // Phones.
          for (var m = 0; m < N; m++) {
            var st = stateAt(m, t);
            circles[m].setAttribute('cx', pos[m][0].toFixed(1)); circles[m].setAttribute('cy', pos[m][1].toFixed(1));
            circles[m].setAttribute('fill', COLORS[st]);
            circles[m].dataset.state = st;
            circles[m].setAttribute('stroke', m === selected ? '#000' : '#fff');
            circles[m].setAttribute('stroke-width', m === selected ? '2.5' : '1');
            if (labels.length) { labels[m].setAttribute('x', (pos[m][0] + (pos[m][0] > W - 80 ? -radius - 2 : radius + 2)).toFixed(1)); labels[m].setAttribute('y', (pos[m][1] - radius).toFixed(1)); }
          }
          if (hovered >= 0) {
            rangeCircle.style.display = ''; rangeCircle.setAttribute('cx', pos[hovered][0]); rangeCircle.setAttribute('cy', pos[hovered][1]);
          } else rangeCircle.style.display = 'none';
          charts.forEach(function (c) {
            var x = Math.min(Math.max(c.x(t), c.x(c.t0)), c.x(c.t1));
            c.cursor.setAttribute('x1', String(x)); c.cursor.setAttribute('x2', String(x));
          });
          showRoutes(t);
          document.getElementById('clock').textContent = (t / NS).toFixed(3) + ' s';
          document.getElementById('slider').value = String(Math.round(t / duration * 1000));
          document.body.dataset.t = String(t / NS);
        }
        function showRoutes(t) {
          var box = document.getElementById('routes');
          if (selected < 0) return;
          var head = '<b>' + escapeText(H.nodes[selected].id) + '</b>, ' + stateAt(selected, t) + '<br>';
          if (!H.mesh) { box.innerHTML = head + 'No mesh in this run.'; return; }
          if (!H.routes_recorded) { box.innerHTML = head + 'Route tables are recorded for meshes of at most 200 phones.'; return; }
          var table = {};
          for (var i = 0; i < by.route.length && by.route[i].t <= t; i++) {
            var r = by.route[i]; if (r.n === selected) table[r.to] = r.path;
          }
          var rows = Object.keys(table).map(Number).sort(function (a, b) { return a - b; })
            .filter(function (k) { return table[k].length; })
            .map(function (k) { return '<tr><td>' + escapeText(H.nodes[k].id) + '</td><td>' + (table[k].length - 1) + (table[k].length === 2 ? ' hop' : ' hops') + '</td><td>' +
              table[k].map(function (x) { return escapeText(H.nodes[x].id); }).join(' → ') + '</td></tr>'; });
          box.innerHTML = head + (rows.length ? 'Routes held (sampled every second; a route stays until it times out):<table>' +
            rows.join('') + '</table>' : 'No routes yet (sampled every second).');
        }
        function seek(t) { now = Math.min(Math.max(t, 0), duration); draw(); }

        // Controls.
        document.getElementById('slider').addEventListener('input', function (ev) { seek(Number(ev.target.value) / 1000 * duration); });
        document.getElementById('speed').addEventListener('change', function (ev) { speed = Number(ev.target.value); });
        var playButton = document.getElementById('play');
        playButton.addEventListener('click', function () {
          playing = !playing; playButton.textContent = playing ? 'Pause' : 'Play';
          if (playing) { if (now >= duration) now = 0; lastFrame = performance.now(); requestAnimationFrame(tick); }
        });
        function tick(stamp) {
          if (!playing) return;
          var dt = (stamp - lastFrame) / 1000; lastFrame = stamp;
          seek(now + dt * speed * NS);
          if (now >= duration) { playing = false; playButton.textContent = 'Play'; return; }
          requestAnimationFrame(tick);
        }
        // #t=SECONDS&node=ID&msg=K: open at a time, with a phone and the K-th message selected.
        var hash = decodeURIComponent(location.hash.slice(1)), m = /(?:^|&)t=([0-9.]+)/.exec(hash);
        var nodeArg = /(?:^|&)node=([^&]+)/.exec(hash), msgArg = /(?:^|&)msg=([0-9]+)/.exec(hash);
        if (nodeArg) H.nodes.forEach(function (n, i) { if (n.id === nodeArg[1]) selected = i; });
        if (msgArg && by.msg[Number(msgArg[1])]) {
          selectedMsg = by.msg[Number(msgArg[1])];
          var row = document.querySelector('#msgs div[data-i="' + msgArg[1] + '"]');
          if (row) {
            row.classList.add('sel');
            var list = document.getElementById('msgs');
            list.scrollTop = row.offsetTop - list.clientHeight / 2;
          }
        }
        seek(m ? Number(m[1]) * NS : 0);
        // #bench: draws 50 frames across the run and reports the mean milliseconds per frame.
        if (/(?:^|&)bench/.test(hash)) {
          var started = performance.now(), at = now;
          for (var f = 0; f < 50; f++) seek(duration * f / 50);
          document.body.dataset.frameMs = ((performance.now() - started) / 50).toFixed(2);
          seek(at);
        }
        document.body.dataset.ready = 'yes';
        })();
        </script>

        """#

    static let tail = #"""
        </body>
        </html>

        """#
}
