// The operator console page: live state over server-sent events (read with fetch, so the
// operator's secret travels in a header, never in a URL), STOP / release / approve / deny as
// POSTs. The secret comes from the URL fragment (#secret=..., removed from the address bar at
// once; a fragment is never sent to a server) or the field.
'use strict';
(() => {
  const query = new URLSearchParams(location.search);
  const lang = query.get('lang') || '';
  const $ = (id) => document.getElementById(id);
  const STALE_MS = 3000;
  const CONFIRM_MS = 500;
  let labels = {};
  let token = null;
  // Take the secret from the fragment and remove it from the address bar; true when one came.
  function secretFromFragment() {
    const given = new URLSearchParams(location.hash.slice(1)).get('secret');
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    if (given) token = given;
    return Boolean(given);
  }
  secretFromFragment();
  let operator = false;
  let reachable = true;
  let live = false;
  let lastState = 0;
  let stream = 0;
  // Figures for tests and the bench: what was rendered, and how late. ``tips``: the newest
  // TIPS_KEPT fingertip samples received, [stamp s (the backend's), x, y, z m], oldest first.
  const TIPS_KEPT = 1000;
  window.consoleView = { rendered: {}, latencyMs: { motion: [], state: [] }, operator: false,
    sound: { played: 0 }, tips: [] };

  function label(key, values) {
    let text = labels[key] || key;
    for (const [k, v] of Object.entries(values || {})) text = text.split('{' + k + '}').join(v);
    return text;
  }

  function rendered(kind, data) {
    const view = window.consoleView;
    view.rendered[kind] = (view.rendered[kind] || 0) + 1;
    const late = view.latencyMs[kind];
    if (late && data.sent) {
      late.push(Date.now() - data.sent * 1000);
      if (late.length > 5000) late.shift();
    }
  }

  function setLive(ok, text) {
    const el = $('live');
    el.textContent = text;
    el.className = 'status ' + (ok ? 'live' : 'dead');
    live = ok;
    document.body.classList.toggle('stale', !ok);  // old data greyed, never shown as live
    window.consoleView.live = ok;
    window.consoleBanner.setOffline(cards, !ok);
  }

  function setMode() {
    window.consoleView.operator = operator;
    for (const id of ['stop', 'release', 'capture']) $(id).disabled = !operator;
    window.consoleBanner.setOffline(cards, !live);
    $('mode').textContent = operator ? label('operator') : label('readonly');
    $('token-form').hidden = operator;
    document.querySelector('.hint[data-label=shortcut]').hidden = !operator;
    for (const b of document.querySelectorAll('#queue li:not(.gone) button')) b.disabled = !operator;
  }

  function headers(json) {
    const h = json ? { 'Content-Type': 'application/json' } : {};
    if (token) h.Authorization = 'Bearer ' + token;
    return h;
  }

  // Resolve to {ok, status, answer}; a bridge that is gone is status 0, never a thrown error.
  async function send(path, body) {
    try {
      const r = await fetch('/console/' + path, { method: 'POST', headers: headers(true),
        body: JSON.stringify(body || {}), cache: 'no-store' });
      return { ok: r.ok, status: r.status, answer: await r.json().catch(() => ({})) };
    } catch (e) {
      return { ok: false, status: 0, answer: { error: label('no_bridge') } };
    }
  }

  async function post(path, body) {
    $('refusal').hidden = true;
    const sent = await send(path, body);
    if (!sent.ok) {
      $('refusal').textContent = label('refused', { error: sent.answer.error || sent.status });
      $('refusal').hidden = false;
    }
    return sent;
  }

  // STOP says what it knows: STOPPING at once, STOPPED once the bridge confirms the arm is
  // still, NOT CONFIRMED when no confirmation came within CONFIRM_MS or the page is not live.
  let stopAttempt = 0;
  function showStop(kind, text) {
    const el = $('stop-status');
    el.textContent = text;
    el.className = 'stop-status ' + kind;
    el.hidden = false;
    window.consoleView.stop = kind;
  }

  async function pressStop() {
    const attempt = ++stopAttempt;
    const began = performance.now();
    let confirmed = false;
    const unconfirmed = (why) => {
      if (attempt === stopAttempt && !confirmed) showStop('unconfirmed', label('stop_unconfirmed', { why }));
    };
    showStop('stopping', label('stopping_now'));
    if (!live) unconfirmed(label('offline'));
    const timer = setTimeout(() => unconfirmed(label('stop_no_answer', { ms: CONFIRM_MS })), CONFIRM_MS);
    const sent = await post('stop');
    clearTimeout(timer);
    if (attempt !== stopAttempt) return;
    const a = sent.answer;
    if (sent.ok && a.released) {
      confirmed = true;
      const late = performance.now() - began > CONFIRM_MS;
      showStop('stopped', label(late ? 'stopped_late' : 'stopped_still',
        { still: (a.stop_s || 0).toFixed(2), after: ((performance.now() - began) / 1000).toFixed(2) }));
    } else {
      unconfirmed(a.error || (sent.ok ? label('stop_not_still') : String(sent.status)));
    }
  }

  const handlers = {
    hello(d) {
      operator = d.operator;
      window.consoleView.secretRefused = d.secret_refused;
      $('secret-refused').hidden = !d.secret_refused;
      $('audit').textContent = '';  // each stream starts with the recent trail again
      setMode();
    },
    state(d) {
      lastState = Date.now();
      reachable = d.reachable;
      if (!d.reachable) {
        setLive(false, label('unreachable', { error: (d.errors || {}).joints || '?' }));
      } else {
        setLive(true, label('live'));
      }
      const body = $('joints').tBodies[0];
      body.textContent = '';
      for (const j of d.joints || []) {
        const row = body.insertRow();
        row.insertCell().textContent = j.name;
        row.insertCell().textContent = j.position.toFixed(3) + ' ' + j.unit;
        const bar = row.insertCell();
        if (j.limits) {  // where the joint is between its limits; near one, the bar warns
          const m = document.createElement('meter');
          const [lo, hi] = j.limits;
          Object.assign(m, { min: lo, max: hi, low: lo + 0.1 * (hi - lo), high: hi - 0.1 * (hi - lo),
            optimum: (lo + hi) / 2, value: j.position });
          m.title = lo.toFixed(2) + ' … ' + hi.toFixed(2) + ' ' + j.unit;
          bar.appendChild(m);
        }
        row.insertCell().textContent = j.velocity.toFixed(3) + ' ' + j.unit + '/s';
      }
      if (d.tip) {
        const tips = window.consoleView.tips;
        tips.push([d.tip.stamp, ...d.tip.position_m]);
        if (tips.length > TIPS_KEPT) tips.shift();
      }
      $('tip').textContent = d.tip ? ['x', 'y', 'z'].map((a, i) => a + ' ' +
        d.tip.position_m[i].toFixed(3)).join('  ') + ' m (' + d.tip.frame + ')' : (d.errors || {}).tip || '';
      const grip = d.gripper;
      $('gripper').textContent = grip ? label('grip_' + grip.status) + ' ' + (grip.width_m * 1000).toFixed(1) +
        ' mm ' + grip.force_n.toFixed(1) + ' N' + (grip.object ? ' · ' + label('grip_object', { v: grip.object }) : '')
        : (d.errors || {}).gripper || '';
      if (d.force) window.consoleForce.add(d.force, d.sent);
      window.consoleForce.draw(cards, $('force'));
      window.consoleForce.detail(cards, $('force-detail'));
    },
    banner(d) { window.consoleBanner.render(cards, d); },
    motion(d) {
      $('motion-tool').textContent = d.running ? d.tool + (d.preempted_by ? ' (' + label('stopping') + ')' : '')
        : label('idle') + (d.tool ? ' (' + d.tool + ')' : '');
      $('motion-progress').value = d.running ? d.fraction || 0 : 0;
      $('motion-message').textContent = d.running ? d.message || '' : '';  // how it ended: banner
      const w = d.envelope.workspace_m;  // field names, as in robot://description
      $('envelope').textContent = Object.entries(d.envelope).map(([k, v]) => label('env_' + k) + ': ' +
        (k === 'workspace_m' ? w.frame + ' [' + w.min.join(', ') + '] .. [' + w.max.join(', ') +
          ']' : v)).join('\n');
    },
    approvals(d) {
      window.consoleApprovals.render(cards, $('queue'), d.waiting);
      showWaiting();
    },
    withdrawn(d) { window.consoleApprovals.withdrawn(cards, d); showWaiting(); },
    audit(d) {
      const who = d.decided_by ? ' [' + d.decided_by + ']' : '';
      const at = d.time ? new Date(d.time).toLocaleTimeString() : '';  // local time
      const li = item(at + ' ' + (d.tool || d.event) + ' ' + d.outcome + (d.code ? ' ' + d.code : '') +
        who + (d.args !== undefined ? ' ' + JSON.stringify(d.args) : '') + (d.reason ? ' ' + d.reason : ''));
      li.className = d.read ? 'entry read' : 'entry';
      $('audit').prepend(li);
      while ($('audit').children.length > 200) $('audit').lastChild.remove();
    },
    hold(d) {
      $('held').hidden = !d.held;
      $('held-by').textContent = d.held && d.since ? label('held_since', {
        since: new Date(d.since * 1000).toLocaleTimeString(), by: d.by }) : '';
      if (!d.held && window.consoleView.stop) {  // released: the last STOP is history
        $('stop-status').hidden = true;
        window.consoleView.stop = '';
      }
    },
    image(d) {
      $('scene-error').textContent = d.error || '';
      if (d.version > 0) showImage(d.version);
      $('scene-time').textContent = d.taken ? label('scene_taken', { at: new Date(d.taken * 1000).toLocaleTimeString() }) : '';
      window.consoleView.image = { version: d.version, taken: d.taken };
    },
  };

  // The camera is the operator's: fetched with the secret, shown from a blob URL.
  async function showImage(version) {
    try {
      const r = await fetch('/console/image?v=' + version, { headers: headers(false), cache: 'no-store' });
      if (!r.ok) return;
      const old = $('scene').src;
      $('scene').src = URL.createObjectURL(await r.blob());
      if (old.startsWith('blob:')) URL.revokeObjectURL(old);
      $('scene').hidden = false;
    } catch (e) {
      // the bridge went away meanwhile: the live badge says so
    }
  }

  // The approval cards' helpers (approvals.js), and the title while a person is waited for.
  const cards = { label, post, operator: () => operator };
  function showWaiting() {
    const n = window.consoleApprovals.pending();
    window.consoleView.waiting = n;
    window.consoleBanner.waiting(n);
    document.title = (n ? label('title_waiting', { n }) + ' — ' : '') + label('title');
    $('icon').href = n ? '/console/icon-waiting.svg' : '/console/icon.svg';
  }
  setInterval(() => window.consoleApprovals.tick(cards, $('queue')), 1000);

  function item(text) {
    const li = document.createElement('li');
    li.textContent = text;
    return li;
  }

  function dispatch(chunk) {
    let kind = 'message';
    const data = [];
    for (const line of chunk.split('\n')) {
      if (line.startsWith('event:')) kind = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trim());
    }
    if (!data.length || !handlers[kind]) return;
    const parsed = JSON.parse(data.join('\n'));
    handlers[kind](parsed);
    rendered(kind, parsed);
  }

  async function connect() {
    const mine = ++stream;
    try {
      const r = await fetch('/console/events' + (lang ? '?lang=' + lang : ''),
        { headers: headers(false), cache: 'no-store' });
      const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      while (mine === stream) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          dispatch(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
      reader.cancel().catch(() => {});
    } catch (e) {
      // the bridge is gone or restarting: say so below, then try again
    }
    if (mine !== stream) return;
    lastState = 0;
    setLive(false, label('offline'));
    setTimeout(connect, 2000);
  }

  // No polling of the bridge: this only notices that the stream went quiet.
  setInterval(() => {
    if (lastState && reachable && Date.now() - lastState > STALE_MS) setLive(false, label('offline'));
  }, 1000);

  async function start() {
    const r = await fetch('/console/labels' + (lang ? '?lang=' + lang : ''), { cache: 'no-store' });
    labels = await r.json();
    document.documentElement.lang = lang || document.documentElement.lang;
    for (const el of document.querySelectorAll('[data-label]')) el.textContent = label(el.dataset.label);
    document.title = label('title');
    setLive(false, label('offline'));
    setMode();
    $('stop').addEventListener('click', pressStop);
    $('release').addEventListener('click', () => post('release'));
    $('capture').addEventListener('click', () => post('capture'));
    window.consoleBanner.wire(cards);
    $('show-reads').addEventListener('change', () => {
      document.body.classList.toggle('show-reads', $('show-reads').checked);
    });
    window.addEventListener('hashchange', () => { if (secretFromFragment()) connect(); });
    $('token-form').addEventListener('submit', (e) => {
      e.preventDefault();
      token = $('token').value.trim() || null;
      $('token').value = '';
      connect();
    });
    document.addEventListener('keydown', (e) => {
      if (operator && (e.key === 'Escape' || e.key === ' ') && e.target.tagName !== 'INPUT') {
        e.preventDefault();
        pressStop();
      }
    });
    connect();
  }

  start();
})();
