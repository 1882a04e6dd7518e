// sqslite dashboard, SNS: topics, their subscriptions and counts, and a form that tests a
// sample message against every subscription's filter policy. Loaded before app.js, whose
// helpers (h, api, table, num, region, fill, say) it uses once the page runs.
'use strict';

/// A subscription's endpoint, shortened to the queue's name for sqs.
function endpointName(s) {
  return s.protocol === 'sqs' ? s.endpoint.split(':').pop() : s.endpoint;
}

function subscriptionRows(t) {
  return t.subscriptions.map((s) => h('tr', { 'data-subscription': s.arn },
    h('td', {}, s.protocol), h('td', {}, endpointName(s)), h('td', {}, s.raw ? 'raw' : 'JSON notification'),
    h('td', {}, s.filter_policy ? h('code', {}, s.filter_policy) : '–',
      s.filter_policy_scope ? h('div', { class: 'muted' }, `scope ${s.filter_policy_scope}`) : null),
    num(s.counts.delivered), num(s.counts.filtered_out), num(s.counts.failed, true),
    num(s.counts.redriven_to_dlq), num(s.counts.dropped, true),
    h('td', {}, s.dead_letter_arn ? s.dead_letter_arn.split(':').pop() : h('span', { class: 'hot' }, 'none')),
    failureCell(s.last_failure)));
}

const FAILURE_CLASSES = {
  retries_spent: 'retries spent',
  outbox_full: 'outbox full',
  queue_refused: 'queue refused',
};

/// The latest notification the subscription could not deliver: why, where it went, when.
function failureCell(f) {
  if (!f) return h('td', { class: 'muted' }, '–');
  return h('td', { 'data-failure': f.why },
    h('span', { class: f.dead_lettered ? 'badge warn' : 'badge alarm' },
      `${FAILURE_CLASSES[f.why] || f.why} · ${f.dead_lettered ? 'dead-lettered' : 'dropped'}`),
    h('div', { class: 'muted' }, f.reason),
    h('div', { class: 'muted' }, f.at));
}

/// The sample's attributes from the form: a JSON object, `{}` when left empty.
function sampleAttributes(text) {
  if (!text.trim()) return {};
  const parsed = JSON.parse(text);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error('attributes must be a JSON object, e.g. {"color": "red"}');
  }
  return parsed;
}

function verdictCell(r) {
  if (r.delivers) {
    return h('td', {}, h('span', { class: 'badge ok' }, 'delivers'),
      r.filter_policy ? '' : h('span', { class: 'muted' }, ' (no filter policy)'));
  }
  const e = r.explanation;
  const why = [];
  if (e.unreadable) why.push(h('div', {}, e.unreadable));
  e.branches.forEach((b, i) => {
    const lead = e.branches.length > 1 ? `$or branch ${i + 1}: ` : '';
    if (b.split_arrays) why.push(h('div', {}, `${lead}each key matches, but not within the same array element`));
    for (const m of b.misses) why.push(h('div', { class: 'miss' }, lead, h('code', {}, m.reason)));
  });
  return h('td', {}, h('span', { class: 'badge alarm' }, 'filtered out'), ...why);
}

function topicsView() {
  const list = region('topics');
  const topicSelect = h('select', { id: 'test-topic' });
  const body = h('textarea', { id: 'test-body', 'aria-label': 'Message body' }, '{"order": 17}');
  const attrs = h('textarea', { id: 'test-attributes', 'aria-label': 'Message attributes' }, '{"color": "red"}');
  const result = h('div', { id: 'test-result', 'aria-live': 'polite' });
  const form = h('form', { class: 'inline', onsubmit: (e) => { e.preventDefault(); runTest(); } },
    h('label', { class: 'field' }, 'Topic', topicSelect),
    h('label', { class: 'field' }, 'Body', body),
    h('label', { class: 'field' }, 'Attributes (JSON: name → value)', attrs),
    h('button', { type: 'submit' }, 'Test message'));
  main.replaceChildren(
    h('h2', {}, 'Topics'), list,
    h('section', { class: 'panel' }, h('h2', {}, 'Test a message'),
      h('p', { class: 'muted' }, 'Which subscriptions a message would reach, and why the others filter it out. Nothing is published. ',
        guide('sns.md', 'SNS topics')),
      form, result));

  async function runTest() {
    try {
      const input = { topic_arn: topicSelect.value, message: body.value, attributes: sampleAttributes(attrs.value) };
      const answer = await api('POST', '/_sqslite/topics/test', input);
      result.replaceChildren(table([['Subscription'], ['Filter policy'], ['Verdict']],
        answer.subscriptions.map((r) => h('tr', { 'data-test': r.arn },
          h('td', {}, r.endpoint.split(':').pop()),
          h('td', {}, r.filter_policy ? h('code', {}, r.filter_policy) : '–'),
          verdictCell(r))), 'The topic has no subscriptions.'));
      say('');
    } catch (e) {
      say(`Test failed: ${e.message}`, true);
    }
  }

  return async () => {
    const { topics } = await api('GET', '/_sqslite/topics');
    if (topicSelect.options.length !== topics.length && document.activeElement !== topicSelect) {
      const chosen = topicSelect.value;
      topicSelect.replaceChildren(...topics.map((t) => h('option', { value: t.arn }, `${t.name} (${t.region})`)));
      if (chosen) topicSelect.value = chosen;
    }
    fill(list, topics.length ? topics.map((t) => h('section', { class: 'panel', 'data-topic': t.name },
      h('h3', {}, t.name, h('span', { class: 'muted' },
        ` ${t.fifo ? 'FIFO' : 'standard'} · ${t.region} · ${t.account} · ${t.published} published`)),
      table([['Protocol'], ['Endpoint'], ['Delivery'], ['Filter policy'], ['Delivered', 'num'],
        ['Filtered out', 'num'], ['Failed', 'num'], ['To DLQ', 'num'], ['Dropped', 'num'],
        ['Dead-letter queue'], ['Last failure']],
      subscriptionRows(t), 'No subscriptions.')))
      : h('p', { class: 'muted' }, 'No topics yet: create one with any SNS client.'));
  };
}
