// The catchess page: plain JavaScript drawing SVG, no build step.
// Everything about a board (size, squares or points, river, palaces,
// piece set, seats, cats) comes from GET /api/variants; everything about
// a position from the game's state (api.md).
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 60;
const MARGIN = 22;
const $ = (id) => document.getElementById(id);

const ui = {
  layouts: {},       // variant name -> layout
  state: null,       // the game's state from the API
  seats: {},         // seat name -> {kind: 'person' | 'engine', unit: 'movetime' | 'depth', value}
  flipped: false,
  selected: null,    // square name
  thinking: false,   // an engine move is being asked for
  token: 0,          // bumped by every new game: stale answers are dropped
  events: null,      // EventSource of the game's searches
  drag: null,
};

// ---- API ---------------------------------------------------------------

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch('/api' + path, init);
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new Error((data && data.error) || response.statusText);
  return data;
}

function showError(e) {
  $('error').textContent = e ? String(e.message || e) : '';
}

// ---- Pieces (drawn here; a 100×100 box) --------------------------------

const FIGURES = {
  p: '<circle cx="50" cy="30" r="13"/><path d="M37 46 H63 L69 78 H31 Z"/><rect x="22" y="76" width="56" height="12" rx="3"/>',
  r: '<path d="M25 20 h10 v8 h8 v-8 h14 v8 h8 v-8 h10 v20 h-6 v30 h12 v12 h-62 v-12 h12 v-30 h-6 Z"/>',
  n: '<path d="M30 86 H74 C74 60 72 34 52 20 L48 10 L41 20 C31 26 22 40 20 52 L27 59 L39 50 C43 55 37 61 34 66 C30 73 30 80 30 86 Z"/><circle class="detail" cx="44" cy="32" r="3.5"/>',
  b: '<circle cx="50" cy="20" r="7"/><path d="M35 76 C27 60 33 42 50 28 C67 42 73 60 65 76 Z"/><path class="line" d="M45 42 L57 56"/><rect x="24" y="76" width="52" height="12" rx="3"/>',
  q: '<path d="M24 76 L14 32 L33 54 L38 22 L50 50 L62 22 L67 54 L86 32 L76 76 Z"/><circle cx="14" cy="30" r="5"/><circle cx="38" cy="20" r="5"/><circle cx="62" cy="20" r="5"/><circle cx="86" cy="30" r="5"/><rect x="22" y="76" width="56" height="12" rx="3"/>',
  k: '<rect x="46" y="6" width="8" height="28"/><rect x="38" y="13" width="24" height="8"/><path d="M26 76 C16 54 32 40 50 46 C68 40 84 54 74 76 Z"/><rect x="43" y="34" width="14" height="13"/><rect x="22" y="76" width="56" height="12" rx="3"/>',
};

