// The dashboard in a real browser: Debian's chromium, driven by playwright-core, against the
// real sqslite binary. A dead-lettered message must show up, a redrive started with the
// page's own button must empty the dead-letter queue, a queue's chart must draw its series and
// marks, an SNS topic's page must show its subscriptions and explain why a sample message
// is filtered out, the Triggers page must show a mapping's figures and switch it off and
// on, the Buckets page must show a bucket's rule and a failed event delivery with why, and
// a view's link must open the guide's page that explains it, with no console error.
//
//   SQSLITE_BIN=target/release/sqslite node --test ui-test/
//   UI_SCREENSHOTS=docs/src/images ...   also refreshes the guide's screenshots
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = process.env.SQSLITE_BIN || join(root, 'target/release/sqslite');
const shots = process.env.UI_SCREENSHOTS || join(root, 'target/ui-test');
const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const CONFIG = `
[[queues]]
name = "orders-dlq"

[[queues]]
name = "orders"
dead_letter_queue = "orders-dlq"
max_receive_count = 1
VisibilityTimeout = 0
tags = { team = "payments" }

[[queues]]
name = "audit.fifo"
region = "eu-west-1"
FifoQueue = true
`;

let endpoint, browser;
const servers = [];
const functions = [];
const consoleErrors = [];

/** Starts sqslite on a free port; resolves with its endpoint from the "listening on" line. */
function startServer(extra = [], text = CONFIG) {
  const dir = mkdtempSync(join(tmpdir(), 'sqslite-ui-'));
  const config = join(dir, 'sqslite.toml');
  writeFileSync(config, text);
  const server = spawn(bin, ['--config', config, '--port', '0', ...extra], {
    env: { ...process.env, NO_COLOR: '1', SQSLITE_LOG: 'info' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`sqslite did not start: ${seen}`)), 30000);
    server.stderr.on('data', (chunk) => {
      seen += chunk;
      const m = seen.match(/listening on (http:\/\/\S+)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    server.on('exit', (code) => reject(new Error(`sqslite exited ${code}: ${seen}`)));
    servers.push(server);
  });
}

/** One SQS call in AWS JSON 1.0, as an SDK would make it. */
async function sqs(action, input) {
  const r = await fetch(endpoint, {
    method: 'POST',
    headers: { 'X-Amz-Target': `AmazonSQS.${action}`, 'Content-Type': 'application/x-amz-json-1.0' },
    body: JSON.stringify(input),
  });
  const body = await r.json();
  assert.ok(r.ok, `${action}: ${JSON.stringify(body)}`);
  return body;
}

/** One SNS call in AWS Query, as the SDKs send it; answers the XML text. */
async function sns(params) {
  const r = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ Version: '2010-03-31', ...params }),
  });
  const text = await r.text();
  assert.ok(r.ok, `${params.Action}: ${text}`);
  return text;
}

async function depth(name) {
  const r = await fetch(`${endpoint}/_sqslite/queues/${name}`);
  return (await r.json()).visible;
}

before(async () => {
  endpoint = await startServer();
  const url = `${endpoint}/000000000000/orders`;
  await sqs('SendMessage', { QueueUrl: url, MessageBody: '{"order": 17, <<not json' });
  await sqs('SendMessage', { QueueUrl: url, MessageBody: '{"order": 18, "total": 5}' });
  // maxReceiveCount 1, visibility 0: the second receive of a message dead-letters it.
  for (let i = 0; i < 4; i++) await sqs('ReceiveMessage', { QueueUrl: url, MaxNumberOfMessages: 10 });
  assert.equal(await depth('orders-dlq'), 2, 'two messages dead-lettered before the browser starts');
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS });
  mkdirSync(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  for (const s of servers) s.kill();
  for (const f of functions) f.close();
});

