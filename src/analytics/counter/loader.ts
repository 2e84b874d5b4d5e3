/**
 * The tracking loader served at /t.js. Plain ES2017 a browser runs as is (so no build step stands between this text
 * and what sites load); kept small by hand: the bench measures it gzipped (aim: under 2 KB).
 *
 * It reports a page view on load and on single-page navigation (history.pushState, popstate), the page's visible time
 * when the page is hidden or left (engagement; `v` marks a page view's first report), and a lead when a form is
 * submitted: a form carrying `data-sightline-lead`, or any form with an email field when the tag has
 * `data-leads="email"`. Passwords, hidden fields, files and card-like fields are never read. No cookies, no storage:
 * the service tells visitors apart only within a day, from the request itself. Beacons never hold up the page.
 *
 * Reports name the page they are about (`href`), not `location`: when pushState or popstate tell of a new page,
 * location already shows it, while the visible time then reported was spent on the page before. The fragment is no
 * page: an in-page anchor is not a page view. Leaving a page fires pagehide and then visibilitychange; the time is
 * reported once, at pagehide.
 */
export const LOADER_SOURCE = `(function (w, d, n) {
  var me = d.currentScript, site = me && me.getAttribute('data-site');
  if (!site) return;
  var end = new URL(me.src).origin + '/api/site/collect', emailForms = me.getAttribute('data-leads') == 'email';
  var href, shown = 0, since = 0, first = 1, skip = /pass|card|cc-|cvc|cvv|iban|ssn|secret|token/i;
  function here() { return location.href.split('#')[0]; }
  function send(t, x) {
    var b = { s: site, t: t, u: href };
    for (var k in x) b[k] = x[k];
    b = JSON.stringify(b);
    try { if (n.sendBeacon && n.sendBeacon(end, b)) return; } catch (e) {}
    if (w.fetch) fetch(end, { method: 'POST', body: b, keepalive: true, credentials: 'omit' }).catch(function () {});
  }
  function visible() { return d.visibilityState == 'visible'; }
  function engaged() {
    if (since) { shown += Date.now() - since; since = visible() ? Date.now() : 0; }
    if (shown > 0) { send('engagement', { e: shown, v: first }); first = 0; shown = 0; }
  }
  function view() {
    if (href == here()) return;
    engaged();
    var from = href || d.referrer;
    href = here(); first = 1; shown = 0; since = visible() ? Date.now() : 0;
    send('pageview', { r: from });
  }
  d.addEventListener('visibilitychange', function () { if (visible()) since = Date.now(); else engaged(); });
  w.addEventListener('pagehide', function () { engaged(); since = 0; });
  var push = history.pushState;
  history.pushState = function () { push.apply(this, arguments); view(); };
  w.addEventListener('popstate', view);
  d.addEventListener('submit', function (ev) {
    var form = ev.target, marked = form.hasAttribute && form.hasAttribute('data-sightline-lead');
    if (!form.elements || !(marked || (emailForms && form.querySelector('input[type=email]')))) return;
    var f = {}, count = 0;
    for (var i = 0; i < form.elements.length && count < 30; i++) {
      var el = form.elements[i], key = el.name || el.id, type = (el.type || '').toLowerCase();
      if (!key || !el.value || /password|hidden|file|submit|button|reset|image/.test(type) || skip.test(key) || skip.test(el.autocomplete || '')) continue;
      if ((type == 'checkbox' || type == 'radio') && !el.checked) continue;
      f[key.slice(0, 64)] = String(el.value).slice(0, 1000); count++;
    }
    if (count) send('lead', { f: f, i: form.id || form.getAttribute('name') || undefined });
  }, true);
  view();
})(window, document, navigator);
`;
