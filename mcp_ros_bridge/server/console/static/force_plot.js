// The force view: each update's min–max of |F| (every sensor sample since the last update,
// net of the gripper's weight and the tare, as read_ft_sensor computes it) drawn as a bar, on a
// fixed scale with the contact-force limit line and labelled axes in N and seconds.
'use strict';
window.consoleForce = (() => {
  const WINDOW_S = 10;
  const intervals = [];  // [sent, min_n[4], max_n[4]] with [Fx, Fy, Fz, |F|]
  let meta = null;

  function add(force, sent) {
    meta = force;
    if (force.max_n) intervals.push([sent, force.min_n, force.max_n]);
    while (intervals.length && intervals[0][0] < sent - WINDOW_S) intervals.shift();
  }

  function step(top) {
    for (const s of [1, 2, 5, 10, 20, 50, 100, 200, 500]) if (top / s <= 6) return s;
    return 1000;
  }

  function draw(ctx, canvas) {
    const g = canvas.getContext('2d');
    const W = canvas.width, H = canvas.height;
    const left = 34, right = 6, top = 16, bottom = 28;
    g.clearRect(0, 0, W, H);
    g.font = '11px system-ui, sans-serif';
    if (!meta) return;
    const limit = meta.limit_n;
    const peak = Math.max(0, ...intervals.map((i) => i[2][3]));
    const high = Math.max(limit * 1.25, peak * 1.1);  // fixed unless a force passes it
    const now = intervals.length ? intervals[intervals.length - 1][0] : 0;
    const x = (t) => left + (W - left - right) * (1 - (now - t) / WINDOW_S);
    const y = (v) => top + (H - top - bottom) * (1 - v / high);
    g.strokeStyle = '#ddd';
    g.fillStyle = '#444';
    g.textAlign = 'right';
    const ticks = [];
    for (let v = 0; v <= high; v += step(high)) {
      ticks.push(v);
      g.beginPath(); g.moveTo(left, y(v)); g.lineTo(W - right, y(v)); g.stroke();
      g.fillText(String(v), left - 4, y(v) + 4);
    }
    g.textAlign = 'center';
    for (let s = 0; s <= WINDOW_S; s += 2) g.fillText(String(s), x(now - s), H - bottom + 13);
    g.fillText(ctx.label('force_time'), (left + W) / 2, H - 3);
    g.textAlign = 'left';
    const axis = meta.net_of === 'none' ? ctx.label('force_raw', { why: meta.raw_because || '' })
      : ctx.label('force_axis', { tare: meta.net_of === 'tared' ? ctx.label('force_tare') : '' });
    g.fillText(axis, 2, 11);
    g.strokeStyle = '#c0392b';  // the contact-force limit
    g.setLineDash([6, 4]);
    g.beginPath(); g.moveTo(left, y(limit)); g.lineTo(W - right, y(limit)); g.stroke();
    g.setLineDash([]);
    g.fillStyle = '#c0392b';
    g.fillText(ctx.label('force_limit', { v: limit }), left + 4, y(limit) - 3);
    const bar = Math.max(2, (W - left - right) / (WINDOW_S * 12));
    g.fillStyle = '#2e86c1';
    for (const [t, lo, hi] of intervals) {
      g.fillRect(x(t) - bar / 2, y(hi[3]), bar, Math.max(1.5, y(lo[3]) - y(hi[3])));
    }
    window.consoleView.force = { plottedMax: peak, limit, scaleTop: high, ticks, axis,
      intervals: intervals.length, netOf: meta.net_of, samples: meta.samples,
      newest: meta.max_n ? [meta.min_n[3], meta.max_n[3]] : null, motion: meta.motion };
  }

  // The text under the plot: the newest update's range per axis and the motion's peak.
  function detail(ctx, el) {
    if (!meta) { el.textContent = ''; return; }
    const lines = [];
    if (meta.max_n) {
      lines.push(['Fx', 'Fy', 'Fz', '|F|'].map((a, i) => a + ' ' + meta.min_n[i].toFixed(1) +
        '…' + meta.max_n[i].toFixed(1)).join('  ') + ' N');
    }
    const m = meta.motion || {};
    if (m.tool) lines.push(ctx.label(m.running ? 'force_peak_now' : 'force_peak',
      { v: m.peak_n.toFixed(1), tool: m.tool }));
    if (meta.whole === false) lines.push(ctx.label('force_gap'));
    el.textContent = lines.join('\n');
  }

  return { add, draw, detail };
})();