const CAT =
  '<g class="cat"><path d="M24 44 L28 10 L46 30 Z M76 44 L72 10 L54 30 Z"/><ellipse cx="50" cy="56" rx="30" ry="27"/>' +
  '<ellipse class="eye" cx="39" cy="51" rx="4.5" ry="7"/><ellipse class="eye" cx="61" cy="51" rx="4.5" ry="7"/>' +
  '<path class="nose" d="M45 63 H55 L50 69 Z"/><path class="whisker" d="M6 60 L34 64 M6 72 L34 68 M94 60 L66 64 M94 72 L66 68"/></g>';

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// A piece at (x, y), the top left of its cell, `size` wide.
function drawPiece(parent, letter, x, y, size, layout) {
  const g = el('g', { transform: `translate(${x} ${y}) scale(${size / 100})`, class: 'piece' }, parent);
  if (letter === '*') {
    g.innerHTML = CAT;
    return g;
  }
  const upper = letter === letter.toUpperCase();
  const discs = layout && layout.pieces === 'discs';
  const label = discs ? labelOf(layout, letter) : null;
  if (discs || !FIGURES[letter.toLowerCase()]) {
    g.setAttribute('class', 'piece disc ' + (upper ? 'first' : 'second'));
    el('circle', { cx: 50, cy: 50, r: 44 }, g);
    el('circle', { cx: 50, cy: 50, r: 36, class: 'ring' }, g);
    const t = el('text', { x: 50, y: 52, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g);
    t.textContent = label !== null ? label : letter.toUpperCase();
    if (label === null) t.setAttribute('class', 'latin');
    return g;
  }
  g.setAttribute('class', 'piece figure ' + (upper ? 'first' : 'second'));
  g.innerHTML = FIGURES[letter.toLowerCase()];
  return g;
}

function labelOf(layout, letter) {
  const found = layout.labels.find(([l]) => l === letter);
  return found && canShow(found[1]) ? found[1] : null;
}

// Whether the browser has a font for `text`: a missing glyph is drawn as
// the same box as a character no font has. Without one, discs show the
// FEN letter instead.
const shown = new Map();
function canShow(text) {
  if (!shown.has(text)) {
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = '40px serif';
    const box = ctx.measureText('\u{10FFFD}').width;
    const first = [...text].find((c) => c !== ' ') || ' ';
    shown.set(text, /^[\x20-\x7e]*$/.test(text) || ctx.measureText(first).width !== box);
  }
  return shown.get(text);
}

// ---- The board ---------------------------------------------------------

function layout() {
  return ui.state && ui.layouts[ui.state.variant];
}

// Top left of the cell of (file, rank) as seen from the chosen side.
function cellXY(L, file, rank) {
  const col = ui.flipped ? L.files - 1 - file : file;
  const row = ui.flipped ? rank : L.ranks - 1 - rank;
  return [MARGIN + col * CELL, MARGIN + row * CELL];
}

function center(L, file, rank) {
  const [x, y] = cellXY(L, file, rank);
  return [x + CELL / 2, y + CELL / 2];
}

function personToMove() {
  const s = ui.state;
  return s && !s.outcome && !ui.thinking && ui.seats[s.turn] && ui.seats[s.turn].kind === 'person';
}

function movesFrom(square) {
  return personToMove() ? ui.state.legal_moves.filter((m) => m.from === square) : [];
}

function render() {
  const L = layout();
  const s = ui.state;
  if (!L || !s) return;
  const width = L.files * CELL + 2 * MARGIN;
  const height = L.ranks * CELL + 2 * MARGIN;
  const svg = el('svg', { viewBox: `0 0 ${width} ${height}`, id: 'board-svg', class: 'style-' + L.style });
  el('rect', { x: 0, y: 0, width, height, class: 'frame' }, svg);
  if (L.style === 'points') drawLines(svg, L);
  drawLabels(svg, L);
  const targets = new Map();
  if (ui.selected) for (const m of movesFrom(ui.selected)) targets.set(m.to, m);
  const last = s.last_move;
  for (const q of s.board) {
    const [x, y] = cellXY(L, q.file, q.rank);
    const classes = ['sq'];
    if (movesFrom(q.square).length) classes.push('movable');
    if (targets.has(q.square)) classes.push('target');
    const g = el('g', { 'data-square': q.square, class: classes.join(' ') }, svg);
    if (q.piece) g.setAttribute('data-piece', q.piece);
    if (q.zone) g.setAttribute('data-zone', '1');
    if (q.disarmed) g.setAttribute('data-disarmed', '1');
    const dark = (q.file + q.rank) % 2 === 0;
    if (L.style === 'squares') {
      el('rect', { x, y, width: CELL, height: CELL, class: dark ? 'dark' : 'light' }, g);
    } else {
      el('rect', { x, y, width: CELL, height: CELL, class: 'hit' }, g);
    }
    if (q.zone) el('rect', { x, y, width: CELL, height: CELL, class: 'zone' }, g);
    if (last && (last.from === q.square || last.to === q.square)) mark(g, L, x, y, 'last');
    if (ui.selected === q.square) mark(g, L, x, y, 'selected');
    if (q.check) el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.48, class: 'check' }, g);
    if (q.piece) {
      const inset = L.style === 'points' ? 4 : 3;
      const p = drawPiece(g, q.piece, x + inset, y + inset, CELL - 2 * inset, L);
      if (ui.drag && ui.drag.moved && ui.drag.from === q.square) p.setAttribute('opacity', '0.3');
      if (q.disarmed) {
        const badge = el('g', { class: 'disarmed-mark' }, g);
        el('circle', { cx: x + CELL - 10, cy: y + 10, r: 8 }, badge);
        el('path', { d: `M${x + CELL - 15.5} ${y + 15.5} L${x + CELL - 4.5} ${y + 4.5}` }, badge);
        el('title', {}, badge).textContent = 'disarmed: next to a cat, it cannot capture';
      }
    }
    if (targets.has(q.square)) {
      const cls = q.piece ? 'target-ring' : 'target-dot';
      el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: q.piece ? CELL * 0.45 : CELL * 0.14, class: cls }, g);
    }
  }
  const board = $('board');
  board.replaceChildren(svg);
  svg.addEventListener('pointerdown', onPointerDown);
}