/** A fresh page whose console errors are collected, except those `expected` matches. */
async function newPage(expected) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  page.on('console', (m) => {
    if (m.type() === 'error' && !(expected && expected.test(m.text()))) consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  return page;
}

test('GET / from a browser opens the dashboard, which lists the declared queues', async () => {
  const page = await newPage();
  await page.goto(`${endpoint}/`);
  assert.equal(new URL(page.url()).pathname, '/_sqslite/ui');
  for (const name of ['orders', 'orders-dlq', 'audit.fifo']) {
    await page.locator(`tr[data-queue="${name}"]`).waitFor({ timeout: 10000 });
  }
  const dlqRow = page.locator('tr[data-queue="orders-dlq"]');
  assert.match(await dlqRow.innerText(), /DLQ/);
  assert.match(await page.locator('.wiring').innerText(), /orders\s*── maxReceiveCount 1 ──▶\s*orders-dlq: 2 waiting/);
  await page.screenshot({ path: join(shots, 'dashboard-queues.png'), fullPage: true });
  await page.close();
});

test('the dead-letter queue page groups its messages and a redrive from the page empties it', async () => {
  const page = await newPage();
  await page.goto(`${endpoint}/_sqslite/ui`);
  await page.getByRole('link', { name: 'orders-dlq', exact: true }).first().click();
  await page.getByText('2 message(s) waiting in this dead-letter queue.').waitFor({ timeout: 10000 });
  const panel = await page.locator('section.panel').first().innerText();
  assert.match(panel, /invalid JSON/);
  assert.match(panel, /\{"order", "total"\}/);
  assert.match(await page.locator('main').innerText(), /<<not json/);
  await page.screenshot({ path: join(shots, 'dashboard-dead-letters.png'), fullPage: true });
  await page.locator('#redrive-start').click();
  await page.locator('tr[data-task-status="COMPLETED"]').waitFor({ timeout: 15000 });
  assert.equal(await depth('orders-dlq'), 0, 'the DLQ is empty after the redrive');
  assert.equal(await depth('orders'), 2, 'both messages are back in their source queue');
  await page.getByText('0 message(s) waiting').waitFor({ timeout: 10000 });
  await page.close();
});

test('a test message sent from the queue page shows in its peek', async () => {
  const page = await newPage();
  await page.goto(`${endpoint}/_sqslite/ui#/queue/eu-west-1/000000000000/audit.fifo`);
  await page.locator('#send-body').fill('{"audit": "from the browser"}');
  await page.getByRole('button', { name: 'Send test message' }).click();
  await page.getByText('"audit": "from the browser"').waitFor({ timeout: 10000 });
  await page.close();
});

test('a queue page charts it and its dead-letter queue over server time, with alarm and fault marks', async () => {
  const url = `${endpoint}/000000000000/orders`;
  const rule = { action: 'SendMessage', queue: 'orders', error: 'RequestThrottled', count: 1 };
  const added = await fetch(`${endpoint}/_sqslite/faults`,
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(rule) });
  assert.equal(added.status, 201);
  const throttled = await fetch(endpoint, {
    method: 'POST',
    headers: { 'X-Amz-Target': 'AmazonSQS.SendMessage', 'Content-Type': 'application/x-amz-json-1.0' },
    body: JSON.stringify({ QueueUrl: url, MessageBody: 'throttled' }),
  });
  assert.equal(throttled.status, 403, 'the fault rule answered the send (RequestThrottled)');
  const page = await newPage();
  await page.goto(`${endpoint}/_sqslite/ui#/queue/us-east-1/000000000000/orders`);
  const chart = page.locator('#chart');
  // A flat line has no height, which Playwright counts as hidden: attached is what is checked.
  await chart.locator('path[data-series="dlq.visible"]').waitFor({ state: 'attached', timeout: 10000 });
  for (const series of ['queue.visible', 'queue.in_flight', 'queue.delayed', 'dlq.visible',
    'queue.oldest_age', 'dlq.oldest_age']) {
    assert.equal(await chart.locator(`path[data-series="${series}"]`).count(), 1, series);
  }
  // The DLQ's alarm fired when the first messages were dead-lettered, before the page opened.
  const fired = chart.locator('svg[data-chart="Messages"] [data-event="alarm"]', { hasText: 'dlq_depth ALARM on orders-dlq' });
  await fired.first().waitFor({ state: 'attached', timeout: 10000 });
  const fault = chart.locator('svg[data-chart="Messages"] [data-event="fault"]');
  assert.match(await fault.first().textContent(), /fault rule \d+ hit SendMessage on orders 1 time\(s\): RequestThrottled/);
  // Live: new messages show as a new sample of the next 2 s slot.
  for (let i = 0; i < 3; i++) await sqs('SendMessage', { QueueUrl: url, MessageBody: `{"order": ${20 + i}}` });
  await page.waitForFunction(() => {
    const line = document.querySelector('#chart path[data-series="queue.visible"]');
    return line && Number(line.dataset.points) >= 2 && /visible 5/.test(line.closest('svg').getAttribute('aria-label'));
  }, null, { timeout: 15000 });
  await page.close();
});

