// sqslite drill report: the verdict, each queue's timeline on the server clock with the
// drill's steps, faults and alarms marked, and the dead letters grouped by body shape. Drawn
// by the dashboard's own chart code (chart.js, included before this) from the DRILL data.
'use strict';

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  return e;
}

function casesTable(cases) {
  return el('table', { id: 'cases' },
    el('thead', {}, el('tr', {}, el('th', {}, 'Result'), el('th', {}, 'Check'), el('th', {}, 'Measured'))),
    el('tbody', {}, cases.map((c) => el('tr', { 'data-case': c.name, class: c.passed ? 'pass' : 'fail' },
      el('td', {}, el('span', { class: c.passed ? 'badge ok' : 'badge alarm' }, c.passed ? 'PASS' : 'FAIL')),
      el('td', {}, c.name), el('td', {}, c.detail)))));
}

function legend(lines) {
  const item = (cls, label) => el('li', {}, el('span', { class: `swatch ${cls}` }), label);
  return el('ul', { class: 'legend' }, lines.map((l) => item(l.cls, l.label)),
    item('mark-step', 'step'), item('mark-fault', 'fault injected'),
    item('mark-alarm', 'alarm fired'), item('mark-ok', 'alarm back to OK'));
}

function queueFigures(q, marks, from, to) {
  const field = (name) => q.samples.map((s) => ({ t: s.t, v: s[name] ?? 0 }));
  const depth = [
    { key: `${q.name}.visible`, label: `${q.name} visible`, cls: 's-visible', points: field('visible') },
    { key: `${q.name}.in_flight`, label: `${q.name} in flight`, cls: 's-in-flight', points: field('in_flight') },
    { key: `${q.name}.delayed`, label: `${q.name} delayed`, cls: 's-delayed', points: field('delayed') },
  ];
  const age = [{ key: `${q.name}.oldest_age`, label: `${q.name} oldest (s)`, cls: 's-dlq',
    points: field('oldest_message_age_seconds') }];
  return [[`Messages: ${q.name}`, depth], [`Oldest message age, seconds: ${q.name}`, age]].map(([title, lines]) =>
    el('figure', { class: 'chart', 'data-queue': q.name },
      el('figcaption', {}, title), chartPanel(title, lines, marks, from, to), legend(lines)));
}

function deadLetters(groups) {
  if (!groups.length) return el('p', { class: 'muted' }, 'No dead letters when the drill ended.');
  return groups.map((g) => el('section', { 'data-dead-letters': g.queue },
    el('h3', {}, `${g.queue}: ${g.total} message(s)`),
    el('table', {}, el('thead', {}, el('tr', {}, el('th', {}, 'Count'), el('th', {}, 'Body shape'), el('th', {}, 'Sample'))),
      el('tbody', {}, g.by_shape.map((s) => el('tr', {}, el('td', {}, String(s.count)),
        el('td', {}, el('code', {}, s.shape)), el('td', {}, el('code', {}, s.sample_body))))))));
}

function render(d) {
  const to = Math.max(d.to, d.from + 1000);
  const marks = d.marks.filter((m) => m.kind !== 'expectation');
  document.getElementById('verdict').replaceChildren(
    el('span', { class: d.passed ? 'badge ok' : 'badge alarm' }, d.passed ? 'PASSED' : 'FAILED'),
    ` ${d.cases.filter((c) => c.passed).length} of ${d.cases.length} checks held · run ${d.run} · `,
    `server clock ${d.manual ? '(manual, moved by the drill) ' : ''}${clockTime(d.from)} – ${clockTime(to)} UTC`);
  document.getElementById('checks').replaceChildren(casesTable(d.cases));
  // An alarm belongs to its queue: on another queue's chart it would say that queue paged.
  const own = (q) => marks.filter((m) => m.kind !== 'alarm' || m.queue === q.name);
  document.getElementById('timeline').replaceChildren(...d.queues.flatMap((q) => queueFigures(q, own(q), d.from, to)));
  document.getElementById('dead-letters').replaceChildren(...[deadLetters(d.dead_letters)].flat());
}

render(DRILL);
