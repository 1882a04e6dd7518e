// A drill's --report page in a real browser: the page the drill writes (one file, nothing
// fetched) renders its checks, draws each queue's timeline with the dashboard's chart code,
// puts the marks where the events were, and logs no console error.
//
//   SQSLITE_BIN=target/release/sqslite node --test ui-test/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = process.env.SQSLITE_BIN || join(root, 'target/release/sqslite');
const shots = process.env.UI_SCREENSHOTS || join(root, 'target/ui-test');
let browser;
const errors = [];
const requests = [];

/** Runs a drill file with --serve and --report; the report's path and the drill's exit code. */
function report(drill) {
  const out = join(mkdtempSync(join(tmpdir(), 'sqslite-report-')), 'report.html');
  let status = 0;
  try {
    execFileSync(bin, ['drill', 'run', join(root, drill), '--serve', '--report', out], { cwd: root, stdio: 'pipe' });
  } catch (e) {
    status = e.status;
  }
  return { out, status };
}

async function open(path) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => { if (!r.url().startsWith('file:')) requests.push(r.url()); });
  await page.goto(pathToFileURL(path).href);
  return page;
}

before(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
});

after(async () => {
  await browser?.close();
});

test('a passing drill\'s report shows its checks and marks its steps and alarms where they happened', async () => {
  const { out, status } = report('examples/game-days/poison.toml');
  assert.equal(status, 0);
  const html = readFileSync(out, 'utf8');
  assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+href=/, 'self-contained: no external script or stylesheet');
  const page = await open(out);
  const data = await page.evaluate(() => DRILL);
  const rows = page.locator('#cases tbody tr');
  assert.equal(await rows.count(), data.cases.length);
  assert.equal(await page.locator('#cases tr.fail').count(), 0);
  assert.match(await page.locator('#verdict').innerText(), /PASSED/);
  // One chart per queue and measure, each drawn with lines.
  const charts = page.locator('svg.chart');
  assert.equal(await charts.count(), 2 * data.queues.length);
  const dlq = page.locator('figure[data-queue="payments-dlq"] svg.chart').first();
  assert.ok(await dlq.locator('path.line').count() >= 1);
  // The DLQ-depth alarm is marked where the DLQ first held the poison, to within one look:
  // the drill reads the queues and then the alarms, so a move between the two reads shows in
  // the alarms one look before it shows in the depth (the poison drill looks once per server
  // second).
  const samples = data.queues.find((q) => q.name === 'payments-dlq').samples;
  const first = samples.find((s) => s.visible + s.in_flight > 0);
  const fired = dlq.locator('g[data-event="alarm"]');
  const times = await fired.evaluateAll((gs) => gs.map((g) => Number(g.dataset.t)));
  const alarm = data.marks.filter((m) => m.kind === 'alarm' && m.alarm === 'dlq_depth' && m.state === 'ALARM');
  assert.equal(alarm.length, 1, JSON.stringify(data.marks));
  assert.ok(times.includes(alarm[0].t), `the dlq_depth mark drawn at ${alarm[0].t}; marks at ${times}`);
  assert.ok(Math.abs(alarm[0].t - first.t) <= 1000,
    `the dlq_depth alarm at ${alarm[0].t}, within one look of the DLQ's first message at ${first.t}`);
  // Each step is marked at the time the drill ran it, inside the chart's span.
  const steps = await dlq.locator('g[data-event="step"]').evaluateAll((gs) => gs.map((g) => [Number(g.dataset.t), Number(g.dataset.x)]));
  const wanted = data.marks.filter((m) => m.kind === 'step').map((m) => m.t);
  assert.deepEqual(steps.map(([t]) => t), wanted);
  for (const [, x] of steps) assert.ok(x >= 52 && x <= 948, `step mark at x=${x}`);
  // The dead letters, grouped by body shape.
  assert.match(await page.locator('[data-dead-letters="payments-dlq"]').innerText(), /invalid JSON/);
  await page.screenshot({ path: join(shots, 'drill-report.png'), fullPage: true });
  await page.close();
});