test('on a manual clock the chart follows the server clock through a drill', async () => {
  const drill = await startServer(['--clock', 'manual']);
  const call = async (method, path, body) => {
    const r = await fetch(`${drill}${path}`, { method, headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body) });
    return r.json();
  };
  const sqsAt = (action, input) => fetch(drill, { method: 'POST', body: JSON.stringify(input),
    headers: { 'X-Amz-Target': `AmazonSQS.${action}`, 'Content-Type': 'application/x-amz-json-1.0' } });
  const url = `${drill}/000000000000/orders`;
  const page = await newPage();
  await page.goto(`${drill}/_sqslite/ui#/queue/us-east-1/000000000000/orders`);
  await page.locator('#chart path[data-series="queue.visible"]').waitFor({ state: 'attached', timeout: 10000 });
  // Six 30-second steps: orders fill up, a consumer takes some (each second receive
  // dead-letters: maxReceiveCount 1), a fault rule throttles the sends of one step.
  for (let step = 0; step < 6; step++) {
    if (step === 3) await call('POST', '/_sqslite/faults', { action: 'SendMessage', queue: 'orders', error: 'RequestThrottled', count: 2 });
    for (let i = 0; i < 3; i++) await sqsAt('SendMessage', { QueueUrl: url, MessageBody: `{"step": ${step}}` });
    if (step % 2 === 1) await sqsAt('ReceiveMessage', { QueueUrl: url, MaxNumberOfMessages: 4 });
    await call('GET', '/_sqslite/alarms');
    await call('POST', '/_sqslite/clock/advance', { seconds: 30 });
    // The chart's own read samples the queue at this server instant (the ticker may be later).
    await call('GET', '/_sqslite/queues/orders/series');
  }
  const { now } = await call('GET', '/_sqslite/clock');
  const last = new Date(now).toISOString().slice(11, 19);
  await page.waitForFunction((t) => {
    const labels = [...document.querySelectorAll('#chart svg[data-chart="Messages"] text.time')];
    const line = document.querySelector('#chart path[data-series="queue.visible"]');
    return labels.at(-1)?.textContent === t && Number(line?.dataset.points) >= 7;
  }, last, { timeout: 15000 });
  const caption = await page.locator('#chart p').first().innerText();
  assert.match(caption, /manual/);
  assert.equal(await page.locator('#chart svg[data-chart="Messages"] [data-event="fault"]').count(), 1);
  await page.locator('#chart').screenshot({ path: join(shots, 'dashboard-chart.png') });
  await page.close();
});

test('alarms, clock and fault rules have their page', async () => {
  const page = await newPage();
  await page.goto(`${endpoint}/_sqslite/ui#/game-day`);
  await page.getByText('dlq_depth').first().waitFor({ timeout: 10000 });
  await page.locator('#fault-action').fill('SendMessage');
  await page.locator('#fault-error').fill('ServiceUnavailable');
  await page.getByRole('button', { name: 'Add rule' }).click();
  await page.getByText('SendMessage on any queue').waitFor({ timeout: 10000 });
  await page.screenshot({ path: join(shots, 'dashboard-game-day.png'), fullPage: true });
  await page.getByRole('button', { name: 'Clear all' }).click();
  await page.getByText('No fault rules').waitFor({ timeout: 10000 });
  await page.close();
});

