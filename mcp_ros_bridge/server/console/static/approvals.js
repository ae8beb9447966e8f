// The approval cards. Each card is made once and updated in place: a card never moves under
// the cursor (a withdrawn card above a waiting one stays as a greyed note until nothing waits
// below it). Approve and Deny look different; each card shows its age and its countdown.
'use strict';
window.consoleApprovals = (() => {
  const cards = new Map();  // id -> {li, received, waiting_s, expires_in_s}
  const reasons = {};  // id -> why it was withdrawn (expired, held)

  function fact(ctx, key, value) {
    const p = document.createElement('span');
    p.className = 'fact';
    p.textContent = ctx.label('fact_' + key, { v: value });
    return p;
  }

  function facts(ctx, w) {
    const f = Object.assign({}, w.plan || {}, w.facts || {}, w);
    const out = [];
    if (typeof f.motions === 'number') out.push(fact(ctx, 'motions', String(f.motions)));  // a job's chain
    if (typeof f.duration_s === 'number') out.push(fact(ctx, 'duration', f.duration_s.toFixed(1)));
    if (typeof f.peak_tip_speed_mps === 'number') {
      out.push(fact(ctx, 'speed', (f.peak_tip_speed_mps * 1000).toFixed(0)));
    }
    if (f.target !== undefined && f.target !== null) {
      out.push(fact(ctx, 'target', typeof f.target === 'string' ? f.target : JSON.stringify(f.target)));
    }
    if (f.object) out.push(fact(ctx, 'object', String(f.object)));
    return out;
  }

  function make(ctx, w) {
    const li = document.createElement('li');
    li.className = 'card';
    li.dataset.id = w.id;
    li.dataset.tool = w.tool;
    const title = document.createElement('strong');
    title.textContent = w.tool;
    const message = document.createElement('p');
    message.textContent = w.message;
    const detail = document.createElement('p');
    detail.className = 'facts';
    for (const f of facts(ctx, w)) detail.appendChild(f);
    const clock = document.createElement('p');
    clock.className = 'clock';
    const buttons = document.createElement('p');
    buttons.className = 'buttons';
    for (const [key, approve] of [['approve', true], ['deny', false]]) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = key;
      b.textContent = label(ctx, key);
      b.addEventListener('click', () => {
        for (const other of buttons.querySelectorAll('button')) other.disabled = true;  // once
        ctx.post('decide', { id: w.id, approve });
      });
      buttons.appendChild(b);
    }
    li.append(title, message, detail, clock, buttons);
    return li;
  }

  function label(ctx, key, values) { return ctx.label(key, values); }

  function tick(ctx, list) {
    if (list) prune(list);
    const now = Date.now();
    for (const c of cards.values()) {
      if (c.gone) continue;
      const passed = (now - c.received) / 1000;
      let text = label(ctx, 'waiting_age', { age: (c.waiting_s + passed).toFixed(0) });
      if (typeof c.expires_in_s === 'number') {
        text += ' · ' + label(ctx, 'expires_in', { left: Math.max(0, c.expires_in_s - passed).toFixed(0) });
      }
      c.li.querySelector('.clock').textContent = text;
    }
  }

  const KEEP_GONE_MS = 15000;
  function prune(list) {
    // Withdrawn cards go only from the end: nothing waiting moves up under the cursor.
    const items = [...cards.entries()];
    for (let i = items.length - 1; i >= 0 && items[i][1].gone; i--) {
      if (Date.now() - items[i][1].gone < KEEP_GONE_MS) break;
      items[i][1].li.remove();
      cards.delete(items[i][0]);
    }
    if (list) list.querySelector('.none')?.remove();
    if (list && !cards.size) {
      const none = document.createElement('li');
      none.className = 'none';
      none.textContent = lastCtx ? label(lastCtx, 'none') : '';
      list.appendChild(none);
    }
  }
  let lastCtx = null;

  function gone(ctx, c, id) {
    c.gone = Date.now();
    c.li.classList.add('gone');
    for (const b of c.li.querySelectorAll('button')) b.disabled = true;
    const why = reasons[id];
    c.li.querySelector('.clock').textContent = label(ctx, why ? 'gone_' + why : 'gone');
  }

  function render(ctx, list, waiting) {
    const live = new Set(waiting.map((w) => w.id));
    for (const w of waiting) {
      let c = cards.get(w.id);
      if (!c) {
        c = { li: make(ctx, w) };
        cards.set(w.id, c);
        list.appendChild(c.li);
      }
      Object.assign(c, { received: Date.now(), waiting_s: w.waiting_s, expires_in_s: w.expires_in_s });
      for (const b of c.li.querySelectorAll('button')) b.disabled = !ctx.operator() || w.decided;
    }
    for (const [id, c] of cards) if (!live.has(id) && !c.gone) gone(ctx, c, id);
    lastCtx = ctx;
    prune(list);
    tick(ctx);
  }

  function withdrawn(ctx, d) {
    reasons[d.id] = d.why;
    const c = cards.get(d.id);
    if (c) gone(ctx, c, d.id);
  }

  return { render, withdrawn, tick, pending: () => [...cards.values()].filter((c) => !c.gone).length };
})();