function mark(g, L, x, y, cls) {
  if (L.style === 'squares') el('rect', { x, y, width: CELL, height: CELL, class: cls }, g);
  else el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.47, class: cls }, g);
}

// Xiangqi-style boards: lines through the points, the river, palaces.
function drawLines(svg, L) {
  const g = el('g', { class: 'lines' }, svg);
  const river = L.marks.find((m) => m.kind === 'river');
  for (let r = 0; r < L.ranks; r++) {
    const [x0, y] = center(L, 0, r);
    const [x1] = center(L, L.files - 1, r);
    el('line', { x1: x0, y1: y, x2: x1, y2: y }, g);
  }
  for (let f = 0; f < L.files; f++) {
    const outer = f === 0 || f === L.files - 1;
    const spans = river && !outer ? [[0, river.below], [river.below + 1, L.ranks - 1]] : [[0, L.ranks - 1]];
    for (const [a, b] of spans) {
      const [x, y0] = center(L, f, a);
      const [, y1] = center(L, f, b);
      el('line', { x1: x, y1: y0, x2: x, y2: y1 }, g);
    }
  }
  for (const m of L.marks) {
    if (m.kind === 'palace') {
      const [ax, ay] = center(L, m.file, m.rank);
      const [bx, by] = center(L, m.file + m.files - 1, m.rank + m.ranks - 1);
      el('line', { x1: ax, y1: ay, x2: bx, y2: by }, g);
      el('line', { x1: ax, y1: by, x2: bx, y2: ay }, g);
    } else if (m.kind === 'river') {
      const [, y0] = center(L, 0, m.below);
      const [, y1] = center(L, 0, m.below + 1);
      const t = el('text', { x: MARGIN + (L.files * CELL) / 2, y: (y0 + y1) / 2, class: 'river',
        'text-anchor': 'middle', 'dominant-baseline': 'central' }, svg);
      t.textContent = canShow(m.text) ? m.text : 'river';
    }
  }
}

