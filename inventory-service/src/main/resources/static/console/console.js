// The sale console: polls the admin API once a second with the token the login form keeps for this tab
// (sessionStorage), and shows what the API answers. Rates are differences of the instances' counters between two
// polls, summed over the instances, as Prometheus's sum(rate(...)) would give them. Text from the API is put into
// the page as text only.
(function () {
  'use strict';

  var TOKEN_KEY = 'flashstock.console.token';
  var POLL_MILLIS = 1000;
  var WINDOW_SECONDS = 300;
  var PAGE_SIZE = 20;
  var GROUPS = [
    { key: 'reserved', label: 'reserved', stroke: '#1a7f37', outcomes: ['reserved', 'already_reserved'] },
    { key: 'insufficient', label: 'insufficient stock', stroke: '#c62828', outcomes: ['insufficient_stock', 'refused_early'] },
    { key: 'limit', label: 'purchase limit', stroke: '#e69100', outcomes: ['purchase_limit_exceeded'] },
    { key: 'other', label: 'other (stale, busy, cancelled, error…)', stroke: '#6b7385', outcomes: null }
  ];
  var REPAIRS = {
    REDIS_MYSQL_DRIFT: 'reload', REDIS_MISSING: 'reload', LEDGER_CONTRADICTS: 'reload',
    OVERDUE_RESERVATION: 'release', HANDOVER_PENDING: 'complete'
  };

  var token = sessionStorage.getItem(TOKEN_KEY);
  var previous = {};
  var selected = null;
  var skuPage = 1;
  var skuTotal = 0;
  var timer = null;
  var series = { t: [], reserved: [], insufficient: [], limit: [], other: [], confirm: [], cancel: [] };
  var sparks = {};
  var triesChart = null;
  var phasesChart = null;

  function $(id) { return document.getElementById(id); }

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    if (cls) { e.className = cls; }
    return e;
  }

  function fmt(n, digits) {
    if (n === null || n === undefined || isNaN(n)) { return '—'; }
    return Number(n).toLocaleString('en-US', { maximumFractionDigits: digits || 0 });
  }

  function Refused() {}

  function api(method, path, body, headers) {
    var h = { 'Authorization': 'Bearer ' + token, 'Accept': 'application/json, application/problem+json' };
    if (headers) { Object.keys(headers).forEach(function (k) { h[k] = headers[k]; }); }
    var init = { method: method, headers: h };
    if (body !== undefined) { h['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(path, init).then(function (r) {
      return r.text().then(function (text) {
        var data = null;
        if (text) { try { data = JSON.parse(text); } catch (e) { data = { detail: text }; } }
        if (r.status === 401) {
          signOut('The token was refused: ' + ((data && data.detail) || '401'));
          throw new Refused();
        }
        return { status: r.status, ok: r.ok, data: data };
      });
    });
  }

  function problemText(reply) {
    var d = reply.data || {};
    var text = (d.title ? d.title + ': ' : '') + (d.detail || ('HTTP ' + reply.status));
    return text + ' (' + reply.status + ')';
  }

  function message(text, ok) {
    var m = $('message');
    m.textContent = text;
    m.className = ok === null ? 'busy' : ok ? 'ok' : 'error';
  }

  // --- signing in and out ---

  function signIn(candidate) {
    token = candidate;
    return api('GET', '/admin/console/overview').then(function (reply) {
      if (!reply.ok) { throw new Error(problemText(reply)); }
      sessionStorage.setItem(TOKEN_KEY, token);
      $('login').hidden = true;
      $('console').hidden = false;
      $('logout').hidden = false;
      $('login-error').textContent = '';
      start();
    }).catch(function (e) {
      if (!(e instanceof Refused)) { signOut('Could not sign in: ' + e.message); }
    });
  }

  function signOut(why) {
    token = null;
    sessionStorage.removeItem(TOKEN_KEY);
    if (timer) { clearTimeout(timer); timer = null; }
    $('console').hidden = true;
    $('logout').hidden = true;
    $('login').hidden = false;
    $('status').textContent = 'not signed in';
    $('login-error').textContent = why || '';
  }

  // --- polling ---

  function start() {
    if (!triesChart) { makeCharts(); }
    tick();
  }

  function tick() {
    if (!token) { return; }
    Promise.all([overview(), skus(), reconciliation()]).catch(function (e) {
      if (!(e instanceof Refused)) { $('status').textContent = 'update failed: ' + e.message; }
    }).then(function () {
      if (token) { timer = setTimeout(tick, POLL_MILLIS); }
    });
  }

  function overview() {
    return api('GET', '/admin/console/overview').then(function (reply) {
      if (!reply.ok) { throw new Error(problemText(reply)); }
      showOverview(reply.data);
    });
  }

  function groupOf(outcome) {
    for (var i = 0; i < GROUPS.length; i++) {
      if (GROUPS[i].outcomes && GROUPS[i].outcomes.indexOf(outcome) >= 0) { return GROUPS[i].key; }
    }
    return 'other';
  }

  function showOverview(o) {
    var byOutcome = {};
    var totals = {};
    var grouped = { reserved: 0, insufficient: 0, limit: 0, other: 0 };
    var phases = { confirm: 0, cancel: 0 };
    var measured = false;
    var p50 = null;
    var p99 = null;
    var answering = 0;
    var rows = $('instances').tBodies[0];
    rows.textContent = '';
    o.instances.forEach(function (m) {
      var tr = el('tr');
      tr.dataset.instance = m.address;
      tr.appendChild(el('td', m.address + (m.self ? ' (answering this page)' : '')));
      if (!m.reading) {
        var cell = el('td', m.error || 'no answer', 'text bad');
        cell.colSpan = 7;
        tr.appendChild(cell);
        rows.appendChild(tr);
        return;
      }
      answering++;
      var r = m.reading;
      var p = previous[m.address];
      var instanceRate = null;
      if (p && p.startedMillis === r.startedMillis && r.atMillis > p.atMillis) {
        var seconds = (r.atMillis - p.atMillis) / 1000;
        measured = true;
        instanceRate = 0;
        Object.keys(r.tries).forEach(function (k) {
          var rate = Math.max(0, r.tries[k] - (p.tries[k] || 0)) / seconds;
          byOutcome[k] = (byOutcome[k] || 0) + rate;
          grouped[groupOf(k)] += rate;
          if (k !== 'refused_early') { instanceRate += rate; }
        });
        ['confirm', 'cancel'].forEach(function (k) {
          phases[k] += Math.max(0, (r.phases[k] || 0) - (p.phases[k] || 0)) / seconds;
        });
      }
      Object.keys(r.tries).forEach(function (k) { totals[k] = (totals[k] || 0) + r.tries[k]; });
      previous[m.address] = r;
      var tryLatency = (r.latencyMillis || {}).try || {};
      if (tryLatency.p50 !== undefined) { p50 = Math.max(p50 || 0, tryLatency.p50); }
      if (tryLatency.p99 !== undefined) { p99 = Math.max(p99 || 0, tryLatency.p99); }
      var h = r.health;
      var checkedAgo = (r.atMillis - h.checkedMillis) / 1000;
      if (checkedAgo > 3) {
        tr.cells[0].appendChild(el('span', ' (health read ' + fmt(checkedAgo, 0) + ' s earlier)', 'muted small'));
      }
      tr.appendChild(el('td', h.redisBreaker, h.redisBreaker === 'closed' ? 'good' : 'bad'));
      // each node: used of maxmemory and the headroom left; above the warning share in red
      var nodes = h.redisMemory || [];
      tr.appendChild(el('td', nodes.map(function (n) {
        var mb = function (b) { return fmt(b / 1048576, 1) + ' MB'; };
        return n.node + ' ' + mb(n.usedBytes) + (n.maxBytes > 0
          ? ' of ' + mb(n.maxBytes) + ' (' + fmt(100 * Math.max(0, n.maxBytes - n.usedBytes) / n.maxBytes, 0)
            + ' % free' + (n.warning ? ', above the warning share' : '') + ')'
          : ' (no maxmemory)');
      }).join(', ') || 'not read yet', 'text ' + (nodes.some(function (n) { return n.warning; }) ? 'bad' : '')));
      var shortfalls = h.durabilityShortfalls || [];
      tr.appendChild(el('td', h.durability + (shortfalls.length ? ': does not hold (' + shortfalls.join('; ') + ')' : ': holds'),
        'text ' + (shortfalls.length ? 'bad' : 'good')));
      tr.appendChild(el('td', h.eventBacklog === null ? 'unknown' : fmt(h.eventBacklog)));
      tr.appendChild(el('td', h.eventLagMillis === null ? 'unknown' : fmt(h.eventLagMillis) + ' ms'));
      tr.appendChild(el('td', (h.coordinators || []).map(function (c) {
        return c.address + (c.reachable ? ' ✓' : ' ✗ unreachable');
      }).join(', ') || 'none listed', 'text'));
      tr.appendChild(el('td', fmt(tryLatency.p50, 1) + ' / ' + fmt(tryLatency.p99, 1) + ' ms'));
      tr.appendChild(el('td', instanceRate === null ? '—' : fmt(instanceRate, 1)));
      rows.appendChild(tr);
    });
    $('instance-count').textContent = o.instances.length + ' inventory instance(s), ' + answering + ' answering';
    var listed = Object.keys(o.registered).map(function (s) {
      return s + ': ' + (o.registered[s].length ? o.registered[s].join(', ') : 'none');
    });
    $('registered').textContent = 'Registered in Nacos: ' + listed.join('; ')
      + (o.registered['inventory-service'] && o.registered['inventory-service'].length ? ''
        : ' (no registry: this instance reads its settings from files, or Nacos lists nothing)');
    if (o.seataConsole) { $('seata-link').href = o.seataConsole; $('seata-link').hidden = false; }
    $('status').textContent = 'updated ' + new Date(o.atMillis).toLocaleTimeString();

    if (measured) {
      var all = 0;
      Object.keys(byOutcome).forEach(function (k) { if (k !== 'refused_early') { all += byOutcome[k]; } });
      all += byOutcome.refused_early || 0;
      $('rate-tries').textContent = fmt(all, 1);
      $('rate-reserved').textContent = fmt(grouped.reserved, 1);
      $('rate-confirms').textContent = fmt(phases.confirm, 1);
      $('rate-cancels').textContent = fmt(phases.cancel, 1);
      push(o.atMillis / 1000, grouped, phases);
    }
    $('try-p50').textContent = fmt(p50, 1);
    $('try-p99').textContent = fmt(p99, 1);
    var outcomes = $('outcomes').tBodies[0];
    outcomes.textContent = '';
    Object.keys(totals).sort().forEach(function (k) {
      var tr = el('tr');
      tr.dataset.outcome = k;
      tr.appendChild(el('td', k.replace(/_/g, ' ')));
      tr.appendChild(el('td', measured ? fmt(byOutcome[k] || 0, 1) : '—', 'rate'));
      tr.appendChild(el('td', fmt(totals[k])));
      outcomes.appendChild(tr);
    });
  }

  function push(t, grouped, phases) {
    series.t.push(t);
    ['reserved', 'insufficient', 'limit', 'other'].forEach(function (k) { series[k].push(grouped[k]); });
    series.confirm.push(phases.confirm);
    series.cancel.push(phases.cancel);
    while (series.t.length && series.t[0] < t - WINDOW_SECONDS) {
      Object.keys(series).forEach(function (k) { series[k].shift(); });
    }
    triesChart.setData([series.t, series.reserved, series.insufficient, series.limit, series.other]);
    phasesChart.setData([series.t, series.confirm, series.cancel]);
  }

  function makeCharts() {
    var tries = [{}].concat(GROUPS.map(function (g) { return { label: g.label, stroke: g.stroke, width: 2 }; }));
    triesChart = new uPlot({ width: 620, height: 200, series: tries, scales: { x: { time: true } },
      axes: [{}, { size: 50 }] }, [[], [], [], [], []], $('chart-tries'));
    phasesChart = new uPlot({ width: 480, height: 200, scales: { x: { time: true } }, axes: [{}, { size: 50 }],
      series: [{}, { label: 'Confirms', stroke: '#2457c5', width: 2 }, { label: 'Cancels', stroke: '#8e44ad', width: 2 }]
    }, [[], [], []], $('chart-phases'));
  }

  // --- SKUs ---

  function skus() {
    var prefix = $('sku-filter').value.trim();
    var query = '?page=' + skuPage + '&size=' + PAGE_SIZE + (prefix ? '&prefix=' + encodeURIComponent(prefix) : '');
    return api('GET', '/admin/skus' + query).then(function (reply) {
      if (!reply.ok) { throw new Error(problemText(reply)); }
      skuTotal = reply.data.total;
      var pages = Math.max(1, Math.ceil(skuTotal / PAGE_SIZE));
      $('sku-page').textContent = 'page ' + skuPage + ' of ' + pages + ' (' + skuTotal + ' SKUs)';
      return Promise.all(reply.data.items.map(function (s) {
        return api('GET', '/skus/' + encodeURIComponent(s.skuId) + '/stock').then(function (r) {
          return { skuId: s.skuId, stock: r.ok ? r.data : null };
        });
      }));
    }).then(showSkus);
  }

  function get(obj, path) {
    return path.split('.').reduce(function (o, k) { return o === null || o === undefined ? null : o[k]; }, obj);
  }

  var FIELDS = ['redis.stocked', 'redis.available', 'redis.reserved', 'redis.sold', 'mysql.stocked', 'mysql.available',
    'mysql.reserved', 'mysql.sold', 'mysql.allotment.available', 'mysql.allotment.incoming', 'mysql.allotment.sold',
    'redis.segments', 'limit'];

  function showSkus(list) {
    var rows = $('skus').tBodies[0];
    rows.textContent = '';
    var now = Date.now() / 1000;
    list.forEach(function (s) {
      var tr = el('tr');
      tr.dataset.sku = s.skuId;
      if (s.skuId === selected) { tr.className = 'selected'; }
      tr.appendChild(el('td', s.skuId));
      FIELDS.forEach(function (f) {
        var v;
        if (f === 'limit') {
          v = get(s.stock, 'redis.perUserLimit');
          if (v === null) { v = get(s.stock, 'mysql.perUserLimit'); }
          v = v === null || v === 0 ? 'none' : fmt(v);
        } else {
          v = fmt(get(s.stock, f));
        }
        var td = el('td', v);
        td.dataset.field = f;
        tr.appendChild(td);
      });
      var available = get(s.stock, 'redis.available');
      var spark = sparks[s.skuId] || (sparks[s.skuId] = []);
      if (available !== null) { spark.push([now, available]); }
      while (spark.length && spark[0][0] < now - WINDOW_SECONDS) { spark.shift(); }
      var cell = el('td');
      cell.appendChild(sparkline(spark, get(s.stock, 'redis.stocked')));
      tr.appendChild(cell);
      tr.addEventListener('click', function () { select(s.skuId); });
      rows.appendChild(tr);
    });
  }

  function sparkline(points, top) {
    var ns = 'http://www.w3.org/2000/svg';
    var svg = document.createElementNS(ns, 'svg');
    var w = 140;
    var h = 28;
    svg.setAttribute('width', w);
    svg.setAttribute('height', h);
    svg.setAttribute('class', 'spark');
    if (points.length < 2) { return svg; }
    var t0 = points[0][0];
    var t1 = points[points.length - 1][0];
    var max = Math.max(1, top || 0, Math.max.apply(null, points.map(function (p) { return p[1]; })));
    var line = document.createElementNS(ns, 'polyline');
    line.setAttribute('points', points.map(function (p) {
      var x = t1 === t0 ? 0 : (p[0] - t0) / (t1 - t0) * (w - 2) + 1;
      var y = h - 2 - p[1] / max * (h - 4);
      return x.toFixed(1) + ',' + y.toFixed(1);
    }).join(' '));
    line.setAttribute('fill', 'none');
    line.setAttribute('stroke', '#2457c5');
    line.setAttribute('stroke-width', '1.5');
    svg.appendChild(line);
    return svg;
  }

  function select(skuId) {
    selected = skuId;
    $('action-sku').textContent = skuId;
    Array.prototype.forEach.call($('skus').tBodies[0].rows, function (r) {
      r.className = r.dataset.sku === skuId ? 'selected' : '';
    });
    audit(skuId);
  }

  function numberOrNull(id) {
    var v = $(id).value.trim();
    return v === '' ? null : Number(v);
  }

  function act(promise, done) {
    message('Sending…', null);
    return promise.then(function (reply) {
      if (reply.ok) { message(done(reply.data), true); } else { message(problemText(reply), false); }
      return reply;
    }).catch(function (e) {
      if (!(e instanceof Refused)) { message('No answer: ' + e.message, false); }
    });
  }

  function needSku() {
    if (!selected) { message('Click a SKU first', false); return false; }
    return true;
  }

  function restock() {
    if (!needSku()) { return; }
    var sku = selected;
    act(api('POST', '/admin/skus/' + encodeURIComponent(sku) + '/restock', { quantity: numberOrNull('restock-quantity') },
      { 'Idempotency-Key': 'console-' + Date.now() + '-' + Math.random().toString(36).slice(2, 10) }),
    function (d) { return 'Restocked ' + sku + ': ' + d.stocked + ' stocked, ' + d.available + ' available in Redis'; });
  }

  function settings(body, what) {
    if (!needSku()) { return; }
    var sku = selected;
    act(api('PUT', '/admin/skus/' + encodeURIComponent(sku) + '/settings', body), function (d) {
      return what + ' of ' + sku + ' published in Nacos (' + d.dataId + ', ' + d.group + '); the instances apply it live';
    });
  }

  function reload(sku) {
    if (!window.confirm('Reload ' + sku + ' in Redis from MySQL and its open reservations? This is audited.')) { return; }
    act(api('POST', '/admin/reconciliation/skus/' + encodeURIComponent(sku) + '/reload', undefined,
      { 'X-Audit-Note': 'from the sale console' }), function (d) { return 'Reloaded ' + sku + ': ' + d.detail; })
      .then(function () { audit(sku); });
  }

  function create() {
    var id = $('create-id').value.trim();
    var body = { stocked: numberOrNull('create-stocked'), perUserLimit: numberOrNull('create-limit'),
      segments: numberOrNull('create-segments') };
    act(api('PUT', '/admin/skus/' + encodeURIComponent(id), body), function (d) {
      return 'Created ' + d.skuId + ' with ' + d.stocked + ' units in ' + d.segments + ' segment(s)';
    });
  }

  // --- reconciliation ---

  function reconciliation() {
    return Promise.all([
      api('GET', '/admin/reconciliation/runs/latest').then(showRun),
      api('GET', '/admin/handovers/pending?page=1&size=50').then(showHandovers)
    ]);
  }

  function showRun(reply) {
    var rows = $('findings').tBodies[0];
    rows.textContent = '';
    if (reply.status === 404) { $('latest-run').textContent = 'no run since this instance started'; return; }
    if (!reply.ok) { $('latest-run').textContent = problemText(reply); return; }
    var run = reply.data;
    $('latest-run').textContent = 'latest run ' + run.runId + ', finished ' + new Date(run.finishedAt).toLocaleTimeString()
      + ', ' + run.skusChecked + ' SKU(s) checked, ' + run.findings.length + ' finding(s)';
    run.findings.forEach(function (f) {
      var tr = el('tr');
      tr.dataset.finding = f.kind;
      tr.appendChild(el('td', f.kind));
      tr.appendChild(el('td', f.skuId));
      tr.appendChild(el('td', JSON.stringify(f.facts), 'text small'));
      var cell = el('td');
      var repair = REPAIRS[f.kind];
      if (repair === 'reload') {
        cell.appendChild(button('Reload SKU', function () { reload(f.skuId); }));
      } else if (repair === 'release') {
        cell.appendChild(button('Release', function () { release(f); }));
      } else if (repair === 'complete') {
        cell.appendChild(button('Complete', function () {
          complete({ operationId: f.facts.operationId, skuId: f.skuId, direction: f.facts.direction, units: f.facts.units });
        }));
      } else {
        cell.appendChild(el('span', 'settled by hand (docs/operations.md)', 'muted small'));
      }
      tr.appendChild(cell);
      rows.appendChild(tr);
    });
  }

  function button(text, onClick) {
    var b = el('button', text);
    b.type = 'button';
    b.addEventListener('click', onClick);
    return b;
  }

  function release(f) {
    if (!window.confirm('Release reservation ' + f.facts.reservationId + ' of ' + f.skuId
      + '? The service refuses it while the coordinator still knows its transaction. This is audited.')) { return; }
    act(api('POST', '/admin/reconciliation/reservations/release',
      { skuId: f.skuId, xid: f.facts.xid, reservationId: f.facts.reservationId },
      { 'X-Audit-Note': 'from the sale console' }), function (d) { return 'Released: ' + d.detail; })
      .then(function () { audit(f.skuId); });
  }

  function complete(h) {
    if (!window.confirm('Complete handover ' + h.operationId + ' (' + h.direction + ', ' + h.units + ' units of '
      + h.skuId + ') now?')) { return; }
    act(api('POST', '/admin/skus/' + encodeURIComponent(h.skuId) + '/handovers',
      { direction: h.direction, units: h.units }, { 'Idempotency-Key': h.operationId }),
    function (d) { return 'Handover ' + d.operationId + ': ' + d.state; });
  }

  function showHandovers(reply) {
    var rows = $('handovers').tBodies[0];
    rows.textContent = '';
    if (!reply.ok) { return; }
    reply.data.items.forEach(function (h) {
      var tr = el('tr');
      tr.appendChild(el('td', h.operationId));
      tr.appendChild(el('td', h.skuId));
      tr.appendChild(el('td', h.direction));
      tr.appendChild(el('td', fmt(h.units)));
      tr.appendChild(el('td', h.createdAt ? new Date(h.createdAt).toLocaleTimeString() : ''));
      var cell = el('td');
      cell.appendChild(button('Complete', function () { complete(h); }));
      tr.appendChild(cell);
      rows.appendChild(tr);
    });
    if (!reply.data.items.length) {
      var tr = el('tr');
      var td = el('td', 'none', 'muted');
      td.colSpan = 6;
      tr.appendChild(td);
      rows.appendChild(tr);
    }
  }

  function audit(sku) {
    $('audit-sku').textContent = 'of ' + sku + ', newest first';
    var base = '/admin/reconciliation/skus/' + encodeURIComponent(sku) + '/audit';
    return api('GET', base + '?page=1&size=1').then(function (first) {
      if (!first.ok) { return first; }
      var last = Math.max(1, Math.ceil(first.data.total / 10));
      return api('GET', base + '?page=' + last + '&size=10');
    }).then(function (reply) {
      var rows = $('audit').tBodies[0];
      rows.textContent = '';
      if (!reply || !reply.ok) { return; }
      reply.data.items.slice().reverse().forEach(function (a) {
        var tr = el('tr');
        tr.appendChild(el('td', new Date(a.created_at).toLocaleString()));
        tr.appendChild(el('td', a.action));
        tr.appendChild(el('td', a.sku_id));
        tr.appendChild(el('td', a.actor));
        tr.appendChild(el('td', a.detail, 'text'));
        rows.appendChild(tr);
      });
    }).catch(function () {});
  }

  // --- wiring ---

  $('login-form').addEventListener('submit', function (e) {
    e.preventDefault();
    signIn($('token').value);
  });
  // the action forms act through their buttons only: Enter in a field submits nothing (no inline handler: the
  // page's content security policy allows none)
  ['act-form', 'create-form'].forEach(function (id) {
    $(id).addEventListener('submit', function (e) { e.preventDefault(); });
  });
  $('logout').addEventListener('click', function () { signOut(''); });
  $('restock-button').addEventListener('click', restock);
  $('segments-button').addEventListener('click', function () {
    settings({ segments: numberOrNull('segments-value') }, 'Segment count');
  });
  $('allotment-button').addEventListener('click', function () {
    var v = $('allotment-value').value.trim();
    settings({ allotment: v === '' ? null : v }, 'Reserve');
  });
  $('reload-button').addEventListener('click', function () { if (needSku()) { reload(selected); } });
  $('create-button').addEventListener('click', create);
  $('run-reconciliation').addEventListener('click', function () {
    act(api('POST', '/admin/reconciliation/runs'), function (d) {
      return 'Reconciliation ' + d.runId + ': ' + d.findings.length + ' finding(s)';
    });
  });
  $('sku-filter').addEventListener('input', function () { skuPage = 1; });
  $('sku-prev').addEventListener('click', function () { if (skuPage > 1) { skuPage--; } });
  $('sku-next').addEventListener('click', function () {
    if (skuPage * PAGE_SIZE < skuTotal) { skuPage++; }
  });

  if (token) { signIn(token); } else { signOut(''); }
}());
