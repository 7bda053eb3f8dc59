// The OPC UA console: polls api/overview every second, keeps two minutes of history in the page and draws it
// with ECharts when the WebJar is there; rates are computed here from the server's counters.
'use strict';

(function () {
  const POLL_MS = 1000;
  const HISTORY = 120; // points kept per series: two minutes at one poll a second
  const state = {
    polls: 0, previous: null, previousAt: 0,
    queue: [], capacity: [], busy: [],
    rates: {},   // service -> [[time, requests/s]]
    notifications: [],
    pubsub: { available: null, previous: null, previousAt: 0, sent: [], received: [], dataSets: [] },
    selected: null, valueHistory: [],
    access: { write: false }, // api/access: whether this user may write, and the CSRF token a write carries
    charts: {}
  };
  window.opcuaConsole = state; // for the browser test and for curious people with a devtools console

  const $ = (id) => document.getElementById(id);

  // ---- formatting

  function seconds(duration) { // a java.time.Duration as Jackson writes it: 1.5 or "PT1.5S"
    if (duration == null) return null;
    if (typeof duration === 'number') return duration;
    const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?$/.exec(duration);
    return m ? (+(m[1] || 0)) * 3600 + (+(m[2] || 0)) * 60 + (+(m[3] || 0)) : null;
  }
  function date(instant) { // an Instant as ISO text or epoch seconds
    if (instant == null) return null;
    return typeof instant === 'number' ? new Date(instant * 1000) : new Date(instant);
  }
  function span(s) {
    if (s == null) return '–';
    if (s < 0.001) return (s * 1e6).toFixed(0) + ' µs';
    if (s < 1) return (s * 1000).toFixed(s < 0.01 ? 2 : 1) + ' ms';
    if (s < 120) return s.toFixed(1) + ' s';
    if (s < 7200) return Math.round(s / 60) + ' min';
    if (s < 172800) return (s / 3600).toFixed(1) + ' h';
    return Math.round(s / 86400) + ' d';
  }
  function ago(instant) {
    const d = date(instant);
    return d ? span(Math.max(0, (Date.now() - d.getTime()) / 1000)) + ' ago' : '–';
  }
  const num = (n) => n == null ? '–' : Number(n).toLocaleString('en');
  function text(id, value) { const el = $(id); if (el) el.textContent = value == null ? '–' : value; }
  function cell(tr, value, cls) {
    const td = document.createElement('td');
    if (value instanceof Node) td.appendChild(value);
    else td.textContent = value == null || value === '' ? '–' : value;
    if (cls) td.className = cls;
    tr.appendChild(td);
  }
  // A URL that wraps only after its separators (/ . : ? & = ; # @ -), never inside a host name or a word;
  // the whole URL is the title as well.
  function url(address) {
    if (!address) return '';
    const el = document.createElement('span');
    el.className = 'url';
    el.title = address;
    for (const part of address.split(/(?<=[\/.:?&=;#@-])/)) el.append(part, document.createElement('wbr'));
    return el;
  }
  // A connection's last error with its age; once the connection is CONNECTED again it is history, dimmed.
  function lastError(connection) {
    if (!connection.lastError) return '';
    const healthy = connection.state === 'CONNECTED';
    const el = document.createElement('span');
    el.className = 'last-error ' + (healthy ? 'stale' : 'bad');
    el.textContent = connection.lastError + (connection.lastErrorAt ? ' · ' + ago(connection.lastErrorAt) : '');
    const at = date(connection.lastErrorAt);
    el.title = (healthy ? 'Connected again since; the error was ' : 'Error ')
      + (at ? 'at ' + at.toLocaleString() : '') + ': ' + connection.lastError;
    return el;
  }
  function rows(tableId, items, columns, emptyText) {
    const body = $(tableId).querySelector('tbody');
    body.replaceChildren();
    if (!items.length) {
      const tr = document.createElement('tr');
      const td = document.createElement('td');
      td.colSpan = $(tableId).querySelectorAll('th').length;
      td.className = 'empty';
      td.textContent = emptyText;
      tr.appendChild(td);
      body.appendChild(tr);
      return;
    }
    for (const item of items) {
      const tr = document.createElement('tr');
      for (const column of columns) {
        const v = column(item);
        Array.isArray(v) ? cell(tr, v[0], v[1]) : cell(tr, v);
      }
      body.appendChild(tr);
    }
  }
  function push(series, point) {
    series.push(point);
    if (series.length > HISTORY) series.shift();
  }

  // ---- charts (ECharts when present)

  function chart(id) {
    if (!window.echarts) return null;
    if (!state.charts[id]) {
      state.charts[id] = echarts.init($(id), null, { renderer: 'canvas' });
      window.addEventListener('resize', () => state.charts[id].resize());
    }
    return state.charts[id];
  }
  function lines(id, series, yName) {
    const c = chart(id);
    if (!c) return;
    c.setOption({
      animation: false,
      grid: { left: 40, right: 12, top: 28, bottom: 22 },
      legend: { top: 0, left: 40, type: 'scroll', textStyle: { fontSize: 11 } },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'time', splitNumber: 4, axisLabel: { fontSize: 10, hideOverlap: true }, splitLine: { show: false } },
      // the unit goes into the tooltip and the card's title: a y-axis name would sit under the legend
      yAxis: { type: 'value', axisLabel: { fontSize: 10 }, minInterval: yName === 'requests' ? 1 : 0 },
      series: series.map((s) => ({ name: s.name, type: 'line', showSymbol: false, data: s.data,
        lineStyle: s.dashed ? { type: 'dashed', width: 1 } : { width: 2 }, areaStyle: s.area ? { opacity: .15 } : undefined }))
    }, { replaceMerge: ['series'] });
  }

  // ---- the overview

  async function poll() {
    try {
      const response = await fetch('api/overview', { headers: { Accept: 'application/json' }, cache: 'no-store' });
      if (!response.ok) throw new Error('api/overview answered ' + response.status);
      const overview = await response.json();
      const now = Date.now();
      render(overview, now);
      state.previous = overview;
      state.previousAt = now;
      state.polls++;
      $('error').hidden = true;
      text('updated', 'updated ' + new Date(now).toLocaleTimeString());
    } catch (e) {
      $('error').hidden = false;
      $('error').textContent = 'Cannot read the console\'s data: ' + e.message;
    } finally {
      setTimeout(poll, POLL_MS);
    }
    pollPubSub();
  }

  // ---- PubSub: api/pubsub answers 404 in an application without it, and the card stays hidden

  async function pollPubSub() {
    const p = state.pubsub;
    if (p.available === false) return;
    try {
      const response = await fetch('api/pubsub', { headers: { Accept: 'application/json' }, cache: 'no-store' });
      if (response.status === 404) { p.available = false; $('pubsub-card').hidden = true; return; }
      if (!response.ok) throw new Error('api/pubsub answered ' + response.status);
      p.available = true;
      renderPubSub(await response.json(), Date.now());
    } catch (e) {
      showError(e);
    }
  }

  function renderPubSub(o, now) {
    const p = state.pubsub;
    $('pubsub-card').hidden = false;
    const badge = $('pubsub-broker');
    badge.textContent = !o.running ? 'not running' : o.brokerConnected ? 'broker connected' : 'broker disconnected';
    badge.className = 'badge ' + (o.running && o.brokerConnected ? 'good' : 'bad');
    text('pubsub-sent', num(o.messagesSent));
    text('pubsub-received', num(o.messagesReceived));
    const reasons = Object.entries(o.droppedByReason || {}).filter(([, n]) => n > 0);
    const dropped = $('pubsub-dropped');
    dropped.textContent = num(o.messagesDropped) + (reasons.length
      ? ' (' + reasons.map(([r, n]) => r + ' ' + num(n)).join(', ') + ')' : '');
    dropped.className = o.messagesDropped > 0 ? 'warn' : '';
    text('pubsub-datasets', num(o.dataSetsReceived));
    text('pubsub-bytes', num(o.bytesSent) + ' / ' + num(o.bytesReceived));
    text('pubsub-write-failures', num(o.targetWriteFailures));
    text('pubsub-last-publish', o.lastPublish ? date(o.lastPublish).toLocaleTimeString() + ' (' + ago(o.lastPublish) + ')'
      : o.publishCount ? 'not seen yet' : 'none yet');
    text('pubsub-publish-time', o.publishCount ? span(seconds(o.publishMean)) + ' mean, ' + span(seconds(o.publishMax))
      + ' max, ' + num(o.publishCount) + ' intervals' : '–');
    rows('pubsub-connections', o.connections || [], [(c) => c.name, (c) => c.publisherId,
      (c) => [c.connected ? 'connected' : 'disconnected', c.connected ? 'good' : 'bad'],
      (c) => (c.writerGroups || []).join(', '), (c) => (c.readers || []).join(', '),
      (c) => num(c.queued), (c) => c.reconnects, (c) => c.lastError ? [c.lastError, 'bad'] : ''], 'no connection');
    const dt = (now - p.previousAt) / 1000;
    if (p.previous && dt > 0) {
      const rate = (key) => +Math.max(0, (o[key] - p.previous[key]) / dt).toFixed(2);
      push(p.sent, [now, rate('messagesSent')]);
      push(p.received, [now, rate('messagesReceived')]);
      push(p.dataSets, [now, rate('dataSetsReceived')]);
    }
    p.previous = o;
    p.previousAt = now;
    lines('pubsub-chart', [{ name: 'sent/s', data: p.sent }, { name: 'received/s', data: p.received },
      { name: 'data sets/s', data: p.dataSets, dashed: true }], '/s');
  }

  function render(o, now) {
    renderServer(o);
    renderQueue(o.requests, now);
    renderRates(o.requests, now);
    renderSubscriptions(o.subscriptions, now);
    $('sessions-card').hidden = !o.server;
    renderSessions(o.sessions || []);
    renderClients(o.clients, o.listeners || []);
    $('address-space-card').hidden = !o.server;
  }

  function renderServer(o) {
    const server = o.server;
    $('server-card').hidden = !server;
    $('server-state').hidden = !server;
    if (!server) { text('application-uri', 'client only'); return; }
    text('application-uri', server.applicationUri);
    const badge = $('server-state');
    badge.textContent = server.serverState || server.state;
    badge.className = 'badge ' + (server.serverState === 'Running' ? 'good'
      : server.serverState === 'Shutdown' ? 'warn' : 'bad');
    text('server-lifecycle', server.state);
    text('server-serverstate', server.serverState);
    const start = date(server.startTime);
    text('server-start', start ? start.toLocaleString() + ' (' + ago(server.startTime).replace(' ago', '') + ')' : '–');
    const certificate = server.certificate;
    const cert = $('server-certificate');
    if (certificate) {
      cert.textContent = certificate.subject + ' — expires ' + date(certificate.notAfter).toLocaleDateString()
        + ', in ' + certificate.daysLeft + ' days';
      cert.className = certificate.daysLeft < 0 ? 'bad' : certificate.daysLeft < 30 ? 'warn' : 'good';
    } else {
      cert.textContent = 'none (SecurityPolicy None only)';
      cert.className = '';
    }
    rows('endpoints', o.endpoints || [], [(e) => url(e.url), (e) => e.securityPolicy, (e) => e.securityMode,
      (e) => e.securityLevel], 'no endpoint');
  }

  function renderQueue(q, now) {
    $('queue-card').hidden = !q;
    if (!q) return;
    push(state.queue, [now, q.queued]);
    push(state.capacity, [now, q.capacity]);
    push(state.busy, [now, q.busyWorkers]);
    text('queue-queued', q.queued + ' / ' + q.capacity + (q.priorityQueued ? ' (+' + q.priorityQueued + ' priority)' : ''));
    text('queue-workers', q.busyWorkers + ' / ' + q.workers);
    text('queue-active', num(q.active));
    text('queue-admitted', num(q.admitted));
    text('queue-inline', num(q.inline));
    text('queue-wait', q.queueWait ? span(seconds(q.queueWait.mean)) + ' (max ' + span(seconds(q.queueWait.max)) + ')' : '–');
    const rejected = Object.entries(q.rejected || {}).filter(([, n]) => n > 0);
    text('queue-rejected', rejected.length ? rejected.map(([r, n]) => r + ' ' + num(n)).join(', ') : 'none');
    lines('queue-chart', [
      { name: 'queued', data: state.queue, area: true },
      { name: 'busy workers', data: state.busy },
      { name: 'capacity', data: state.capacity, dashed: true }], 'requests');
  }

  function renderRates(q, now) {
    $('rates-card').hidden = !q;
    if (!q) return;
    const services = q.services || {};
    const before = state.previous && state.previous.requests ? state.previous.requests.services || {} : null;
    const dt = (now - state.previousAt) / 1000;
    let total = 0, totalRate = 0;
    const current = {};
    for (const [name, s] of Object.entries(services)) {
      total += s.count;
      if (before && dt > 0) {
        const rate = Math.max(0, (s.count - (before[name] ? before[name].count : 0)) / dt);
        current[name] = rate;
        totalRate += rate;
        push(state.rates[name] = state.rates[name] || [], [now, +rate.toFixed(2)]);
      }
    }
    // a service that has counted before keeps its line, at 0 while idle
    for (const name of Object.keys(state.rates)) {
      if (!(name in current) && before && dt > 0) push(state.rates[name], [now, 0]);
    }
    text('requests-total', num(total));
    text('requests-rate', totalRate.toFixed(1));
    const names = Object.keys(services).sort((a, b) => services[b].count - services[a].count);
    rows('services', names.map((n) => [n, services[n]]), [
      ([n]) => n, ([, s]) => num(s.count), ([, s]) => s.faults ? [num(s.faults), 'bad'] : '0',
      ([, s]) => span(seconds(s.mean)), ([, s]) => span(seconds(s.max)),
      ([n]) => current[n] == null ? '–' : current[n].toFixed(1)], 'no request answered yet');
    lines('rates-chart', Object.keys(state.rates).sort().map((n) => ({ name: n, data: state.rates[n] })), 'req/s');
  }

  function renderSubscriptions(s, now) {
    $('subscriptions-card').hidden = !s;
    if (!s) return;
    text('subs-count', num(s.subscriptions));
    text('subs-items', num(s.monitoredItems));
    text('subs-parked', num(s.parkedPublishRequests));
    text('subs-sent', num(s.notificationsSent));
    text('subs-dropped', num(s.notificationsDropped));
    text('subs-keepalives', num(s.keepAlivesSent));
    text('subs-late', num(s.latePublishes));
    const before = state.previous && state.previous.subscriptions;
    const dt = (now - state.previousAt) / 1000;
    if (before && dt > 0) {
      push(state.notifications, [now, +Math.max(0, (s.notificationsSent - before.notificationsSent) / dt).toFixed(2)]);
    }
    lines('notifications-chart', [{ name: 'notifications/s', data: state.notifications, area: true }], '/s');
  }

  function renderSessions(sessions) {
    text('sessions-count', sessions.length ? '(' + sessions.length + ')' : '');
    rows('sessions', sessions, [
      (s) => (s.clientApplicationName || '?') + (s.clientApplicationUri ? ' · ' + s.clientApplicationUri : ''),
      (s) => s.name + (s.activated ? '' : ' (not activated)'),
      (s) => s.securityPolicy ? s.securityPolicy + ' / ' + s.securityMode : '–',
      (s) => s.identityType ? s.identityType + (s.userName ? ' ' + s.userName : '') : '–',
      (s) => span(seconds(s.age)),
      (s) => ago(s.lastRequestAt)], 'no session');
  }

  function renderClients(clients, listeners) {
    const entries = Object.entries(clients || {});
    $('clients-card').hidden = !entries.length;
    if (!entries.length) return;
    rows('clients', entries, [([n]) => n, ([, c]) => url(c.endpointUrl),
      ([, c]) => [c.state, c.state === 'CONNECTED' ? 'good' : 'warn'],
      ([, c]) => c.securityPolicy ? c.securityPolicy + ' / ' + c.securityMode : '–',
      ([, c]) => c.subscriptions, ([, c]) => num(c.monitoredItems), ([, c]) => num(c.notificationsReceived),
      ([, c]) => c.reconnects, ([, c]) => lastError(c)], 'no connection');
    rows('listeners', listeners, [(l) => l.id, (l) => l.connection, (l) => l.node,
      (l) => [l.status, l.status === 'Good' ? 'good' : 'warn'], (l) => num(l.notifications),
      (l) => l.errors ? [num(l.errors), 'bad'] : '0', (l) => l.problem], 'no annotated listener');
  }

  // ---- the address space

  async function getJson(url) {
    const response = await fetch(url, { headers: { Accept: 'application/json' }, cache: 'no-store' });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.error || url + ' answered ' + response.status);
    return body;
  }

  async function expand(li, nodeId) {
    const children = await getJson('api/browse?node=' + encodeURIComponent(nodeId));
    const ul = document.createElement('ul');
    for (const child of children) ul.appendChild(treeNode(child));
    li.appendChild(ul);
  }

  function treeNode(node) {
    const li = document.createElement('li');
    const label = document.createElement('span');
    label.className = 'node';
    label.dataset.nodeId = node.nodeId;
    label.dataset.browseName = node.browseName || '';
    label.title = node.nodeId;
    const toggle = document.createElement('span');
    toggle.className = 'toggle';
    toggle.textContent = node.hasChildren ? '▸' : '';
    const name = document.createElement('span');
    name.textContent = node.displayName || node.browseName || node.nodeId;
    const kind = document.createElement('span');
    kind.className = 'kind';
    kind.textContent = node.nodeClass;
    label.append(toggle, name, kind);
    li.appendChild(label);
    label.addEventListener('click', async () => {
      if (node.nodeClass === 'Variable') select(label, node);
      if (!node.hasChildren) return;
      const open = li.querySelector(':scope > ul');
      if (open) { open.remove(); toggle.textContent = '▸'; return; }
      toggle.textContent = '▾';
      try { await expand(li, node.nodeId); } catch (e) { showError(e); }
    });
    return li;
  }

  function select(label, node) {
    document.querySelectorAll('ul.tree .node.selected').forEach((n) => n.classList.remove('selected'));
    label.classList.add('selected');
    state.selected = node.nodeId;
    state.valueHistory = [];
    $('value-hint').hidden = true;
    $('value-facts').hidden = false;
    text('value-node', (node.displayName || node.browseName) + '  (' + node.nodeId + ')');
    $('write-form').hidden = true;
    $('write-value').value = '';
    text('write-result', '');
    $('write-result').className = '';
    readSelected();
  }

  // ---- writing (api/access says whether this user may; the server checks again on every write)

  function csrfHeaders() {
    const csrf = state.access.csrf || {};
    if (csrf.header && csrf.token) return { [csrf.header]: csrf.token };
    const cookie = /(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie); // CookieCsrfTokenRepository, WebFlux
    return cookie ? { 'X-XSRF-TOKEN': decodeURIComponent(cookie[1]) } : {};
  }

  async function write(event) {
    event.preventDefault();
    const nodeId = state.selected;
    const result = $('write-result');
    result.className = 'muted';
    result.textContent = 'writing…';
    try {
      const response = await fetch('api/write', {
        method: 'POST', cache: 'no-store',
        headers: Object.assign({ 'Content-Type': 'application/json', Accept: 'application/json' }, csrfHeaders()),
        body: JSON.stringify({ node: nodeId, value: $('write-value').value })
      });
      const body = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(body.error || 'api/write answered ' + response.status);
      const good = /^Good/.test(body.status);
      result.className = good ? 'good' : 'bad';
      result.textContent = body.status + (good ? ': ' + body.oldValue + ' → ' + body.newValue : '');
      if (good) readSelected();
    } catch (e) {
      result.className = 'bad';
      result.textContent = e.message;
    }
  }

  async function readSelected() {
    const nodeId = state.selected;
    if (!nodeId) return;
    try {
      const v = await getJson('api/read?node=' + encodeURIComponent(nodeId));
      if (nodeId !== state.selected) return; // another node was chosen meanwhile
      text('value-value', v.value == null ? 'null' : v.value);
      text('value-type', v.dataType);
      const writeForm = $('write-form');
      if (writeForm.hidden && state.access.write && v.writable) {
        writeForm.hidden = false;
        $('write-value').placeholder = v.dataType || '';
      }
      const status = $('value-status');
      status.textContent = v.status;
      status.className = /^Good/.test(v.status) ? 'good' : /^Uncertain/.test(v.status) ? 'warn' : 'bad';
      const source = date(v.sourceTimestamp);
      text('value-source', source ? source.toLocaleTimeString() : '–');
      if (v.number != null) push(state.valueHistory, [Date.now(), v.number]);
      $('value-chart').hidden = !state.valueHistory.length;
      if (state.valueHistory.length) lines('value-chart', [{ name: 'value', data: state.valueHistory }], '');
    } catch (e) {
      showError(e);
    }
  }

  function showError(e) {
    $('error').hidden = false;
    $('error').textContent = e.message;
  }

  async function start() {
    $('no-charts').hidden = !!window.echarts;
    $('write-form').addEventListener('submit', write);
    getJson('api/access').then((access) => { state.access = access; }).catch(() => { /* reading only */ });
    poll();
    setInterval(readSelected, POLL_MS);
    try {
      const objects = { nodeId: 'i=85', browseName: 'Objects', displayName: 'Objects', nodeClass: 'Object', hasChildren: true };
      const root = treeNode(objects);
      $('tree').appendChild(root);
      root.querySelector('.toggle').textContent = '▾';
      await expand(root, objects.nodeId);
    } catch (e) {
      // an application without a server has no address space: its card stays hidden
    }
  }

  document.addEventListener('DOMContentLoaded', start);
})();
