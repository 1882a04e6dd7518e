// sqslite dashboard, Triggers: every event source mapping with its settings, its figures and
// its queue's oldest message, and a button that disables or enables it. Loaded before app.js,
// whose helpers (h, api, act, table, num, age, when, region, fill, queueHref) it uses once the
// page runs.
'use strict';

const RESULT_BADGE = { success: 'badge ok', partial_failure: 'badge warn', error: 'badge alarm' };

/// BatchSize, the window, response types, the concurrency cap and filters, in one cell.
function mappingSettings(m) {
  const parts = [`batch ${m.batch_size}`];
  if (m.maximum_batching_window_seconds) parts.push(`window ${m.maximum_batching_window_seconds} s`);
  if (m.function_response_types.length) parts.push(m.function_response_types.join(', '));
  if (m.maximum_concurrency) parts.push(`at most ${m.maximum_concurrency} at once`);
  if (m.filter_patterns) parts.push(`${m.filter_patterns} filter pattern(s)`);
  return h('td', {}, parts.join(' · '));
}

function meanBatch(f) {
  if (f.mean_batch_size === null) return '–';
  return Number.isInteger(f.mean_batch_size) ? f.mean_batch_size : f.mean_batch_size.toFixed(1);
}

function lastInvocation(last) {
  if (!last) return h('td', { class: 'muted' }, 'none yet');
  return h('td', { 'data-result': last.result },
    h('span', { class: RESULT_BADGE[last.result] || 'badge' }, last.result.replace('_', ' ')),
    last.failed_records && last.result !== 'error' ? ` ${last.failed_records} kept for a retry` : '',
    h('div', { class: 'muted' }, `${when(last.finished_at)}, ${last.records} record(s)`),
    last.error ? h('div', {}, last.error) : null);
}

function mappingQueue(q) {
  if (!q.exists) return h('td', {}, q.name || q.arn, h('div', { class: 'hot' }, 'queue deleted'));
  return h('td', {}, h('a', { href: queueHref(q), title: q.arn }, q.name),
    h('div', { class: 'muted' }, `${q.visible} visible · ${q.in_flight} in flight`));
}

function triggersView() {
  const list = region('mappings');
  main.replaceChildren(
    h('h2', {}, 'Triggers'),
    h('p', { class: 'muted' }, 'Event source mappings: each polls its queue and invokes its function, ' +
      'as Lambda does. Counters run from when the mapping was added; times are the server clock. ',
      guide('triggers.md', 'Triggers')),
    list);

  async function toggle(m, button) {
    const enabled = !m.enabled;
    await act(`${enabled ? 'Enable' : 'Disable'} ${m.function.name} on ${m.queue.name}`, async () => {
      await api('POST', `/_sqslite/mappings/${encodeURIComponent(m.uuid)}`, { enabled });
      // Let the table redraw with the new state, then give the focus back to the new button.
      button.blur();
    });
    const again = list.querySelector(`button[data-switch="${m.uuid}"]`);
    if (again && again !== button && !again.disabled) again.focus();
  }

  function row(m) {
    const f = m.figures;
    const settling = m.state !== 'Enabled' && m.state !== 'Disabled';
    const button = h('button', { type: 'button', 'data-switch': m.uuid, disabled: settling,
      class: m.enabled ? 'danger' : null }, m.enabled ? 'Disable' : 'Enable');
    button.addEventListener('click', () => toggle(m, button));
    return h('tr', { 'data-mapping': m.uuid },
      h('td', {}, m.function.name, h('div', { class: 'muted' }, h('code', {}, m.uuid)),
        m.function.declared ? null : h('div', { class: 'hot' }, 'no such function declared')),
      mappingQueue(m.queue),
      h('td', { 'data-state': m.state },
        h('span', { class: m.state === 'Enabled' ? 'badge ok' : 'badge warn' }, m.state)),
      mappingSettings(m),
      num(f.invocations), num(f.errors, true), num(f.records),
      h('td', { class: 'num' }, meanBatch(f)), h('td', { class: 'num' }, f.last_batch_size ?? '–'),
      num(f.partial_failures, true), num(f.filtered),
      h('td', { class: 'num' }, age(m.queue.oldest_message_age_seconds)),
      lastInvocation(m.last_invocation),
      h('td', {}, button));
  }

  return async () => {
    const { mappings } = await api('GET', '/_sqslite/mappings');
    fill(list, table([['Function'], ['Queue'], ['State'], ['Settings'], ['Invocations', 'num'],
      ['Errors', 'num'], ['Messages', 'num'], ['Mean batch', 'num'], ['Last batch', 'num'],
      ['Partial failures', 'num'], ['Filtered', 'num'], ['Oldest message', 'num'],
      ['Last invocation'], ['']],
    mappings.map(row),
    'No event source mappings: declare one in sqslite.toml ([[event_source_mappings]]) or create ' +
      'one with the Lambda API (aws lambda create-event-source-mapping).'));
  };
}