test('a failed drill\'s report names the failed expectation with its measured value', async () => {
  const { out, status } = report('examples/game-days/sabotaged/stall-alarm-off.toml');
  assert.equal(status, 1);
  const page = await open(out);
  assert.match(await page.locator('#verdict').innerText(), /FAILED/);
  const failed = page.locator('#cases tr.fail');
  assert.equal(await failed.count(), 1);
  assert.match(await failed.innerText(), /the stall alarm pages after 2 minutes of flat deletes/);
  assert.match(await failed.innerText(), /budget of 130 s/);
  await page.close();
});

/** The boxes of what each mark draws above its line (head and name), per mark. */
function markBoxes(svgEl) {
  return [...svgEl.querySelectorAll('g.mark')].map((g) => [...g.children]
    .filter((c) => !['title', 'line'].includes(c.tagName))
    .map((c) => { const b = c.getBoundingClientRect(); return { l: b.left, r: b.right, t: b.top, b: b.bottom }; }));
}

/** Pairs of marks whose heads or names overlap. */
function overlaps(marks) {
  const hit = (a, b) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
  const found = [];
  marks.forEach((m, i) => marks.slice(i + 1).forEach((o, j) => {
    if (m.some((a) => o.some((b) => hit(a, b)))) found.push([i, i + 1 + j]);
  }));
  return found;
}

test('each alarm mark names its alarm on its own queue\'s chart, and marks at one moment stay readable', async () => {
  const { out, status } = report('examples/game-days/poison.toml');
  assert.equal(status, 0);
  const page = await open(out);
  const figures = await page.locator('figure[data-queue]').evaluateAll((figs) => figs.map((f) => ({
    queue: f.dataset.queue,
    alarms: [...f.querySelectorAll('g[data-event="alarm"]')].map((g) => ({
      title: g.querySelector('title').textContent, name: g.querySelector('text.mark-name')?.textContent })),
  })));
  const named = figures.flatMap((f) => f.alarms);
  assert.ok(named.some((a) => a.name === 'dlq_depth ALARM'), JSON.stringify(figures));
  for (const f of figures) {
    for (const a of f.alarms) {
      assert.ok(a.title.endsWith(` on ${f.queue}`), `${a.title} drawn on ${f.queue}'s chart`);
      assert.ok(a.name && a.title.includes(a.name), `${a.title} shows its name: ${a.name}`);
    }
  }
  // The drill's two steps run at one moment of its clock: their marks must not cover each other.
  const clashes = await page.locator('svg.chart').evaluateAll((svgs, src) => {
    const f = new Function(`return (${src})`)();
    return svgs.map((s) => f(s));
  }, `(s) => (${overlaps.toString()})((${markBoxes.toString()})(s))`);
  assert.deepEqual(clashes.filter((c) => c.length), [], 'marks overlapping in a chart');
  // A firing and its clearing at one moment: both heads and names readable, both lines seen.
  const one = await page.evaluate((src) => {
    const f = new Function(`return (${src})`)();
    const at = DRILL.from + 1000;
    const marks = [{ kind: 'alarm', t: at, alarm: 'stall', state: 'ALARM', queue: 'q' },
      { kind: 'alarm', t: at, alarm: 'stall', state: 'OK', queue: 'q' },
      { kind: 'step', t: at, label: 'a step' }];
    const panel = chartPanel('one moment', [], marks, DRILL.from, DRILL.from + 60000);
    document.body.append(panel);
    const lines = [...panel.querySelectorAll('g.mark line')].map((l) => getComputedStyle(l).strokeDashoffset);
    return { clashes: f(panel), lines };
  }, `(s) => (${overlaps.toString()})((${markBoxes.toString()})(s))`);
  assert.deepEqual(one.clashes, [], 'marks at one moment overlap');
  assert.equal(new Set(one.lines).size, 3, `each line dashed in its turn: ${one.lines}`);
  await page.close();
});

test('the report pages log no console error and fetch nothing', () => {
  assert.deepEqual(errors, []);
  assert.deepEqual(requests, []);
});
