// sqslite dashboard: a queue's chart, drawn as SVG by the page itself (no library). It reads
// GET /_sqslite/queues/<name>/series: the queue's and its dead-letter queue's samples on the
// server clock, the named series about them (trigger mappings) and the alarm and fault marks.
// Loaded before app.js, whose helpers (h, api, where) it uses when a queue page draws.
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';
const CHART = { width: 960, height: 150, left: 52, right: 12, top: 12, bottom: 22 };
const MIN_SPAN_MS = 60000;

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) el.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

function clockTime(ms) { return new Date(ms).toISOString().slice(11, 19); }

/// The axis top: the maximum rounded up to 1, 2, 4, 6 or 8 times a power of ten, so that
/// the middle line of a count is a whole number too.
function niceMax(v) {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 4, 6, 8, 10].map((m) => m * p).find((m) => m >= v);
}

/// A step line: each value holds until the next sample, as a count does between readings.
function stepPath(points, x, y) {
  return points.map((p, i) => (i === 0 ? `M${x(p.t)},${y(p.v)}` : `H${x(p.t)}V${y(p.v)}`)).join('');
}

function markLabel(e) {
  const at = `${clockTime(e.t)} UTC`;
  if (e.kind === 'alarm') return `${at}: alarm ${e.alarm} ${e.state} on ${e.queue}`;
  if (e.label) return `${at}: ${e.kind} ${e.label}`;
  return `${at}: fault rule ${e.rule} hit ${e.action}${e.queue ? ` on ${e.queue}` : ''} ` +
    `${e.hits} time(s): ${e.effect}`;
}

function markClass(e) {
  if (e.kind === 'fault') return 'mark fault';
  if (e.kind === 'step') return 'mark step';
  return e.state === 'ALARM' ? 'mark alarm' : 'mark ok';
}

const MARK_ROW = 15;

/// An alarm mark's name on the chart; its title says the rest.
function markName(e) { return `${e.alarm} ${e.state}`; }

/// Each mark's row, the side its name is written on and, when others share its moment, its
/// place among them. A mark drawn where another is (the same moment, or a name running into
/// the next mark) would hide it: a green "back to OK" over the red firing. So a mark takes the
/// first row where it meets no other, a name that would leave the chart is written to the
/// left of its mark, and marks at one x dash their lines in turn, so each colour shows.
function placeMarks(marks, x) {
  const edge = CHART.width - CHART.right;
  const extents = marks.map((e) => {
    const px = Number(x(e.t));
    const text = e.kind === 'alarm' ? 9 + 6.5 * markName(e).length : 0;
    const left = text > 0 && px + 5 + text > edge;
    return { e, px, left, l: px - 5 - (left ? text : 0), r: px + 5 + (left ? 0 : text) };
  });
  const ends = [];
  for (const m of [...extents].sort((a, b) => a.l - b.l)) {
    m.row = ends.findIndex((end) => end < m.l);
    if (m.row < 0) m.row = ends.length;
    ends[m.row] = m.r;
  }
  return extents.map((m) => {
    const same = extents.filter((o) => Math.round(o.px) === Math.round(m.px));
    return { ...m, shared: same.length > 1 ? same.indexOf(m) : null };
  });
}

/// One panel: `lines` ({key, label, cls, points: [{t, v}]}) over [from, to], with the marks.
function chartPanel(title, lines, marks, from, to) {
  const { width, height, left, right, top, bottom } = CHART;
  const top_ = niceMax(Math.max(0, ...lines.flatMap((l) => l.points.map((p) => p.v))));
  const x = (t) => (left + ((t - from) / (to - from)) * (width - left - right)).toFixed(1);
  const y = (v) => (top + (1 - v / top_) * (height - top - bottom)).toFixed(1);
  const levels = Number.isInteger(top_ / 2) ? [0, top_ / 2, top_] : [0, top_];
  const grid = levels.map((v) => svg('g', { class: 'tick' },
    svg('line', { x1: left, x2: width - right, y1: y(v), y2: y(v) }),
    svg('text', { x: left - 6, y: y(v), dy: '0.32em', 'text-anchor': 'end' }, String(v))));
  const times = [0, 0.25, 0.5, 0.75, 1].map((f) => from + f * (to - from));
  const axis = times.map((t, i) => svg('text', { class: 'time', x: x(t), y: height - 6,
    'text-anchor': ['start', 'middle', 'middle', 'middle', 'end'][i] }, clockTime(t)));
  const paths = lines.filter((l) => l.points.length).map((l) => svg('path', {
    class: `line ${l.cls}`, d: stepPath(l.points, x, y), 'data-series': l.key,
    'data-points': l.points.length }, svg('title', {}, l.label)));
  const pins = placeMarks(marks, x).map(({ e, px, row, left, shared }) => {
    const py = top + row * MARK_ROW;
    const cls = `${markClass(e)}${shared === null ? '' : ` shared r${shared % 4}`}`;
    return svg('g', { class: cls, 'data-event': e.kind, 'data-t': e.t, 'data-x': x(e.t), 'data-row': row },
      svg('title', {}, markLabel(e)),
      svg('line', { x1: px, x2: px, y1: py, y2: height - bottom }),
      e.kind === 'fault' || e.kind === 'step'
        ? svg('rect', { x: px - 4, y: py - 4, width: 8, height: 8 })
        : svg('path', { d: `M${px - 5},${py - 5}h10l-5,8z` }),
      e.kind === 'alarm' ? svg('text', { class: 'mark-name', x: left ? px - 7 : px + 7, y: py, dy: '0.32em',
        'text-anchor': left ? 'end' : 'start' }, markName(e)) : null);
  });
  const latest = lines.map((l) => `${l.label} ${l.points.length ? l.points.at(-1).v : '–'}`).join(', ');
  return svg('svg', { class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img',
    'aria-label': `${title}: ${latest}`, 'data-chart': title },
  svg('title', {}, title), grid, axis, paths, pins);
}

