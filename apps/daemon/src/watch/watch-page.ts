/**
 * The watch viewer: static HTML, CSS and JS served by the watch listener under a CSP that allows
 * only these files, blob: images (the frames) and a WebSocket to the listener itself. The script
 * reads the tab and token from the URL fragment (never sent to any server), removes them from the
 * address bar, and sends the token as the socket's first message. Page text (URL, commands) is set
 * with textContent only.
 */

export const WATCH_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>Argus watch</title>
<link rel="stylesheet" href="/watch.css">
<script src="/watch.js" defer></script>
</head>
<body>
<header><span id="state">connecting</span> <span id="url"></span></header>
<main><img id="screen" alt="The watched tab"></main>
<aside><h2>Last commands</h2><ol id="commands"></ol></aside>
</body>
</html>
`;

export const WATCH_CSS = `body{margin:0;font:13px system-ui,sans-serif;background:#1e1e1e;color:#ddd;display:grid;grid-template:auto 1fr/1fr 22em;height:100vh}
header{grid-column:1/3;padding:6px 10px;background:#111;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
#state{display:inline-block;padding:0 6px;border-radius:3px;background:#555;color:#fff}
#state.live{background:#2a7}#state.control{background:#c70}#state.ended{background:#a33}
main{overflow:auto;display:flex;align-items:flex-start;justify-content:center;padding:8px}
#screen{max-width:100%;box-shadow:0 0 0 1px #444}
body.control #screen{cursor:crosshair}
aside{overflow:auto;padding:0 10px;border-left:1px solid #333}
aside h2{font-size:13px}
ol{padding-left:1.4em;margin:0}li{margin:0 0 6px;word-break:break-all}
li.failed{color:#f88}li small{color:#999;display:block}
`;

export const WATCH_JS = `'use strict';
(function () {
  const params = new URLSearchParams(location.hash.slice(1));
  const tab = params.get('tab') || '';
  const token = params.get('token') || '';
  // the token stays in memory only: not in the address bar, the history entry or a referrer
  history.replaceState(null, '', location.pathname);
  const state = document.getElementById('state');
  const urlLine = document.getElementById('url');
  const screen = document.getElementById('screen');
  const list = document.getElementById('commands');
  const stats = { frames: 0, lastFrameAt: 0, control: false, closed: '' };
  window.__argusWatch = stats;
  let shown = '';
  let control = false;

  function setState(text, kind) {
    state.textContent = text;
    state.className = kind;
  }
  function addCommand(entry) {
    const item = document.createElement('li');
    if (!entry.ok) item.className = 'failed';
    item.textContent = entry.command + (entry.ok ? '' : ' ' + (entry.error || 'failed')) + ' (' + entry.durationMs + ' ms)';
    const detail = document.createElement('small');
    detail.textContent = entry.at.slice(11, 19) + (entry.input ? ' ' + entry.input : '');
    item.appendChild(detail);
    list.insertBefore(item, list.firstChild);
    while (list.children.length > 20) list.removeChild(list.lastChild);
  }

  const socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/watch/ws');
  socket.binaryType = 'blob';
  socket.onopen = function () {
    socket.send(JSON.stringify({ type: 'auth', tab: tab, token: token }));
  };
  socket.onmessage = function (event) {
    if (typeof event.data !== 'string') {
      const next = URL.createObjectURL(event.data);
      screen.onload = function () {
        if (shown) URL.revokeObjectURL(shown);
        shown = next;
        stats.frames++;
        stats.lastFrameAt = Date.now();
        document.body.dataset.frames = String(stats.frames);
      };
      screen.src = next;
      return;
    }
    const message = JSON.parse(event.data);
    if (message.type === 'hello') {
      control = message.control;
      stats.control = control;
      document.body.classList.toggle('control', control);
      setState(control ? 'live, you may click and type' : 'live, view only', control ? 'control' : 'live');
      urlLine.textContent = message.url;
      message.commands.forEach(addCommand);
    } else if (message.type === 'url') {
      urlLine.textContent = message.url;
    } else if (message.type === 'command') {
      addCommand(message.entry);
    } else if (message.type === 'error') {
      setState(message.message, 'ended');
    }
  };
  socket.onclose = function (event) {
    stats.closed = event.reason || String(event.code);
    setState('ended: ' + (event.reason || 'connection closed'), 'ended');
  };
  screen.addEventListener('click', function (event) {
    if (!control) return;
    const box = screen.getBoundingClientRect();
    socket.send(JSON.stringify({ type: 'click', x: (event.clientX - box.left) / box.width, y: (event.clientY - box.top) / box.height }));
  });
  document.addEventListener('keydown', function (event) {
    if (!control || event.isComposing) return;
    event.preventDefault();
    socket.send(JSON.stringify({ type: 'key', key: event.key }));
  });
})();
`;