function drawLabels(svg, L) {
  const g = el('g', { class: 'labels' }, svg);
  L.file_names.forEach((name, f) => {
    const [x] = center(L, f, 0);
    const t = el('text', { x, y: MARGIN + L.ranks * CELL + 15, 'text-anchor': 'middle' }, g);
    t.textContent = name;
  });
  L.rank_names.forEach((name, r) => {
    const [, y] = center(L, 0, r);
    const t = el('text', { x: MARGIN / 2, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g);
    t.textContent = name;
  });
}

// ---- Moving: click-click and drag ---------------------------------------

function squareAt(clientX, clientY) {
  const hit = document.elementsFromPoint(clientX, clientY).find((n) => n.closest && n.closest('[data-square]'));
  return hit ? hit.closest('[data-square]').getAttribute('data-square') : null;
}

function onPointerDown(ev) {
  const node = ev.target.closest('[data-square]');
  if (!node) return;
  const square = node.getAttribute('data-square');
  ev.preventDefault();
  const targets = ui.selected ? movesFrom(ui.selected).filter((m) => m.to === square) : [];
  if (targets.length) {
    choose(targets);
    return;
  }
  if (!movesFrom(square).length) {
    ui.selected = null;
    render();
    return;
  }
  const again = ui.selected === square;
  ui.selected = square;
  ui.drag = { from: square, again, x: ev.clientX, y: ev.clientY, moved: false, ghost: null };
  render();
  window.addEventListener('pointermove', onPointerMove);
  window.addEventListener('pointerup', onPointerUp, { once: true });
}

function onPointerMove(ev) {
  const d = ui.drag;
  if (!d) return;
  if (!d.moved && Math.hypot(ev.clientX - d.x, ev.clientY - d.y) < 5) return;
  const L = layout();
  const q = ui.state.board.find((b) => b.square === d.from);
  if (!d.moved) {
    d.moved = true;
    render();
    d.ghost = drawPiece($('board-svg'), q.piece, 0, 0, CELL, L);
    d.ghost.style.pointerEvents = 'none';
  }
  const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform($('board-svg').getScreenCTM().inverse());
  d.ghost.setAttribute('transform', `translate(${pt.x - CELL / 2} ${pt.y - CELL / 2}) scale(${CELL / 100})`);
}

function onPointerUp(ev) {
  window.removeEventListener('pointermove', onPointerMove);
  const d = ui.drag;
  ui.drag = null;
  if (!d) return;
  const to = squareAt(ev.clientX, ev.clientY);
  if (d.moved && to && to !== d.from) {
    const targets = movesFrom(d.from).filter((m) => m.to === to);
    if (targets.length) {
      choose(targets);
      return;
    }
  }
  if (!d.moved && d.again) ui.selected = null;
  render();
}

// One move, or the promotion chooser when the squares allow several.
function choose(moves) {
  ui.selected = null;
  if (moves.length === 1) {
    play(moves[0].move);
    return;
  }
  const L = layout();
  const upper = ui.state.turn === L.seats[0].name;
  const box = $('choices');
  box.replaceChildren();
  const order = L.promotions.length ? L.promotions : moves.map((m) => m.promotion);
  for (const letter of order) {
    const m = moves.find((x) => x.promotion === letter);
    if (!m) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.setAttribute('data-promotion', letter);
    const svg = el('svg', { width: 56, height: 56, viewBox: '0 0 56 56' });
    drawPiece(svg, upper ? letter.toUpperCase() : letter, 3, 3, 50, L);
    button.appendChild(svg);
    button.addEventListener('click', () => {
      $('chooser').hidden = true;
      play(m.move);
    });
    box.appendChild(button);
  }
  $('chooser').hidden = false;
  render();
}

async function play(text) {
  try {
    showError(null);
    setState(await api('POST', `/games/${ui.state.id}/moves`, { move: text }));
  } catch (e) {
    showError(e);
    render();
  }
}

// ---- Game state, status, move list -------------------------------------

function setState(state) {
  ui.state = state;
  ui.selected = null;
  render();
  renderMoves();
  renderStatus();
  renderTablebase(state); // tablebase.js
  $('fen').value = state.fen;
  setTimeout(engineTurn, 30);
}

function renderStatus() {
  const s = ui.state;
  const node = $('status');
  node.classList.toggle('over', !!s.outcome);
  if (s.outcome) {
    node.textContent = 'Game over — ' + s.outcome.text;
  } else if (ui.thinking) {
    node.textContent = `${cap(s.turn)} (engine) is thinking…`;
  } else {
    const who = ui.seats[s.turn] && ui.seats[s.turn].kind === 'engine' ? 'engine' : 'you';
    node.textContent = `${cap(s.turn)} to move (${who})`;
  }
}

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

function renderMoves() {
  const s = ui.state;
  const L = layout();
  const list = $('moves');
  list.replaceChildren();
  let row = null;
  let number = Number(s.start_fen.split(' ').pop()) || 1;
  s.moves.forEach((m, i) => {
    const firstSeat = m.seat === L.seats[0].name;
    if (firstSeat && i > 0) number++;
    if (firstSeat || row === null) {
      row = document.createElement('li');
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = number + (firstSeat ? '.' : '…');
      row.appendChild(num);
      list.appendChild(row);
    }
    const span = document.createElement('span');
    span.className = 'ply ' + m.seat;
    if (m.ply === s.moves.length) span.classList.add('last');
    span.setAttribute('data-ply', m.ply);
    span.title = `${m.seat}: ${m.move}`;
    span.textContent = m.notation;
    row.appendChild(span);
  });
  list.scrollTop = list.scrollHeight;
  $('notation').textContent = '(' + L.notation + ')';
}

// ---- Seats and the engine ----------------------------------------------

function defaultSeats(L) {
  const seats = {};
  L.seats.forEach((s, i) => {
    seats[s.name] = { kind: i === 0 ? 'person' : 'engine', unit: 'movetime', value: 1000 };
  });
  return seats;
}

function renderSeats() {
  const L = layout();
  const box = $('seats');
  box.querySelectorAll('.seat').forEach((n) => n.remove());
  for (const seat of L.seats) {
    const conf = ui.seats[seat.name];
    const row = document.createElement('div');
    row.className = 'seat';
    row.setAttribute('data-seat', seat.name);
    row.innerHTML =
      `<b>${seat.name}</b><select class="kind"><option value="person">person</option><option value="engine">engine</option></select>` +
      `<input class="value" type="number" min="1"><select class="unit"><option value="movetime">ms</option><option value="depth">plies</option></select>`;
    const [kind, value, unit] = [row.querySelector('.kind'), row.querySelector('.value'), row.querySelector('.unit')];
    kind.value = conf.kind;
    value.value = conf.value;
    unit.value = conf.unit;
    const update = () => {
      conf.kind = kind.value;
      conf.unit = unit.value;
      conf.value = Math.max(1, Number(value.value) || 1);
      renderStatus();
      render();
      engineTurn();
    };
    [kind, value, unit].forEach((n) => n.addEventListener('change', update));
    box.appendChild(row);
  }
}

async function engineTurn() {
  const s = ui.state;
  if (!s || s.outcome || ui.thinking) return;
  const seat = ui.seats[s.turn];
  if (!seat || seat.kind !== 'engine') return;
  ui.thinking = true;
  const token = ui.token;
  renderStatus();
  render();
  try {
    const answer = await api('POST', `/games/${s.id}/engine`, { [seat.unit]: seat.value });
    ui.thinking = false;
    if (token === ui.token) setState(answer);
  } catch (e) {
    ui.thinking = false;
    if (token === ui.token) {
      showError(e);
      renderStatus();
      render();
    }
  }
}

// The engine's thinking, from the game's event stream.
function follow(id) {
  if (ui.events) ui.events.close();
  const source = new EventSource(`/api/games/${id}/analysis?follow=true`);
  ui.events = source;
  source.addEventListener('start', (ev) => {
    const d = JSON.parse(ev.data);
    $('a-what').textContent = d.kind === 'engine' ? `engine thinking for ${ui.state.turn}` : 'analysing';
  });
  source.addEventListener('info', (ev) => showInfo(JSON.parse(ev.data).info));
  source.addEventListener('done', (ev) => {
    const d = JSON.parse(ev.data);
    $('a-what').textContent = d.found.best ? `best: ${d.found.best_notation}` + (d.played ? ' (played)' : '') : '';
  });
}

function showInfo(info) {
  const L = layout();
  $('a-depth').textContent = `${info.depth}/${info.seldepth}`;
  const first = L.seats[0].name;
  $('a-score').textContent = info.score.mate !== undefined
    ? `mate ${info.score.mate} (for ${ui.state.turn})`
    : `${info.first_seat_cp >= 0 ? '+' : ''}${(info.first_seat_cp / 100).toFixed(2)} (${first}'s view)`;
  $('a-nodes').textContent = `${info.nodes.toLocaleString()} (${Math.round(info.nps / 1000)} kn/s)`;
  $('a-pv').textContent = info.pv_notation.join(' ');
  const bar = $('outlook');
  const chances = info.outlook || twoWay(L, info);
  bar.hidden = false;
  bar.replaceChildren();
  for (const c of chances) {
    const part = document.createElement('div');
    part.className = c.seat;
    part.style.width = c.percent + '%';
    part.textContent = c.percent >= 12 ? `${c.seat} ${c.percent}%` : '';
    part.title = `${c.seat}: ${c.percent}%`;
    bar.appendChild(part);
  }
}

// A two-seat game: the first seat's share from the score.
function twoWay(L, info) {
  const p = Math.round(100 / (1 + Math.exp(-info.first_seat_cp / 250)));
  return [{ seat: L.seats[0].name, percent: p }, { seat: L.seats[1].name, percent: 100 - p }];
}

// ---- New game, take back, FEN and PGN ----------------------------------

async function newGame(body) {
  await showGame(null, body);
}

// Shows `state`, or a new game made from `body` when it is null.
async function showGame(state, body) {
  try {
    showError(null);
    if (!state) state = await api('POST', '/games', body);
    history.replaceState(null, '', '#game=' + encodeURIComponent(state.id));
    ui.token++;
    ui.thinking = false;
    const old = ui.state;
    if (!old || old.variant !== state.variant) ui.seats = defaultSeats(ui.layouts[state.variant]);
    ui.state = state;
    $('variant').value = state.variant;
    renderSeats();
    renderLegend();
    follow(state.id);
    $('outlook').hidden = true;
    ['a-depth', 'a-score', 'a-nodes', 'a-pv', 'a-what'].forEach((id) => ($(id).textContent = '–'));
    setState(state);
  } catch (e) {
    showError(e);
  }
}

function renderLegend() {
  const L = layout();
  $('legend').innerHTML = L.cats
    ? '<span class="swatch" style="background:rgba(230,120,30,.45)"></span> no-capture zone (next to a cat) · ' +
      '<svg width="14" height="14" viewBox="0 0 20 20" class="disarmed-mark"><circle cx="10" cy="10" r="8"/><path d="M4.5 15.5 L15.5 4.5"/></svg> disarmed piece'
    : '';
}

async function takeBack() {
  const s = ui.state;
  if (!s) return;
  if (ui.thinking) {
    await api('POST', `/games/${s.id}/stop`, {}).catch(() => {});
    return;
  }
  // Back to the last move a person made (or one move if nobody is a person).
  let plies = 0;
  while (plies < s.moves.length) {
    plies++;
    const seat = ui.seats[s.moves[s.moves.length - plies].seat];
    if (!seat || seat.kind === 'person') break;
  }
  if (!plies) return;
  try {
    setState(await api('POST', `/games/${s.id}/undo`, { plies }));
  } catch (e) {
    showError(e);
  }
}

// Each seat's player as the record names it: `Person`, `catchess 500 ms`.
function playerNames() {
  const query = new URLSearchParams();
  for (const seat of layout().seats) {
    const conf = ui.seats[seat.name];
    if (!conf) continue;
    const limit = conf.unit === 'depth' ? `depth ${conf.value}` : `${conf.value} ms`;
    query.set(seat.name, conf.kind === 'engine' ? `catchess ${limit}` : 'Person');
  }
  return query.toString();
}

async function exportPgn() {
  try {
    const { pgn } = await api('GET', `/games/${ui.state.id}/pgn?${playerNames()}`);
    $('pgn').value = pgn;
    const link = $('pgn-download');
    link.href = URL.createObjectURL(new Blob([pgn], { type: 'application/x-chess-pgn' }));
    link.hidden = false;
  } catch (e) {
    showError(e);
  }
}

async function copyFen() {
  const input = $('fen');
  try {
    await navigator.clipboard.writeText(input.value);
  } catch (_) {
    input.select();
    document.execCommand('copy');
  }
}

async function start() {
  const variants = await api('GET', '/variants');
  const select = $('variant');
  for (const v of variants) {
    ui.layouts[v.name] = v.layout;
    const option = document.createElement('option');
    option.value = v.name;
    option.textContent = v.name;
    select.appendChild(option);
  }
  $('new-game').addEventListener('click', () => newGame({ variant: select.value }));
  select.addEventListener('change', () => newGame({ variant: select.value }));
  $('flip').addEventListener('click', () => {
    ui.flipped = !ui.flipped;
    render();
  });
  $('take-back').addEventListener('click', takeBack);
  $('fen-load').addEventListener('click', () => newGame({ variant: select.value, fen: $('fen').value.trim() }));
  $('fen-copy').addEventListener('click', copyFen);
  $('pgn-export').addEventListener('click', exportPgn);
  $('pgn-import').addEventListener('click', () => newGame({ variant: select.value, pgn: $('pgn').value }));
  $('analyse').addEventListener('click', () => {
    if (!ui.state || ui.thinking) return;
    // The follow stream shows it; this request only starts it.
    fetch(`/api/games/${ui.state.id}/analysis?movetime=5000`).then((r) => r.text()).catch(() => {});
  });
  $('stop').addEventListener('click', () => ui.state && api('POST', `/games/${ui.state.id}/stop`, {}).catch(showError));
  // A reload shows the game the page was showing (kept in the address's
  // #game=<id>); the server keeps games across its restarts.
  const kept = new URLSearchParams(location.hash.slice(1)).get('game');
  const state = kept && (await api('GET', `/games/${encodeURIComponent(kept)}`).catch(() => null));
  await showGame(state, { variant: 'catchess' });
}

start().catch(showError);
