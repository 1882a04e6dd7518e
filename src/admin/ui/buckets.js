// sqslite dashboard, Buckets: every S3 bucket with its objects, their size, uploads in
// progress and notification rules, then the recent deliveries of the buckets' events, with
// why each failed one did. Loaded before app.js, whose helpers (h, api, table, num, when,
// region, fill, guide) it uses once the page runs.
'use strict';

function bytes(n) {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i += 1; }
  return `${v.toFixed(1)} ${units[i]}`;
}

/// One notification rule: where it goes, which events, which keys.
function ruleLine(r) {
  const keys = [r.prefix && `prefix ${r.prefix}`, r.suffix && `suffix ${r.suffix}`].filter(Boolean);
  return h('li', { 'data-rule': r.id },
    h('span', { class: 'badge' }, r.kind), ' ', h('code', {}, r.destination),
    h('div', { class: 'muted' }, r.events.join(', '), keys.length ? ` · ${keys.join(' · ')}` : ''));
}

function bucketRow(b) {
  return h('tr', { 'data-bucket': b.name },
    h('td', {}, b.name, h('div', { class: 'muted' }, `${b.region} · ${b.owner}`)),
    num(b.objects), h('td', { class: 'num' }, bytes(b.bytes)), num(b.uploads),
    h('td', {}, b.notifications.length
      ? h('ul', { class: 'plain' }, b.notifications.map(ruleLine))
      : h('span', { class: 'muted' }, 'none')));
}

function deliveryRow(d) {
  return h('tr', { 'data-delivery': d.failure ? 'failed' : 'delivered' },
    h('td', {}, when(d.at)), h('td', {}, d.bucket),
    h('td', {}, d.event, d.key ? h('div', { class: 'muted' }, h('code', {}, d.key)) : null),
    h('td', {}, h('code', {}, d.destination)),
    h('td', {}, d.failure
      ? [h('span', { class: 'badge alarm' }, 'failed'), h('div', {}, d.failure)]
      : h('span', { class: 'badge ok' }, 'delivered')));
}

function bucketsView() {
  const list = region();
  const recent = region();
  main.replaceChildren(
    h('h2', {}, 'Buckets'),
    h('p', { class: 'muted' }, 'S3 buckets on this server, what they hold and where their events go. ',
      guide('s3.md', 'S3')),
    list,
    h('h3', {}, 'Recent event deliveries'),
    recent);
  return async () => {
    const { buckets, deliveries } = await api('GET', '/_sqslite/buckets');
    fill(list, table([['Bucket'], ['Objects', 'num'], ['Size', 'num'], ['Uploads', 'num'],
      ['Notifications']], buckets.map(bucketRow),
    'No buckets: create one with any S3 client (aws s3 mb s3://NAME --endpoint-url …).'));
    fill(recent,
      h('p', { class: 'muted' }, `${deliveries.delivered} delivered, ${deliveries.failed} failed since the start.`),
      table([['Time (server clock)'], ['Bucket'], ['Event'], ['Destination'], ['Outcome']],
        deliveries.recent.map(deliveryRow), 'No bucket event has been sent yet.'));
  };
}
