// sqslite dashboard: plain DOM, no framework. Every byte of data comes from the admin API
// under /_sqslite/ and is written with textContent (message bodies are untrusted).
'use strict';

const POLL_MS = 2000;
const main = document.getElementById('main');
const statusBox = document.getElementById('status');
let refreshView = null; // the current view's data refresher, called by the poller

// ---- helpers -------------------------------------------------------------------------
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

// The user guide, served by sqslite itself from the pages compiled into it (docs/src). Each
// guide('PAGE.md#anchor', ...) in these scripts is resolved against the built book by
// docs/tools/check_links.py, so a renamed page or heading fails CI.
const GUIDE = '/_sqslite/guide/';

/// A link to the guide's page that explains what a view shows, opened beside the dashboard.
function guide(page, text) {
  return h('a', { href: GUIDE + page, target: '_blank', rel: 'noopener', class: 'guide' }, text);
}

function say(message, isError) {
  statusBox.textContent = message;
  statusBox.className = isError ? 'error' : '';
}

async function api(method, path, body) {
  const headers = {};
  const token = sessionStorage.getItem('sqslite-token');
  if (token) headers.Authorization = 'Bearer ' + token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (response.status === 401) document.getElementById('token').hidden = false;
  if (!response.ok) throw new Error(data.error || `${method} ${path}: ${response.status}`);
  return data;
}

function where(q) {
  return `region=${encodeURIComponent(q.region)}&account=${encodeURIComponent(q.account)}`;
}

/// One of the dashboard's SQS actions, as the queue's region and account.
function sqs(q, action, input) {
  return api('POST', `/_sqslite/sqs/${action}?${where(q)}`, input);
}

function queueUrl(q) { return `/${q.account}/${q.name}`; }
function queueHref(q) { return `#/queue/${q.region}/${q.account}/${encodeURIComponent(q.name)}`; }

