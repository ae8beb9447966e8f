// The state banner (from the bridge's banner event: held / stopping / moving / waiting / idle,
// the last motion's end, sensor faults), the robot's lease with the operator's End and Take
// over, and a sound when a new approval card arrives (WebAudio; a mute toggle kept locally).
'use strict';
window.consoleBanner = (() => {
  const $ = (id) => document.getElementById(id);
  let offline = true;
  let latest = null;
  let received = 0;
  let audio = null;
  let heard = 0;
  const played = { count: 0 };

  const clock = (wall) => new Date(wall * 1000).toLocaleTimeString();

  function stateText(ctx, d) {
    if (d.state === 'held') return ctx.label('state_held', { since: d.since ? clock(d.since) : '?', by: d.by || '?' });
    if (d.state === 'stopping') return ctx.label('state_stopping', { tool: d.tool, why: d.why });
    if (d.state === 'moving') return ctx.label('state_moving', { tool: d.tool });
    if (d.state === 'waiting') return ctx.label('state_waiting', { n: d.waiting });
    return ctx.label('state_idle');
  }

  function detailText(ctx, d) {
    if (d.state !== 'moving' || typeof d.fraction !== 'number') return '';
    const elapsed = Math.max(0, d.sent - d.started + (Date.now() - received) / 1000);
    const eta = d.fraction > 0.05 ? ctx.label('eta', { left: (elapsed * (1 - d.fraction) / d.fraction).toFixed(0) }) : '';
    return ctx.label('moving_detail', { percent: (d.fraction * 100).toFixed(0), elapsed: elapsed.toFixed(1), eta });
  }

  function lastText(ctx, last) {
    if (!last) return '';
    const how = last.outcome === 'ok' ? ctx.label('ended_ok')
      : last.outcome === 'cancelled' ? ctx.label('ended_cancelled')
        : ctx.label('ended_error', { code: last.code || last.outcome });
    return ctx.label('last', { tool: last.tool, how, at: clock(last.ended) });
  }

  function faultText(ctx, faults) {
    const parts = Object.entries(faults || {}).map(([k, v]) => ctx.label('fault_' + k) + ' (' + v + ')');
    return parts.length ? ctx.label('faults', { faults: parts.join('; ') }) : '';
  }

  function show(ctx) {
    const d = latest;
    const kind = offline ? 'offline' : d ? d.state : 'offline';
    $('banner').className = 'banner ' + kind;
    $('banner-state').textContent = offline || !d ? ctx.label('state_offline') : stateText(ctx, d);
    $('banner-detail').textContent = d && !offline ? detailText(ctx, d) : '';
    $('banner-last').textContent = d ? lastText(ctx, d.last) : '';
    const faults = d ? faultText(ctx, d.faults) : '';
    $('banner-faults').textContent = faults;
    window.consoleView.banner = { state: kind, text: $('banner-state').textContent, faults,
      last: d && d.last, started: d && d.started };
    lease(ctx, d ? d.lease : null);
  }

  function lease(ctx, held) {
    $('lease-text').textContent = !held ? ctx.label('lease_free') : ctx.label('lease_held', {
      client: held.client, since: clock(held.since),
      left: Math.max(0, held.expires_in_s - (Date.now() - received) / 1000).toFixed(0) });
    for (const id of ['lease-end', 'lease-take']) {
      $(id).disabled = !held || !ctx.operator() || offline;
      $(id).dataset.since = held ? String(held.since) : '';
    }
    window.consoleView.lease = held ? held.client : null;
  }

  function render(ctx, d) {
    latest = d;
    received = Date.now();
    show(ctx);
  }

  function setOffline(ctx, isOffline) {
    offline = isOffline;
    show(ctx);
  }

  function wire(ctx) {
    for (const [id, take] of [['lease-end', false], ['lease-take', true]]) {
      $(id).addEventListener('click', () => ctx.post('lease', { since: Number($(id).dataset.since), take }));
    }
    const mute = $('sound');
    mute.checked = localStorage.getItem('console-sound') !== 'off';
    mute.addEventListener('change', () => {
      localStorage.setItem('console-sound', mute.checked ? 'on' : 'off');
      if (mute.checked) unlock();
    });
    document.addEventListener('pointerdown', unlock, { once: true });
    setInterval(() => { if (latest && (latest.state === 'moving' || latest.lease)) show(ctx); }, 1000);
  }

  // Browsers start audio only after a gesture on the page: the first click unlocks it.
  function unlock() {
    try {
      audio = audio || new AudioContext();
      if (audio.state === 'suspended') audio.resume();
    } catch (e) {
      audio = null;
    }
  }

  // Called with the number of cards waiting: a chime when it grows, unless muted.
  function waiting(n) {
    const grew = n > heard;
    heard = n;
    if (!grew || !$('sound').checked) return;
    unlock();
    if (!audio) return;
    for (const [at, freq] of [[0, 880], [0.18, 1175]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      gain.gain.setValueAtTime(0.2, audio.currentTime + at);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + at + 0.16);
      osc.frequency.value = freq;
      osc.connect(gain).connect(audio.destination);
      osc.start(audio.currentTime + at);
      osc.stop(audio.currentTime + at + 0.17);
    }
    played.count += 1;
    window.consoleView.sound = { played: played.count, state: audio.state };
  }

  return { render, setOffline, wire, waiting };
})();