test('a view links to the guide page that explains it, served by sqslite itself', async () => {
  const page = await newPage();
  await page.goto(`${endpoint}/_sqslite/ui#/game-day`);
  const link = page.getByRole('link', { name: 'Fault injection' });
  await link.waitFor({ timeout: 10000 });
  const href = await link.getAttribute('href');
  assert.equal(href, '/_sqslite/guide/clock-and-faults.md#fault-injection');
  const opened = page.context().waitForEvent('page');
  await link.click();
  const guide = await opened;
  guide.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  await guide.waitForLoadState();
  assert.equal(new URL(guide.url()).pathname, '/_sqslite/guide/clock-and-faults.md');
  assert.equal(await guide.locator('#fault-injection').textContent(), 'Fault injection');
  // Its stylesheet is the dashboard's: the guide's CSP lets it load.
  assert.equal(await guide.locator('body').evaluate((b) => getComputedStyle(b).margin), '0px');
  // The contents beside the page lead to another page, marked there as the current one.
  const contents = guide.getByRole('navigation', { name: 'Contents' });
  await contents.getByRole('link', { name: 'Configuration reference' }).click();
  await guide.locator('#server-settings').waitFor({ timeout: 10000 });
  assert.equal(await contents.locator('a[aria-current="page"]').textContent(), 'Configuration reference');
  // The search needs no script: a form GET answered by a page of results.
  await guide.getByRole('searchbox', { name: 'Search the guide' }).fill('visibility timeout');
  await guide.getByRole('button', { name: 'Search' }).click();
  await guide.locator('ol.results li').first().waitFor({ timeout: 10000 });
  assert.match(await guide.locator('#main').textContent(), /page\(s\) hold visibility timeout/);
  await guide.locator('ol.results a', { hasText: 'SQS compatibility' }).click();
  await guide.locator('#supported-actions').waitFor({ timeout: 10000 });
  await guide.close();
  await page.close();
});

test('with --admin-token the page asks for the token once; a manual clock can be advanced', async () => {
  const guarded = await startServer(['--admin-token', 's3cret', '--clock', 'manual']);
  // The page's first requests, before the token is given, are answered 401: expected.
  const page = await newPage(/status of 401/);
  await page.goto(`${guarded}/_sqslite/ui#/game-day`);
  await page.locator('#token-value').fill('s3cret');
  await page.getByRole('button', { name: 'Use token' }).click();
  await page.getByText('manual: it moves only when advanced').waitFor({ timeout: 10000 });
  const now = async () => (await (await fetch(`${guarded}/_sqslite/clock`,
    { headers: { Authorization: 'Bearer s3cret' } })).json()).now;
  const before = await now();
  await page.locator('#advance-seconds').fill('90');
  await page.getByRole('button', { name: 'Advance' }).click();
  await page.getByText('Advance the clock: done.').waitFor({ timeout: 10000 });
  assert.equal(await now() - before, 90000);
  // The guide has no data in it, so it asks for no token, as the page's own files do.
  const answer = await fetch(`${guarded}/_sqslite/guide/security.md`);
  assert.equal(answer.status, 200);
  await page.close();
});

test('the advice page shows the advisor\'s findings with their fixes', async () => {
  const page = await newPage();
  await page.goto(`${endpoint}/_sqslite/ui#/advice`);
  // orders dead-letters on its first redelivery: maxReceiveCount 1 is a hair trigger.
  const row = page.locator('tr', { hasText: 'max_receive_count' });
  await row.waitFor({ timeout: 10000 });
  assert.match(await row.innerText(), /orders/);
  assert.match(await row.innerText(), /aws sqs set-queue-attributes/);
  await page.close();
});