function age(seconds) {
  if (seconds === null || seconds === undefined) return '–';
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

function when(ms) { return ms ? new Date(ms).toISOString().replace('T', ' ').slice(0, 19) : '–'; }

function pretty(body) {
  try { return JSON.stringify(JSON.parse(body), null, 2); } catch { return body; }
}

function table(headings, rows, empty) {
  if (!rows.length) return h('p', { class: 'muted' }, empty);
  const head = h('tr', {}, headings.map(([t, cls]) => h('th', { scope: 'col', class: cls }, t)));
  return h('table', {}, h('thead', {}, head), h('tbody', {}, rows));
}

function num(n, hot) { return h('td', { class: hot && n > 0 ? 'num hot' : 'num' }, n); }

/// A region that re-renders on every refresh, leaving the forms around it alone.
function region() { return h('div', {}); }
function fill(el, ...children) {
  // Keyboard users keep their place: a region holding the focus waits for the next update.
  if (el.contains(document.activeElement) && el !== document.activeElement) return;
  el.replaceChildren(...children.flat());
}

async function act(label, work) {
  try {
    say(`${label}…`);
    await work();
    say(`${label}: done.`);
    await refresh();
  } catch (e) {
    say(`${label} failed: ${e.message}`, true);
  }
}

// ---- queues ---------------------------------------------------------------------------
function queuesView() {
  const list = region('queues');
  const wiring = region('dead-letter wiring');
  main.replaceChildren(
    h('h2', {}, 'Queues'), list,
    h('h2', {}, 'Dead-letter wiring'),
    h('p', { class: 'muted' }, 'Each source queue sends a message to its dead-letter queue after maxReceiveCount receives. ',
      guide('dead-letter-queues.md', 'Dead-letter queues and redrive')),
    wiring);
  return async () => {
    const { queues } = await api('GET', '/_sqslite/queues');
    const dlqs = new Set(queues.filter((q) => q.dead_letter_sources.length).map((q) => q.arn));
    fill(list, table(
      [['Queue'], ['Region'], ['Account'], ['Type'], ['Visible', 'num'], ['In flight', 'num'],
        ['Delayed', 'num'], ['Oldest message', 'num'], ['Dead-letter queue']],
      queues.map((q) => h('tr', { 'data-queue': q.name },
        h('td', {}, h('a', { href: queueHref(q) }, q.name), dlqs.has(q.arn) ? ' ' : null,
          dlqs.has(q.arn) ? h('span', { class: 'badge alarm' }, 'DLQ') : null),
        h('td', {}, q.region), h('td', {}, q.account), h('td', {}, q.fifo ? 'FIFO' : 'Standard'),
        num(q.visible, dlqs.has(q.arn)), num(q.in_flight), num(q.delayed),
        h('td', { class: 'num' }, age(q.oldest_message_age_seconds)),
        h('td', {}, q.dead_letter_target
          ? `${q.dead_letter_target.queue} (after ${q.dead_letter_target.max_receive_count})` : '–'))),
      'No queues yet: create one with any SQS client, or declare it in sqslite.toml.'));
    const byArn = new Map(queues.map((q) => [q.arn, q]));
    const edges = queues.filter((q) => q.dead_letter_target);
    fill(wiring, edges.length ? h('ul', { class: 'wiring' }, edges.map((q) => {
      const dlq = byArn.get(q.dead_letter_target.arn);
      return h('li', { class: 'edge' },
        h('a', { class: 'node', href: queueHref(q) }, q.name),
        h('span', { class: 'arrow' }, `── maxReceiveCount ${q.dead_letter_target.max_receive_count} ──▶`),
        dlq ? h('a', { class: 'node dlq', href: queueHref(dlq) }, `${dlq.name}: ${dlq.visible} waiting`)
          : h('span', { class: 'node dlq' }, `${q.dead_letter_target.queue} (missing)`));
    })) : h('p', { class: 'muted' }, 'No queue has a RedrivePolicy.'));
  };
}

// ---- one queue -------------------------------------------------------------------------
function queueView(regionName, account, name) {
  const key = { region: regionName, account, name };
  const base = `/_sqslite/queues/${encodeURIComponent(name)}`;
  const summary = region('summary');
  const dead = region('dead letters');
  const tasks = region('move tasks');
  const messages = region('messages');
  const attrs = region('attributes');
  const redrive = h('form', { class: 'inline', 'aria-label': 'Redrive' });
  const deadPanel = h('section', { class: 'panel', hidden: true },
    h('h2', {}, 'Dead letters'), dead, h('h3', {}, 'Redrive'),
    h('p', { class: 'muted' }, 'A move task sends each message back to its source, or to the queue you pick. ',
      guide('dead-letter-queues.md', 'How redrive works')), redrive, tasks);
  let info = null;
  const chart = queueChart(key); // chart.js

  const body = h('textarea', { id: 'send-body', 'aria-label': 'Message body' }, '{"hello": "world"}');
  const group = h('input', { id: 'send-group', size: 12 });
  const groupField = h('label', { class: 'field', hidden: true }, 'MessageGroupId', group);
  const send = h('form', { class: 'inline', onsubmit: (e) => { e.preventDefault(); sendTest(); } },
    h('label', { class: 'field' }, 'Body', body), groupField,
    h('button', { type: 'submit' }, 'Send test message'));
  const confirmBox = h('span', { hidden: true },
    h('span', { class: 'hot' }, 'Delete every message in this queue? '),
    h('button', { class: 'danger', type: 'button', onclick: () => purge() }, 'Yes, purge'), ' ',
    h('button', { type: 'button', onclick: () => { confirmBox.hidden = true; purgeButton.focus(); } }, 'Cancel'));
  const purgeButton = h('button', { class: 'danger', type: 'button',
    onclick: () => { confirmBox.hidden = false; confirmBox.querySelector('button').focus(); } }, 'Purge…');

  main.replaceChildren(
    h('p', {}, h('a', { href: '#/' }, '← All queues')),
    h('h2', {}, name, h('span', { class: 'muted' }, ` (${regionName}, ${account})`)), summary,
    deadPanel, chart.el,
    h('section', { class: 'panel' }, h('h2', {}, 'Send a test message'), send),
    h('section', { class: 'panel' }, h('h2', {}, 'Purge'), h('p', {}, purgeButton, ' ', confirmBox)),
    h('h2', {}, 'Messages'),
    h('p', { class: 'muted' }, 'A peek: looking does not receive, count or hide anything. ',
      guide('admin-api.md', 'The admin API')), messages,
    h('h2', {}, 'Attributes and tags'), attrs);

  async function sendTest() {
    const input = { QueueUrl: queueUrl(key), MessageBody: body.value };
    if (info && info.fifo) {
      input.MessageGroupId = group.value || 'dashboard';
      input.MessageDeduplicationId = String(Date.now());
    }
    await act('Send', () => sqs(key, 'SendMessage', input));
  }
  async function purge() {
    confirmBox.hidden = true;
    await act('Purge', () => sqs(key, 'PurgeQueue', { QueueUrl: queueUrl(key) }));
  }
  function buildRedrive(all) {
    const options = all.filter((q) => q.arn !== info.arn && q.region === key.region
      && q.account === key.account && q.fifo === info.fifo);
    const dest = h('select', { id: 'redrive-destination' },
      h('option', { value: '' }, "each message's source queue"),
      options.map((q) => h('option', { value: q.arn }, q.name)));
    const rate = h('input', { id: 'redrive-rate', type: 'number', min: 1, max: 500, size: 5,
      placeholder: 'no limit' });
    redrive.replaceChildren(
      h('label', { class: 'field' }, 'Move to', dest),
      h('label', { class: 'field' }, 'Messages per second', rate),
      h('button', { type: 'submit', id: 'redrive-start' }, 'Start redrive'));
    redrive.onsubmit = (e) => {
      e.preventDefault();
      const input = { SourceArn: info.arn };
      if (dest.value) input.DestinationArn = dest.value;
      if (rate.value) input.MaxNumberOfMessagesPerSecond = Number(rate.value);
      act('Start redrive', () => sqs(key, 'StartMessageMoveTask', input));
    };
  }

  return async () => {
    const q = await api('GET', `${base}?${where(key)}`);
    const firstTime = !info;
    info = q;
    groupField.hidden = !q.fifo;
    fill(summary, h('p', {},
      `${q.fifo ? 'FIFO' : 'Standard'} queue · ${q.visible} visible · ${q.in_flight} in flight · `,
      `${q.delayed} delayed · oldest ${age(q.oldest_message_age_seconds)}`,
      q.dead_letter_target ? ` · dead letters go to ${q.dead_letter_target.queue} after ${q.dead_letter_target.max_receive_count} receives` : ''));
    await chart.refresh();
    const isDlq = q.dead_letter_sources.length > 0;
    deadPanel.hidden = !isDlq;
    if (isDlq) {
      if (firstTime) buildRedrive((await api('GET', '/_sqslite/queues')).queues);
      await refreshDead(q);
    }
    const { messages: list } = await api('GET', `${base}/messages?${where(key)}`);
    fill(messages, table(
      [['Message'], ['State'], ['Receives', 'num'], ['Sent'], ['Attributes'], ['Body']],
      list.map((m) => h('tr', {},
        h('td', {}, h('code', {}, m.message_id),
          m.dead_letter_source_queue ? h('div', { class: 'muted' }, `from ${m.dead_letter_source_queue}`) : null),
        h('td', {}, m.state.replace('_', ' ')), h('td', { class: 'num' }, m.receive_count),
        h('td', {}, when(m.sent_at)),
        h('td', {}, Object.entries(m.message_attributes).map(([k, v]) =>
          h('div', {}, h('code', {}, k), ' = ', v.StringValue ?? '(binary)'))),
        h('td', {}, h('pre', {}, pretty(m.body))))),
      'No messages.'));
    fill(attrs,
      table([['Attribute'], ['Value']], Object.entries(q.attributes).map(([k, v]) =>
        h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, h('code', {}, v)))), 'No attributes.'),
      table([['Tag'], ['Value']], Object.entries(q.tags).map(([k, v]) =>
        h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, v))), 'No tags.'));
  };

  async function refreshDead(q) {
    const groups = await api('GET', `${base}/dead-letters?${where(key)}`);
    fill(dead,
      h('p', {}, `${groups.total} message(s) waiting in this dead-letter queue.`),
      h('h3', {}, 'By source queue'),
      table([['Source queue'], ['Messages', 'num']], groups.by_source.map((g) =>
        h('tr', {}, h('td', {}, g.source_queue), h('td', { class: 'num' }, g.count))), 'None.'),
      h('h3', {}, 'By body shape'),
      table([['Shape'], ['Messages', 'num'], ['Sample']], groups.by_shape.map((g) =>
        h('tr', {}, h('td', {}, h('code', {}, g.shape)), h('td', { class: 'num' }, g.count),
          h('td', {}, h('pre', {}, pretty(g.sample_body))))), 'None.'));
    const { Results: results = [] } = await sqs(key, 'ListMessageMoveTasks',
      { SourceArn: q.arn, MaxResults: 10 });
    fill(tasks, h('h3', {}, 'Move tasks'), table(
      [['Status'], ['Progress'], ['Destination'], ['Started'], ['']],
      results.map((t) => {
        const total = t.ApproximateNumberOfMessagesToMove || 0;
        const moved = t.ApproximateNumberOfMessagesMoved || 0;
        return h('tr', { 'data-task-status': t.Status },
          h('td', {}, t.Status, t.FailureReason ? ` (${t.FailureReason})` : ''),
          h('td', {}, h('progress', { max: Math.max(total, 1), value: moved, 'aria-label': 'moved' }),
            ` ${moved} of ${total}`),
          h('td', {}, t.DestinationArn ? t.DestinationArn.split(':').pop() : 'source queues'),
          h('td', {}, when(t.StartedTimestamp)),
          h('td', {}, t.Status === 'RUNNING' && t.TaskHandle ? h('button', { type: 'button',
            onclick: () => act('Cancel move task', () => sqs(key, 'CancelMessageMoveTask',
              { TaskHandle: t.TaskHandle })) }, 'Cancel') : ''));
      }), 'No move task has run from this queue.'));
  }
}

