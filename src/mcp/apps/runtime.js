// The view side of the MCP Apps protocol (ext-apps specification 2026-01-26), written small: the few messages a
// read-only view needs instead of the ext-apps App runtime (about 130 KB gzipped). Plus the DOM, number and SVG
// helpers every view shares. src/mcp/apps.ts inlines this file, then one view's file, into one script: `startView`
// is what a view calls.

const PROTOCOL_VERSION = '2026-01-26';
const SVG_NS = 'http://www.w3.org/2000/svg';

/** An element whose children are nodes or text; text goes in as text nodes, never parsed as markup. */
function h(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) if (value !== undefined && value !== null && value !== false) node.setAttribute(name, String(value));
  for (const child of children.flat()) if (child !== undefined && child !== null && child !== false) node.append(child instanceof Node ? child : String(child));
  return node;
}

/** An SVG element; `title` children give each mark its exact numbers on hover and to screen readers. */
function s(tag, attributes, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes ?? {})) if (value !== undefined && value !== null) node.setAttribute(name, String(value));
  for (const child of children.flat()) if (child !== undefined && child !== null && child !== false) node.append(child instanceof Node ? child : String(child));
  return node;
}

let locale;
const formatters = new Map();
function formatter(options) {
  const key = JSON.stringify(options);
  if (!formatters.has(key)) formatters.set(key, new Intl.NumberFormat(locale, options));
  return formatters.get(key);
}

/** A whole count or measure, or a dash for a missing one. */
function num(value, digits = 0) {
  return typeof value === 'number' ? formatter({ maximumFractionDigits: digits }).format(value) : '–';
}

/** A 0-1 share as a percentage. */
function pct(value, digits = 0) {
  return typeof value === 'number' ? formatter({ style: 'percent', maximumFractionDigits: digits }).format(value) : '–';
}

/** A rate record ({rate, interval, count, of}) as the tool states it: share, 95 % interval and the counts behind it. */
function rateText(rate) {
  if (rate === null || rate === undefined || rate.rate === null) return `– (${num(rate?.count ?? 0)} of ${num(rate?.of ?? 0)})`;
  const interval = rate.interval === null ? '' : ` (95% ${pct(rate.interval.low)}–${pct(rate.interval.high)})`;
  return `${pct(rate.rate, 1)}${interval}, ${num(rate.count)} of ${num(rate.of)}`;
}

/** A rate for a narrow table cell: the share, its interval and counts on a second, smaller line. */
function rateCell(rate) {
  const [share, rest] = [rate.rate === null ? '–' : pct(rate.rate, 1), rate.interval === null ? `${num(rate.count)} of ${num(rate.of)}` : `95% ${pct(rate.interval.low)}–${pct(rate.interval.high)}, ${num(rate.count)} of ${num(rate.of)}`];
  return h('span', {}, share, h('br'), h('span', { class: 'soft' }, rest));
}