/// [{t, v}] of one field of a queue's samples (an empty queue's age counts as 0).
function field(q, name) {
  return q ? q.samples.map((s) => ({ t: s.t, v: s[name] ?? 0 })) : [];
}

/// The panels of one read of the series endpoint.
function chartPanels(data) {
  const q = data.queue;
  const d = data.dead_letter_queue;
  const first = Math.min(data.now, ...[q, d].filter(Boolean).flatMap((x) => x.samples.map((s) => s.t)));
  const to = data.now;
  const from = Math.min(Math.max(first, to - data.window_ms), to - MIN_SPAN_MS);
  const marks = data.events.filter((e) => e.t >= from);
  const depth = [
    { key: 'queue.visible', label: `${q.name} visible`, cls: 's-visible', points: field(q, 'visible') },
    { key: 'queue.in_flight', label: `${q.name} in flight`, cls: 's-in-flight', points: field(q, 'in_flight') },
    { key: 'queue.delayed', label: `${q.name} delayed`, cls: 's-delayed', points: field(q, 'delayed') },
  ];
  const ages = [{ key: 'queue.oldest_age', label: `${q.name} oldest (s)`, cls: 's-visible',
    points: field(q, 'oldest_message_age_seconds') }];
  if (d) {
    depth.push({ key: 'dlq.visible', label: `${d.name} visible`, cls: 's-dlq', points: field(d, 'visible') });
    ages.push({ key: 'dlq.oldest_age', label: `${d.name} oldest (s)`, cls: 's-dlq',
      points: field(d, 'oldest_message_age_seconds') });
  }
  const panels = [['Messages', depth], ['Oldest message age, seconds', ages]];
  for (const named of data.series) {
    const fields = [...new Set(named.points.flatMap((p) => Object.keys(p).filter((k) => k !== 't')))];
    panels.push([named.name, fields.map((f, i) => ({ key: `${named.name}.${f}`, label: `${named.name} ${f}`,
      cls: f === 'errors' ? 's-errors' : `s-n${i % 3}`, points: named.points.map((p) => ({ t: p.t, v: p[f] ?? 0 })) }))]);
  }
  return { panels, marks, from, to };
}

function chartLegend(lines) {
  const item = (cls, label) => h('li', {}, h('span', { class: `swatch ${cls}` }), label);
  return h('ul', { class: 'legend' }, lines.map((l) => item(l.cls, l.label)),
    item('mark-alarm', 'alarm fired'), item('mark-ok', 'alarm back to OK'), item('mark-fault', 'fault injected'));
}

/// The chart section of a queue's page: `el` to place, `refresh()` to call on every update.
function queueChart(key) {
  const body = h('div', {}, h('p', { class: 'muted' }, 'Loading the chart…'));
  const el = h('section', { class: 'panel', id: 'chart' }, h('h2', {}, 'Over time'), body);
  async function refresh() {
    const data = await api('GET', `/_sqslite/queues/${encodeURIComponent(key.name)}/series?${where(key)}`);
    const { panels, marks, from, to } = chartPanels(data);
    const faults = marks.filter((e) => e.kind === 'fault').reduce((n, e) => n + e.hits, 0);
    const fired = marks.filter((e) => e.kind === 'alarm' && e.state === 'ALARM').length;
    body.replaceChildren(
      h('p', { class: 'muted' }, `Server clock${data.manual ? ' (manual: it moves when advanced)' : ''}, `,
        `${clockTime(from)} – ${clockTime(to)} UTC; one sample per ${data.interval_ms / 1000} s; `,
        `${fired} alarm firing(s) and ${faults} fault hit(s) marked.`),
      ...panels.map(([title, lines]) => h('figure', { class: 'chart' },
        h('figcaption', {}, title), chartPanel(title, lines, marks, from, to), chartLegend(lines))));
  }
  return { el, refresh };
}
