// The board: squares or points drawn as SVG from the game's layout, the
// pieces, and moving by click-click or drag. What a click does comes from
// the choices of the position (`options` in steps.js); the app is told
// through `handlers`.

import { $, ui, layout, personToMove } from './api.js';
import { drawPiece, el } from './pieces.js';
import { options } from './steps.js';

const CELL = 60;
const MARGIN = 22;

// Set by the app: choose(entries) plays one of them (a promotion asks),
// pick(square) picks a piece for a step, place(entry) puts a piece, and
// elsewhere(square) is a click that does none of those.
export const handlers = { choose: null, pick: null, place: null, elsewhere: null };

let drag = null;

// The choices a person has now (none while the engine thinks or a past
// position is shown).
function choices() {
  return personToMove() ? options(ui.state) : options(null);
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

export function render() {
  const L = layout();
  const shown = ui.view || ui.state;
  if (!L || !shown) return;
  const width = L.files * CELL + 2 * MARGIN;
  const height = L.ranks * CELL + 2 * MARGIN;
  const svg = el('svg', { viewBox: `0 0 ${width} ${height}`, id: 'board-svg', class: 'style-' + L.style });
  if (ui.view) svg.classList.add('past');
  el('rect', { x: 0, y: 0, width, height, class: 'frame' }, svg);
  if (L.style === 'points') drawLines(svg, L);
  drawLabels(svg, L);
  const c = choices();
  const targets = new Map();
  if (ui.selected) for (const m of c.starts.get(ui.selected) || []) targets.set(m.to, m);
  for (const [sq, m] of c.places) targets.set(sq, m);
  const last = shown.last_move;
  for (const q of shown.board) {
    const [x, y] = cellXY(L, q.file, q.rank);
    const classes = ['sq'];
    if (c.starts.has(q.square) || c.picks.has(q.square)) classes.push('movable');
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
      if (drag && drag.moved && drag.from === q.square) p.setAttribute('opacity', '0.3');
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
  $('board').replaceChildren(svg);
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
      const chinese = ui.glyphs !== 'letters';
      t.textContent = chinese ? m.text : 'river';
      if (chinese) t.classList.add('glyph');
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

// ---- Clicks and drags ---------------------------------------------------

function squareAt(clientX, clientY) {
  const hit = document.elementsFromPoint(clientX, clientY).find((n) => n.closest && n.closest('[data-square]'));
  return hit ? hit.closest('[data-square]').getAttribute('data-square') : null;
}

function onPointerDown(ev) {
  const node = ev.target.closest('[data-square]');
  if (!node) return;
  const square = node.getAttribute('data-square');
  ev.preventDefault();
  const c = choices();
  const onto = ui.selected ? (c.starts.get(ui.selected) || []).filter((m) => m.to === square) : [];
  if (onto.length) return handlers.choose(onto);
  if (c.places.has(square)) return handlers.place(c.places.get(square));
  if (c.picks.has(square)) return handlers.pick(square);
  if (!c.starts.has(square)) {
    ui.selected = null;
    render();
    return handlers.elsewhere(square);
  }
  const again = ui.selected === square;
  ui.selected = square;
  drag = { from: square, again, x: ev.clientX, y: ev.clientY, moved: false, ghost: null };
  render();
  window.addEventListener('pointermove', onPointerMove);
  window.addEventListener('pointerup', onPointerUp, { once: true });
}

function onPointerMove(ev) {
  const d = drag;
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
  const d = drag;
  drag = null;
  if (!d) return;
  const to = squareAt(ev.clientX, ev.clientY);
  if (d.moved && to && to !== d.from) {
    const onto = (choices().starts.get(d.from) || []).filter((m) => m.to === to);
    if (onto.length) return handlers.choose(onto);
  }
  if (!d.moved && d.again) ui.selected = null;
  render();
}