test('the topics page shows subscriptions with their counts and explains a filtered-out sample', async () => {
  await sns({ Action: 'CreateTopic', Name: 'news' });
  const topic = 'arn:aws:sns:us-east-1:000000000000:news';
  const queue = (name) => `arn:aws:sqs:us-east-1:000000000000:${name}`;
  await sns({ Action: 'Subscribe', TopicArn: topic, Protocol: 'sqs', Endpoint: queue('orders-dlq') });
  await sns({ Action: 'Subscribe', TopicArn: topic, Protocol: 'sqs', Endpoint: queue('orders'),
    'Attributes.entry.1.key': 'FilterPolicy', 'Attributes.entry.1.value': '{"color": ["red"]}',
    'Attributes.entry.2.key': 'RawMessageDelivery', 'Attributes.entry.2.value': 'true' });
  // A queue that does not exist: its notification is dropped, and the page says why.
  await sns({ Action: 'Subscribe', TopicArn: topic, Protocol: 'sqs', Endpoint: queue('nowhere') });
  await sns({ Action: 'Publish', TopicArn: topic, Message: 'to everyone',
    'MessageAttributes.entry.1.Name': 'color', 'MessageAttributes.entry.1.Value.DataType': 'String',
    'MessageAttributes.entry.1.Value.StringValue': 'blue' });
  const page = await newPage();
  await page.goto(`${endpoint}/_sqslite/ui#/topics`);
  const section = page.locator('section[data-topic="news"]');
  await section.waitFor({ timeout: 10000 });
  assert.match(await section.innerText(), /1 published/);
  const filtered = section.locator('tr', { hasText: '{"color": ["red"]}' });
  const cells = await filtered.locator('td').allInnerTexts();
  assert.deepEqual(cells.slice(0, 3), ['sqs', 'orders', 'raw']);
  assert.deepEqual(cells.slice(4, 7), ['0', '1', '0'], 'delivered, filtered out, failed');
  const open = section.locator('tr', { hasText: 'orders-dlq' });
  assert.deepEqual((await open.locator('td').allInnerTexts()).slice(4, 7), ['1', '0', '0']);
  const lost = section.locator('tr', { hasText: 'nowhere' });
  const lostCells = await lost.locator('td').allInnerTexts();
  assert.deepEqual(lostCells.slice(6, 9), ['1', '0', '1'], 'failed, to DLQ, dropped');
  assert.match(lostCells[10], /queue refused · dropped/);
  assert.match(lostCells[10], /the queue does not exist/);
  await page.locator('#test-body').fill('a sample');
  await page.locator('#test-attributes').fill('{"color": "green"}');
  await page.getByRole('button', { name: 'Test message' }).click();
  const verdict = page.locator('#test-result tr', { hasText: 'filtered out' });
  await verdict.waitFor({ timeout: 10000 });
  assert.match(await verdict.innerText(), /color is "green"; the policy needs \["red"\]/);
  assert.match(await page.locator('#test-result').innerText(), /delivers/);
  await page.screenshot({ path: join(shots, 'dashboard-topics.png'), fullPage: true });
  await page.close();
});

/** A function for a mapping: an HTTP server that answers every event with 200, counting them. */
async function startFunction() {
  const fn = { calls: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => { fn.calls += 1; res.end(''); });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  functions.push(server);
  fn.url = `http://127.0.0.1:${server.address().port}/`;
  return fn;
}