/** A day (YYYY-MM-DD or an ISO time) as a short UTC date. */
function day(text) {
  if (typeof text !== 'string') return '–';
  const date = new Date(text.length === 10 ? `${text}T00:00:00Z` : text);
  return Number.isNaN(date.getTime()) ? text : date.toLocaleDateString(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** A metric window ({days, from, to}) and the engine it was narrowed to, if any. */
function windowText(window, model) {
  return `${window.days} days, ${day(window.from)} – ${day(window.to)} (UTC)${model ? `, ${model} only` : ''}`;
}

function stat(label, value, note, id) {
  return h('div', { class: 'stat', id }, h('div', { class: 'value' }, value), h('div', { class: 'label' }, label), note ? h('div', { class: 'soft' }, note) : null);
}

function table(headers, rows, numericColumns = []) {
  const cell = (tag, text, index) => h(tag, { class: numericColumns.includes(index) ? 'num' : undefined }, text);
  return h(
    'div',
    { class: 'table-wrap' },
    h('table', {}, h('thead', {}, h('tr', {}, headers.map((text, index) => cell('th', text, index)))), h('tbody', {}, rows.map((row) => h('tr', {}, row.map((text, index) => cell('td', text, index)))))),
  );
}

/**
 * Horizontal bars on a 0-`max` scale, one per row {label, value, low?, high?, note, brand}, the interval as a whisker:
 * labels above their bars so long names fit at phone width.
 */
function barChart(rows, { max = 1, format = pct } = {}) {
  const width = 320;
  const rowHeight = 34;
  const x = (value) => (Math.max(0, Math.min(value, max)) / max) * width;
  const svg = s('svg', { viewBox: `0 0 ${width} ${rows.length * rowHeight}`, role: 'img' });
  rows.forEach((row, index) => {
    const top = index * rowHeight;
    svg.append(s('text', { x: 0, y: top + 11 }, `${row.label}: ${row.note ?? format(row.value)}`));
    svg.append(s('rect', { class: 'track', x: 0, y: top + 16, width, height: 10, rx: 3 }));
    if (typeof row.value === 'number') svg.append(s('rect', { class: row.brand ? 'bar brand' : 'bar', x: 0, y: top + 16, width: x(row.value), height: 10, rx: 3 }, s('title', {}, row.note ?? format(row.value))));
    if (typeof row.low === 'number' && typeof row.high === 'number') {
      svg.append(s('line', { class: 'whisker', x1: x(row.low), x2: x(row.high), y1: top + 21, y2: top + 21 }));
      for (const end of [row.low, row.high]) svg.append(s('line', { class: 'whisker', x1: x(end), x2: x(end), y1: top + 17, y2: top + 25 }));
    }
  });
  return svg;
}

/**
 * A line over days, points {date, value, low?, high?} oldest first, the interval as a band; gaps (null values) break
 * the line rather than dropping to zero.
 */
function lineChart(points, { max, format = num } = {}) {
  const width = 320;
  const height = 140;
  const left = 30;
  const bottom = 18;
  const values = points.flatMap((point) => [point.value, point.high]).filter((value) => typeof value === 'number');
  const top = max ?? Math.max(1, ...values);
  const x = (index) => left + (points.length < 2 ? (width - left) / 2 : (index / (points.length - 1)) * (width - left));
  const y = (value) => (height - bottom) * (1 - value / top);
  const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img' });
  for (const tick of [0, top / 2, top]) {
    svg.append(s('line', { class: 'axis', x1: left, x2: width, y1: y(tick), y2: y(tick) }));
    svg.append(s('text', { x: 0, y: y(tick) + 4 }, format(tick)));
  }
  const runs = [];
  points.forEach((point, index) => {
    if (typeof point.value !== 'number') return;
    const run = runs.at(-1);
    if (run && run.at(-1).index === index - 1) run.push({ ...point, index });
    else runs.push([{ ...point, index }]);
  });
  for (const run of runs) {
    const banded = run.filter((point) => typeof point.low === 'number' && typeof point.high === 'number');
    if (banded.length > 1) {
      const upper = banded.map((point) => `${x(point.index)},${y(point.high)}`);
      const lower = banded.map((point) => `${x(point.index)},${y(point.low)}`).reverse();
      svg.append(s('polygon', { class: 'band', points: [...upper, ...lower].join(' ') }));
    }
    if (run.length > 1) svg.append(s('polyline', { class: 'line', points: run.map((point) => `${x(point.index)},${y(point.value)}`).join(' ') }));
    for (const point of run) svg.append(s('circle', { class: 'bar', cx: x(point.index), cy: y(point.value), r: 3 }, s('title', {}, `${day(point.date)}: ${point.note ?? format(point.value)}`)));
  }
  if (points.length > 0) {
    svg.append(s('text', { x: left, y: height - 2 }, day(points[0].date)));
    svg.append(s('text', { x: width, y: height - 2, 'text-anchor': 'end' }, day(points.at(-1).date)));
  }
  return svg;
}

/** The theme and style variables the host sent; fonts are left out, since they would be fetched from outside. */
function applyHostContext(context) {
  if (context === undefined || context === null) return;
  if (typeof context.locale === 'string') {
    locale = context.locale;
    formatters.clear();
  }
  if (context.theme === 'light' || context.theme === 'dark') {
    document.documentElement.setAttribute('data-theme', context.theme);
    document.documentElement.style.colorScheme = context.theme;
  }
  const variables = context.styles?.variables ?? {};
  for (const [name, value] of Object.entries(variables)) if (name.startsWith('--') && typeof value === 'string') document.documentElement.style.setProperty(name, value);
}

/** Tells the host the document's height (and the frame's width) whenever it changes, as the App runtime does. */
function reportSize(notify) {
  let sent = '';
  let queued = false;
  const measure = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      const root = document.documentElement;
      const height = root.style.height;
      root.style.height = 'max-content';
      const size = { width: Math.ceil(window.innerWidth), height: Math.ceil(root.getBoundingClientRect().height) };
      root.style.height = height;
      const key = `${size.width}x${size.height}`;
      if (key !== sent) {
        sent = key;
        notify('ui/notifications/size-changed', size);
      }
    });
  };
  const observer = new ResizeObserver(measure);
  observer.observe(document.documentElement);
  observer.observe(document.body);
  measure();
}