// ---- alarms, clock, faults -------------------------------------------------------------
/// A fault rule's effect and limits: everything but what it matches and its bookkeeping.
function effect(rule) {
  const { id, action, queue, hits, active_from: from, ...rest } = rule;
  return JSON.stringify(rest);
}

function gameDayView() {
  const alarms = region('alarms');
  const clock = region('clock');
  const faults = region('faults');
  const seconds = h('input', { id: 'advance-seconds', type: 'number', min: 0, value: 30, size: 6 });
  const advance = h('form', { class: 'inline', hidden: true, onsubmit: (e) => {
    e.preventDefault();
    act('Advance the clock', () => api('POST', '/_sqslite/clock/advance', { seconds: Number(seconds.value) }));
  } }, h('label', { class: 'field' }, 'Seconds', seconds), h('button', { type: 'submit' }, 'Advance'));
  const field = (label, id, attrs) => h('label', { class: 'field' }, label, h('input', { id, ...attrs }));
  const add = h('form', { class: 'inline', onsubmit: (e) => {
    e.preventDefault();
    const value = (id) => document.getElementById(id).value.trim();
    const rule = {};
    if (value('fault-action')) rule.action = value('fault-action');
    if (value('fault-queue')) rule.queue = value('fault-queue');
    if (value('fault-error')) rule.error = value('fault-error');
    if (value('fault-latency')) rule.latency_ms = Number(value('fault-latency'));
    if (value('fault-count')) rule.count = Number(value('fault-count'));
    act('Add fault rule', () => api('POST', '/_sqslite/faults', rule));
  } },
  field('Action', 'fault-action', { placeholder: 'any', size: 14 }),
  field('Queue', 'fault-queue', { placeholder: 'any', size: 12 }),
  field('Error', 'fault-error', { placeholder: 'ServiceUnavailable', size: 18 }),
  field('Latency (ms)', 'fault-latency', { type: 'number', min: 0, size: 6 }),
  field('Count', 'fault-count', { type: 'number', min: 1, size: 4, placeholder: 'all' }),
  h('button', { type: 'submit' }, 'Add rule'),
  h('button', { type: 'button', class: 'danger',
    onclick: () => act('Clear fault rules', () => api('DELETE', '/_sqslite/faults')) }, 'Clear all'));
  main.replaceChildren(
    h('h2', {}, 'Alarms'),
    h('p', { class: 'muted' }, guide('alarms-and-metrics.md#alarms', 'What each alarm watches')), alarms,
    h('h2', {}, 'Clock'),
    h('p', { class: 'muted' }, guide('clock-and-faults.md#time-control', 'Time control')), clock, advance,
    h('h2', {}, 'Fault rules'),
    h('p', { class: 'muted' }, 'SDKs retry failed calls: set AWS_MAX_ATTEMPTS=1 in the application to see each fault. ',
      guide('clock-and-faults.md#fault-injection', 'Fault injection')),
    faults, add);
  return async () => {
    const [a, c, f] = await Promise.all([api('GET', '/_sqslite/alarms'),
      api('GET', '/_sqslite/clock'), api('GET', '/_sqslite/faults')]);
    fill(alarms, table([['Alarm'], ['Queue'], ['State'], ['Value', 'num'], ['Threshold', 'num'], ['Why'], ['Last fired']],
      a.alarms.map((x) => h('tr', {}, h('td', {}, x.kind), h('td', {}, x.queue),
        h('td', {}, h('span', { class: x.state === 'ALARM' ? 'badge alarm' : 'badge ok' }, x.state)),
        h('td', { class: 'num' }, x.value), h('td', { class: 'num' }, x.threshold),
        h('td', {}, x.reason), h('td', {}, when(x.last_fired_at)))), 'No alarms.'));
    fill(clock, h('p', {}, `Server time ${when(c.now)} UTC, `,
      c.manual ? 'manual: it moves only when advanced.' : 'system clock (start with --clock manual to control it).'));
    advance.hidden = !c.manual;
    fill(faults, table([['Rule', 'num'], ['Matches'], ['Effect'], ['Hits', 'num'], ['']],
      f.faults.map((r) => h('tr', {}, h('td', { class: 'num' }, r.id),
        h('td', {}, `${r.action || 'any action'} on ${r.queue || 'any queue'}`),
        h('td', {}, h('code', {}, effect(r))), h('td', { class: 'num' }, r.hits ?? ''),
        h('td', {}, h('button', { type: 'button',
          onclick: () => act(`Remove rule ${r.id}`, () => api('DELETE', `/_sqslite/faults/${r.id}`)) }, 'Remove')))),
      'No fault rules: every call is answered normally.'));
  };
}