test('the triggers page shows a mapping\'s figures and disables and enables it', async () => {
  const fn = await startFunction();
  const srv = await startServer([], `
[[queues]]
name = "jobs"
VisibilityTimeout = 30

[[functions]]
name = "jobs-handler"
url = "${fn.url}"

[[event_source_mappings]]
function = "jobs-handler"
queue = "jobs"
batch_size = 5
`);
  const sqsAt = (action, input) => fetch(srv, { method: 'POST', body: JSON.stringify(input),
    headers: { 'X-Amz-Target': `AmazonSQS.${action}`, 'Content-Type': 'application/x-amz-json-1.0' } });
  assert.ok((await sqsAt('SendMessage', { QueueUrl: `${srv}/000000000000/jobs`, MessageBody: 'job 1' })).ok);
  const page = await newPage();
  await page.goto(`${srv}/_sqslite/ui`);
  await page.getByRole('link', { name: 'Triggers', exact: true }).click();
  const row = page.locator('tr[data-mapping]');
  await row.locator('td[data-result="success"]').waitFor({ timeout: 10000 });
  const cells = await row.locator('td').allInnerTexts();
  assert.match(cells[0], /^jobs-handler/);
  assert.match(cells[1], /^jobs/);
  assert.equal(cells[2], 'Enabled');
  assert.match(cells[3], /batch 5/);
  assert.deepEqual(cells.slice(4, 11), ['1', '0', '1', '1', '1', '0', '0'],
    'invocations, errors, messages, mean and last batch, partial failures, filtered');
  assert.equal(fn.calls, 1, 'the function saw the one invocation the page counts');
  await page.screenshot({ path: join(shots, 'dashboard-triggers.png'), fullPage: true });
  const uuid = await row.getAttribute('data-mapping');
  const lambdaState = async () => (await (await fetch(`${srv}/2015-03-31/event-source-mappings/${uuid}`)).json()).State;
  await page.getByRole('button', { name: 'Disable' }).click();
  await row.locator('td[data-state="Disabled"]').waitFor({ timeout: 10000 });
  assert.equal(await lambdaState(), 'Disabled', 'the Lambda API sees the switch');
  await page.getByRole('button', { name: 'Enable' }).click();
  await row.locator('td[data-state="Enabled"]').waitFor({ timeout: 10000 });
  assert.equal(await lambdaState(), 'Enabled');
  await page.close();
});

test('the buckets page shows a bucket, its rule and its deliveries, a failed one with why', async () => {
  const srv = await startServer([], `
[[queues]]
name = "uploads"
`);
  const s3 = async (method, path, body) => {
    const r = await fetch(`${srv}${path}`, { method, body });
    assert.ok(r.ok, `${method} ${path}: ${r.status} ${await r.text()}`);
  };
  const rule = '<NotificationConfiguration><QueueConfiguration><Id>incoming</Id>' +
    '<Queue>arn:aws:sqs:us-east-1:000000000000:uploads</Queue><Event>s3:ObjectCreated:*</Event>' +
    '<Filter><S3Key><FilterRule><Name>prefix</Name><Value>in/</Value></FilterRule></S3Key></Filter>' +
    '</QueueConfiguration></NotificationConfiguration>';
  await s3('PUT', '/inbox');
  await s3('PUT', '/inbox?notification', rule);
  await s3('PUT', '/inbox/in/photo.jpg', 'twelve bytes');
  // The queue goes: the next upload's event has nowhere to go, and the page says why.
  const deleted = await fetch(srv, { method: 'POST', body: JSON.stringify({ QueueUrl: `${srv}/000000000000/uploads` }),
    headers: { 'X-Amz-Target': 'AmazonSQS.DeleteQueue', 'Content-Type': 'application/x-amz-json-1.0' } });
  assert.ok(deleted.ok);
  await s3('PUT', '/inbox/in/second.jpg', 'x');
  const page = await newPage();
  await page.goto(`${srv}/_sqslite/ui`);
  await page.getByRole('link', { name: 'Buckets', exact: true }).click();
  const row = page.locator('tr[data-bucket="inbox"]');
  await row.waitFor({ timeout: 10000 });
  const cells = await row.locator('td').allInnerTexts();
  assert.match(cells[0], /^inbox/);
  assert.deepEqual(cells.slice(1, 4), ['2', '13 B', '0'], 'objects, size, uploads');
  assert.match(cells[4], /queue\s+arn:aws:sqs:us-east-1:000000000000:uploads/);
  assert.match(cells[4], /prefix in\//);
  const failed = page.locator('tr[data-delivery="failed"]');
  assert.equal(await failed.count(), 1);
  assert.match(await failed.innerText(), /in\/second\.jpg[\s\S]*does not exist/);
  assert.equal(await page.locator('tr[data-delivery="delivered"]').count(), 2, 'the test event and the first upload');
  await page.screenshot({ path: join(shots, 'dashboard-buckets.png'), fullPage: true });
  await page.close();
});

test('no console errors on any page', () => {
  assert.deepEqual(consoleErrors, []);
});