/**
 * Connects to the host and calls `render(structuredContent, root)` for every tool result, replacing what the last one
 * drew. A result without structured content (an error, or a null answer) shows the tool's text instead.
 */
function startView(appName, render) {
  const root = document.getElementById('app');
  const pending = new Map();
  let nextId = 1;
  let toolInput = {};
  const post = (message) => window.parent.postMessage(message, '*');
  const notify = (method, params) => post({ jsonrpc: '2.0', method, params });
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      post({ jsonrpc: '2.0', id, method, params });
    });

  const show = (result) => {
    const text = (result.content ?? []).filter((block) => block.type === 'text').map((block) => block.text).join('\n');
    if (result.isError === true || result.structuredContent === undefined || result.structuredContent === null) {
      root.replaceChildren(h('p', { class: result.isError === true ? 'error' : 'soft', id: 'message' }, text || 'Nothing to show.'));
      return;
    }
    root.replaceChildren(...[render(result.structuredContent, toolInput)].flat(Infinity).filter((node) => node !== null && node !== undefined && node !== false));
  };

  // Requests the host may send the view; anything else is answered "method not found", as JSON-RPC asks.
  const answers = { 'ui/resource-teardown': () => ({}), ping: () => ({}) };
  const notifications = {
    'ui/notifications/tool-input': (params) => (toolInput = params?.arguments ?? {}),
    'ui/notifications/tool-result': show,
    'ui/notifications/host-context-changed': applyHostContext,
    'ui/notifications/tool-cancelled': (params) => root.replaceChildren(h('p', { class: 'soft', id: 'message' }, `Cancelled${params?.reason ? `: ${params.reason}` : '.'}`)),
  };

  window.addEventListener('message', (event) => {
    // Only the host frame speaks to a view.
    if (event.source !== window.parent) return;
    const message = event.data;
    if (message === null || typeof message !== 'object' || message.jsonrpc !== '2.0') return;
    if (typeof message.method !== 'string') {
      const waiting = pending.get(message.id);
      if (waiting === undefined) return;
      pending.delete(message.id);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
      return;
    }
    if (message.id !== undefined) {
      const answer = answers[message.method];
      post(answer ? { jsonrpc: '2.0', id: message.id, result: answer(message.params) } : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
      return;
    }
    notifications[message.method]?.(message.params);
  });

  root.replaceChildren(h('p', { class: 'soft', id: 'message' }, 'Waiting for the result…'));
  request('ui/initialize', { appInfo: { name: `sightline-${appName}`, version: '1.0.0' }, appCapabilities: {}, protocolVersion: PROTOCOL_VERSION }).then(
    (result) => {
      applyHostContext(result?.hostContext);
      notify('ui/notifications/initialized', {});
      reportSize(notify);
    },
    (error) => root.replaceChildren(h('p', { class: 'error', id: 'message' }, `The host refused the view: ${error.message}`)),
  );
}