// ---- the dead-letter advisor ----------------------------------------------------------------
const SEVERITY_BADGE = { error: 'badge alarm', warn: 'badge warn', info: 'badge ok' };

/// GET /_sqslite/advice as a table: one finding per broken rule, with its fix to paste.
function adviceView() {
  const findings = region();
  main.replaceChildren(
    h('h2', {}, 'Advice'),
    h('p', { class: 'muted' }, 'Each queue checked against the dead-letter pattern with the traffic ' +
      'sqslite has seen (the same findings as `sqslite doctor`). ', guide('advisor.md', 'The rules')),
    findings);
  return async () => {
    const advice = await api('GET', '/_sqslite/advice');
    fill(findings, table([['Severity'], ['Queue'], ['Rule'], ['Finding'], ['Fix']],
      advice.findings.map((f) => h('tr', {},
        h('td', {}, h('span', { class: SEVERITY_BADGE[f.severity] || 'badge' }, f.severity)),
        h('td', {}, f.topic ? `${f.topic} → ${f.queue}` : f.queue), h('td', {}, h('code', {}, f.rule)), h('td', {}, f.message),
        h('td', {}, f.fix.summary, ...f.fix.commands.map((c) => h('pre', {}, h('code', {}, c)))))),
      `No findings: all ${advice.queues} queues follow the dead-letter pattern.`));
  };
}

