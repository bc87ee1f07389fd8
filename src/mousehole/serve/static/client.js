// mousehole serve: the table page. Everything the server sends is shown as text
// (textContent), never as markup; the picture is an image (an SVG blob), so nothing in it
// can run. The link's token is the page's fragment: it goes to the server only inside the
// WebSocket's hello.
(function () {
  'use strict';
  var parts = location.pathname.split('/').filter(function (s) { return s.length > 0; });
  var tableId = parts.length >= 2 ? parts[1] : '';
  var token = location.hash.replace(/^#/, '');
  var ws = null;
  var welcome = null;
  var current = null;
  var retry = 0;
  var refused = false;
  var pictureUrl = null;
  var lastEvent = 0;
  var sending = false;

  function $(id) { return document.getElementById(id); }

  function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } }

  function item(tag, text, cls) {
    var node = document.createElement(tag);
    node.textContent = text;
    if (cls) { node.className = cls; }
    return node;
  }

  function setConn(text, cls) {
    var c = $('conn');
    c.textContent = text;
    c.className = 'conn ' + (cls || '');
  }

  function banner(text) {
    var b = $('banner');
    b.textContent = text || '';
    b.hidden = !text;
  }

  function label(p) {
    if (welcome && welcome.labels && p >= 0 && p < welcome.labels.length) { return welcome.labels[p]; }
    return 'seat ' + p;
  }

  function isBot(p) { return !!(welcome && welcome.seats[p] && welcome.seats[p].bot); }

  function send(msg) {
    if (ws && ws.readyState === 1) { ws.send(JSON.stringify(msg)); return true; }
    return false;
  }

  function connect() {
    if (!tableId || !token) {
      setConn('this page needs the link you were sent (it ends in #...)', 'bad');
      return;
    }
    var scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
    ws = new WebSocket(scheme + location.host + '/ws/' + encodeURIComponent(tableId));
    ws.onopen = function () {
      retry = 0;
      setConn('connected', 'ok');
      send({ type: 'hello', token: token });
    };
    ws.onmessage = function (ev) {
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      handle(msg);
    };
    ws.onclose = function () {
      sending = false;
      if (refused) { return; }
      var wait = Math.min(10, Math.pow(2, retry));
      retry += 1;
      setConn('disconnected: trying again in ' + wait + ' s', 'bad');
      setTimeout(connect, wait * 1000);
    };
  }

  function handle(msg) {
    if (msg.type === 'welcome') {
      welcome = msg;
      showWelcome(msg);
    } else if (msg.type === 'state') {
      current = msg;
      sending = false;
      banner('');
      showState(msg);
    } else if (msg.type === 'error') {
      sending = false;
      banner(msg.message);
      if (msg.code === 'bad-token' || msg.code === 'hello') {
        refused = true;
        setConn('this link was refused', 'bad');
      }
      if (current) { showMoves(current); }
    } else if (msg.type === 'replay') {
      var a = $('replay-link');
      a.href = msg.url;
      a.hidden = false;
      a.textContent = 'open the replay (this link works for two minutes)';
    }
  }

  function showWelcome(w) {
    document.title = w.title + ': mousehole table';
    $('title').textContent = w.title;
    $('who').textContent = w.seat === null ? 'you are watching (spectator)' : 'you are ' + label(w.seat);
    $('picture').alt = w.seat === null ? 'the table as every seat sees it (no hand shown)'
      : 'the table as ' + label(w.seat) + ' sees it';
    var seats = $('seats');
    clear(seats);
    w.seats.forEach(function (s, p) {
      seats.appendChild(item('li', label(p) + (s.bot ? ': bot ' + s.bot : ': a person')));
    });
    var readings = Object.keys(w.readings).map(function (k) { return k + '=' + w.readings[k]; });
    $('settings').textContent = w.players + ' players; bots think ' + w.seconds + ' s a move' +
      (readings.length ? '; readings: ' + readings.join(', ') : '');
    $('replay-box').hidden = (w.seat === null);
  }

  function showPicture(svg) {
    var url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    var img = $('picture');
    img.src = url;
    if (pictureUrl) { URL.revokeObjectURL(pictureUrl); }
    pictureUrl = url;
  }

  function showStatus(s) {
    var status = $('status');
    var mine = welcome && welcome.seat !== null && s.to_act.indexOf(welcome.seat) >= 0;
    if (s.status === 'abandoned') {
      status.textContent = 'This table was closed after a long time without a move.';
    } else if (s.result) {
      status.textContent = 'The game is over.';
    } else if (mine) {
      status.textContent = 'Your move.';
    } else {
      var others = s.to_act.map(function (p) { return label(p) + (isBot(p) ? ' (bot, thinking)' : ''); });
      status.textContent = others.length ? 'Waiting for ' + others.join(', ') + '.' : 'Waiting.';
    }
    status.className = mine ? 'your-turn' : '';
  }

  function showMoves(s) {
    var box = $('moves-box');
    var list = $('moves');
    var legal = s.legal || [];
    box.hidden = legal.length === 0;
    clear(list);
    var filter = $('filter').value.trim().toLowerCase();
    var shown = 0;
    legal.forEach(function (m) {
      if (filter && m[1].toLowerCase().indexOf(filter) < 0) { return; }
      var li = document.createElement('li');
      var b = item('button', m[1], 'move');
      b.type = 'button';
      b.dataset.action = String(m[0]);
      b.disabled = sending;
      b.addEventListener('click', function () { play(m[0], s.turn); });
      li.appendChild(b);
      list.appendChild(li);
      shown += 1;
    });
    $('move-count').textContent = '(' + (shown === legal.length ? legal.length : shown + ' of ' + legal.length) + ')';
    var q = $('queued');
    var queued = s.queued || [];
    q.hidden = queued.length === 0;
    q.textContent = queued.length ? 'Your choice, face down until the others have chosen: ' + queued.join(', ') : '';
  }

  function play(action, turn) {
    if (sending) { return; }
    if (send({ type: 'move', turn: turn, action: action })) {
      sending = true;
      Array.prototype.forEach.call(document.querySelectorAll('button.move'), function (b) { b.disabled = true; });
    }
  }

  function showEvents(events) {
    var list = $('events');
    events.forEach(function (e) {
      if (e.n <= lastEvent) { return; }
      lastEvent = e.n;
      var li = item('li', e.text, welcome && e.seat === welcome.seat ? 'mine' : '');
      li.value = e.ply;  // numbered by the game's move, the newest on top
      list.insertBefore(li, list.firstChild);
    });
    while (list.childNodes.length > 200) { list.removeChild(list.lastChild); }
  }

  function showResult(s) {
    var box = $('result');
    if (!s.result) { box.hidden = true; return; }
    box.hidden = false;
    $('why').textContent = 'Why: ' + s.result.why + '.';
    var scores = $('scores');
    clear(scores);
    s.result.lines.forEach(function (line, p) {
      scores.appendChild(item('li', line, s.result.winners.indexOf(p) >= 0 ? 'winner' : ''));
    });
  }

  function showState(s) {
    showPicture(s.picture);
    showStatus(s);
    showMoves(s);
    showEvents(s.events || []);
    showResult(s);
    document.body.dataset.seq = String(s.seq);
    document.body.dataset.status = s.result ? 'over' : s.status;
  }

  // another link of the same table opened in this tab changes the fragment only: start again
  window.addEventListener('hashchange', function () { location.reload(); });

  document.addEventListener('DOMContentLoaded', function () {
    $('filter').addEventListener('input', function () { if (current) { showMoves(current); } });
    $('replay').addEventListener('click', function () { send({ type: 'replay' }); });
    connect();
  });
})();
