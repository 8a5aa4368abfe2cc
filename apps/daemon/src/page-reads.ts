/**
 * Page functions for the reading commands. They run in Argus's isolated world with `this` bound to
 * `document` or to a scoping element, so they are plain JavaScript source (the daemon has no DOM
 * types) and must not refer to anything outside their own body. Open shadow roots are searched.
 */

/** Shared prelude: `deepAll(root, selector)` (through open shadow roots) and `norm(text)`. */
const PRELUDE = `
  const deepAll = (root, selector) => {
    const out = [];
    const visit = (node) => {
      if (node.nodeType === 1 && node.matches(selector)) out.push(node);
      if (node.shadowRoot) visit(node.shadowRoot);
      for (let child = node.firstElementChild; child; child = child.nextElementSibling) visit(child);
    };
    if (root.nodeType === 9) { if (root.documentElement) visit(root.documentElement); } else visit(root);
    return out;
  };
  const norm = (text) => String(text || '').replace(/\\s+/g, ' ').trim();
`;

export const LINKS_FN = `function (maxItems, filter) {
  ${PRELUDE}
  const needle = filter ? filter.toLowerCase() : '';
  const links = [];
  let total = 0;
  for (const a of deepAll(this, 'a[href], area[href]')) {
    let href = a.href;
    if (typeof href !== 'string') {
      try { href = new URL(a.getAttribute('href') || '', document.baseURI).href; } catch { continue; }
    }
    if (!href) continue;
    const img = a.querySelector && a.querySelector('img[alt]');
    const text = norm(a.innerText || a.textContent) || norm(a.getAttribute('aria-label')) || norm(a.getAttribute('title')) || norm(img && img.getAttribute('alt')) || norm(a.getAttribute('alt'));
    if (needle && !href.toLowerCase().includes(needle) && !text.toLowerCase().includes(needle)) continue;
    total++;
    if (links.length < maxItems) links.push({ text: text.slice(0, 500), href });
  }
  return { links, total, truncated: total > links.length };
}`;

/**
 * Forms and fields. Runs right after an interactive snapshot: the walker's ids of the elements it
 * emitted (`__argus.lastIds`) let the daemon turn each field into its ref.
 */
export const FORMS_FN = `function () {
  ${PRELUDE}
  const api = globalThis.__argus;
  const ids = new Map();
  if (api && api.lastIds) for (const id of api.lastIds) { const el = api.get(id, api.token); if (el) ids.set(el, id); }
  const textOfIds = (el, attr) => (el.getAttribute(attr) || '').split(/\\s+/).map((id) => {
    const target = id && el.getRootNode().getElementById ? el.getRootNode().getElementById(id) : null;
    return target ? norm(target.innerText || target.textContent) : '';
  }).join(' ').trim();
  const labelText = (label) => {
    const clone = label.cloneNode(true);
    for (const control of clone.querySelectorAll('input, select, textarea, button')) control.remove();
    return norm(clone.textContent);
  };
  const labelOf = (el) => {
    if (el.hasAttribute('aria-labelledby')) { const t = textOfIds(el, 'aria-labelledby'); if (t) return t; }
    if (el.getAttribute('aria-label')) return norm(el.getAttribute('aria-label'));
    if (el.labels && el.labels.length) { const t = Array.from(el.labels, labelText).join(' ').trim(); if (t) return t; }
    const tag = el.tagName;
    if (tag === 'BUTTON') return norm(el.innerText || el.textContent);
    if (tag === 'INPUT' && ['submit', 'reset', 'button'].includes(el.type)) return norm(el.value);
    return norm(el.getAttribute('placeholder') || el.getAttribute('title') || '');
  };
  const groups = new Map();
  const order = [];
  for (const el of deepAll(this, 'input, select, textarea, button')) {
    const tag = el.tagName.toLowerCase();
    const type = tag === 'input' ? el.type : tag === 'select' ? el.type : tag === 'textarea' ? 'textarea' : el.type || 'submit';
    let value = tag === 'button' ? norm(el.value) : String(el.value ?? '');
    if (type === 'password' && value) value = '\\u2022\\u2022\\u2022\\u2022';
    if (type === 'file' && el.files) value = Array.from(el.files, (file) => file.name).join(', ');
    const id = ids.get(el);
    const field = {
      walkerId: id === undefined ? null : id,
      tag,
      type,
      name: el.getAttribute('name') || '',
      id: el.id || '',
      label: labelOf(el).slice(0, 300),
      value: value.slice(0, 2000),
      checked: type === 'checkbox' || type === 'radio' ? !!el.checked : null,
      required: !!el.required,
      disabled: !!el.matches(':disabled'),
      options: tag === 'select' ? Array.from(el.options).slice(0, 500).map((o) => ({ value: o.value, label: norm(o.label || o.text), selected: o.selected })) : null,
    };
    const form = el.form || null;
    if (!groups.has(form)) { groups.set(form, []); order.push(form); }
    groups.get(form).push(field);
  }
  // attributes, not properties: a field named "action" or "id" shadows the form's property
  const absolute = (url) => { try { return new URL(url || '', document.baseURI).href; } catch { return document.URL; } };
  const forms = order.filter((form) => form).map((form) => ({
    name: form.getAttribute('name') || form.getAttribute('id') || '',
    action: absolute(form.getAttribute('action')),
    method: (form.getAttribute('method') || 'get').toLowerCase() === 'post' ? 'post' : (form.getAttribute('method') || 'get').toLowerCase() === 'dialog' ? 'dialog' : 'get',
    fields: groups.get(form),
  }));
  if (groups.has(null)) forms.push({ name: '', action: null, method: '', fields: groups.get(null) });
  return { token: api ? api.token : '', forms };
}`;