// ---- routing and live updates ------------------------------------------------------------
let busy = false;
async function refresh() {
  if (!refreshView || busy) return;
  busy = true;
  try {
    await refreshView();
    document.getElementById('updated').textContent = `updated ${new Date().toLocaleTimeString()}`;
    if (statusBox.classList.contains('error') && statusBox.textContent.startsWith('Cannot')) say('');
  } catch (e) {
    say(`Cannot reach the admin API: ${e.message}`, true);
  } finally {
    busy = false;
  }
}

function route() {
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (parts[0] === 'queue' && parts.length === 4) refreshView = queueView(parts[1], parts[2], parts[3]);
  else if (parts[0] === 'game-day') refreshView = gameDayView();
  else if (parts[0] === 'advice') refreshView = adviceView();
  else if (parts[0] === 'topics') refreshView = topicsView();
  else if (parts[0] === 'triggers') refreshView = triggersView();
  else if (parts[0] === 'buckets') refreshView = bucketsView();
  else refreshView = queuesView();
  say('');
  refresh();
}

document.getElementById('token').addEventListener('submit', (e) => {
  e.preventDefault();
  sessionStorage.setItem('sqslite-token', document.getElementById('token-value').value);
  e.target.hidden = true;
  refresh();
});
window.addEventListener('hashchange', () => { route(); main.focus(); });
setInterval(() => {
  // No polling while the tab is hidden, nor while the token form waits (no 401 every 2 s).
  const waiting = !document.getElementById('token').hidden;
  if (document.getElementById('live').checked && !document.hidden && !waiting) refresh();
}, POLL_MS);
route();
