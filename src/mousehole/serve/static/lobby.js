// mousehole serve: the lobby. It asks the server which games a table may have, builds the
// form from the answer, and shows the seat links of the table it created.
(function () {
  'use strict';
  var info = null;

  function $(id) { return document.getElementById(id); }

  function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } }

  function option(value, text) {
    var o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    return o;
  }

  function game() {
    var id = $('game').value;
    return info.games.filter(function (g) { return g.id === id; })[0];
  }

  function fillPlayers() {
    var g = game();
    var sel = $('players');
    var was = parseInt(sel.value, 10) || 3;
    clear(sel);
    for (var n = g.min_players; n <= g.max_players; n += 1) { sel.appendChild(option(String(n), String(n))); }
    sel.value = String(Math.max(g.min_players, Math.min(g.max_players, was)));
    var box = $('readings');
    Array.prototype.slice.call(box.querySelectorAll('p')).forEach(function (p) { box.removeChild(p); });
    g.readings.forEach(function (r) {
      var p = document.createElement('p');
      var l = document.createElement('label');
      l.appendChild(document.createTextNode(r.param + ' '));
      var s = document.createElement('select');
      s.dataset.param = r.param;
      r.values.forEach(function (v) { s.appendChild(option(v, v + (v === r.default ? ' (default)' : ''))); });
      s.value = r.default;
      var meaning = document.createElement('small');
      meaning.className = 'meaning';
      function explain() { meaning.textContent = r.meaning[r.values.indexOf(s.value)] || ''; }
      s.addEventListener('change', explain);
      explain();
      l.appendChild(s);
      p.appendChild(l);
      p.appendChild(meaning);
      box.appendChild(p);
    });
    box.hidden = g.readings.length === 0;
    fillSeats();
  }

  function fillSeats() {
    var n = parseInt($('players').value, 10);
    var list = $('seat-list');
    var kept = Array.prototype.slice.call(list.children);
    while (kept.length > n) { list.removeChild(kept.pop()); }
    for (var p = kept.length; p < n; p += 1) {
      var li = document.createElement('li');
      var kind = document.createElement('select');
      kind.className = 'kind';
      kind.appendChild(option('person', 'a person'));
      info.levels.forEach(function (lv) { kind.appendChild(option(lv, 'bot: ' + lv)); });
      kind.value = p === 0 || p === 1 ? 'person' : info.levels[info.levels.length - 1];
      var name = document.createElement('input');
      name.className = 'name';
      name.maxLength = 32;
      name.placeholder = 'name';
      name.value = p === 0 || p === 1 ? 'player ' + (p + 1) : '';
      li.appendChild(kind);
      li.appendChild(name);
      list.appendChild(li);
    }
  }

  function request() {
    var seats = Array.prototype.map.call($('seat-list').children, function (li) {
      var kind = li.querySelector('.kind').value;
      var name = li.querySelector('.name').value.trim();
      var seat = kind === 'person' ? { name: name || 'player' } : { bot: kind };
      if (kind !== 'person' && name) { seat.name = name; }
      return seat;
    });
    var readings = {};
    Array.prototype.forEach.call($('readings').querySelectorAll('select'), function (s) {
      readings[s.dataset.param] = s.value;
    });
    return { game: $('game').value, players: seats.length, readings: readings, seats: seats,
             seconds: parseFloat($('seconds').value) };
  }

  function showLinks(made) {
    var list = $('links');
    clear(list);
    function add(text, link) {
      var li = document.createElement('li');
      li.appendChild(document.createTextNode(text + ': '));
      if (link) {
        var a = document.createElement('a');
        a.href = location.origin + link;
        a.textContent = location.origin + link;
        a.target = '_blank';
        a.rel = 'noopener noreferrer';
        li.appendChild(a);
      } else {
        li.appendChild(document.createTextNode('played by the server'));
      }
      list.appendChild(li);
    }
    made.seats.forEach(function (s) { add('seat ' + s.seat + ' (' + s.name + ')', s.link); });
    add('spectators', made.spectator_link);
    $('made').hidden = false;
  }

  function submit(ev) {
    ev.preventDefault();
    $('lobby-error').hidden = true;
    fetch('/api/tables', { method: 'POST', headers: { 'Content-Type': 'application/json' },
                           body: JSON.stringify(request()) })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (r) {
        if (!r.ok) { throw new Error(r.body.message || 'the table was refused'); }
        showLinks(r.body);
      })
      .catch(function (e) {
        var b = $('lobby-error');
        b.textContent = String(e.message || e);
        b.hidden = false;
      });
  }

  document.addEventListener('DOMContentLoaded', function () {
    fetch('/api/games').then(function (r) { return r.json(); }).then(function (data) {
      info = data;
      var sel = $('game');
      data.games.forEach(function (g) { sel.appendChild(option(g.id, g.title)); });
      var secs = $('seconds');
      secs.min = String(data.seconds.min);
      secs.max = String(data.seconds.max);
      secs.value = String(data.seconds.default);
      sel.addEventListener('change', fillPlayers);
      $('players').addEventListener('change', fillSeats);
      $('create').addEventListener('submit', submit);
      fillPlayers();
    });
  });
})();