export const MEDIA_FN = `function (want, maxItems) {
  ${PRELUDE}
  let truncated = false;
  const cap = (list) => { if (list.length > maxItems) { truncated = true; return list.slice(0, maxItems); } return list; };
  const box = (el) => { const r = el.getBoundingClientRect(); return { width: Math.round(r.width), height: Math.round(r.height), visible: r.width > 0 && r.height > 0 }; };
  const duration = (el) => (Number.isFinite(el.duration) ? el.duration : null);
  const sources = (el) => [...new Set([el.src, ...Array.from(el.querySelectorAll('source'), (s) => s.src)].filter(Boolean))];
  const out = { images: [], videos: [], audio: [] };
  if (want.images) {
    out.images = cap(deepAll(this, 'img, input[type=image]')).map((img) => ({
      src: img.currentSrc || img.src || '',
      alt: img.getAttribute('alt') || '',
      naturalWidth: img.naturalWidth || 0,
      naturalHeight: img.naturalHeight || 0,
      ...box(img),
    }));
  }
  if (want.videos) {
    out.videos = cap(deepAll(this, 'video')).map((video) => {
      const all = sources(video);
      return { src: video.currentSrc || all[0] || '', sources: all, poster: video.poster || '', videoWidth: video.videoWidth || 0, videoHeight: video.videoHeight || 0, duration: duration(video), ...box(video) };
    });
  }
  if (want.audio) {
    out.audio = cap(deepAll(this, 'audio')).map((audio) => {
      const all = sources(audio);
      return { src: audio.currentSrc || all[0] || '', sources: all, duration: duration(audio) };
    });
  }
  return { ...out, truncated };
}`;

export const DATA_FN = `function (want) {
  const put = (record, key, value) => {
    if (!(key in record)) record[key] = value;
    else if (Array.isArray(record[key])) record[key].push(value);
    else record[key] = [record[key], value];
  };
  const out = { jsonld: [], og: {}, twitter: {}, meta: {}, canonical: null, lang: null };
  if (want.jsonld) {
    for (const script of document.querySelectorAll('script[type="application/ld+json" i]')) {
      const raw = script.textContent || '';
      try { out.jsonld.push(JSON.parse(raw)); } catch (error) { out.jsonld.push({ error: String(error && error.message || error), raw: raw.slice(0, 2000) }); }
    }
  }
  const OG = /^(og|article|book|profile|product|music|video|fb|business|place):/i;
  for (const meta of document.querySelectorAll('meta')) {
    const property = meta.getAttribute('property');
    const key = property || meta.getAttribute('name') || meta.getAttribute('http-equiv') || meta.getAttribute('itemprop') || (meta.hasAttribute('charset') ? 'charset' : '');
    if (!key) continue;
    const value = meta.hasAttribute('charset') && !meta.hasAttribute('content') ? meta.getAttribute('charset') : meta.getAttribute('content') || '';
    if (/^twitter:/i.test(key)) { if (want.twitter) put(out.twitter, key.toLowerCase(), value); }
    else if (OG.test(key)) { if (want.og) put(out.og, key.toLowerCase(), value); }
    else if (want.meta) put(out.meta, key.toLowerCase(), value);
  }
  if (want.meta) {
    const canonical = document.querySelector('link[rel~="canonical" i][href]');
    out.canonical = canonical ? canonical.href : null;
    out.lang = document.documentElement ? document.documentElement.getAttribute('lang') : null;
  }
  return out;
}`;
