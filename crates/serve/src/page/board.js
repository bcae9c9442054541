// The board: squares or points drawn as SVG from the game's layout, the
// pieces, and moving by click-click, drag or keys. What a click does comes
// from the choices of the position (`options` in steps.js); the app is
// told through `handlers`. `drawBoard` draws any position (the rules'
// diagrams use it too); `render` draws the game shown, with its choices,
// as a grid a screen reader reads and the keyboard plays (issue #62): one
// tab stop, the arrow keys move between squares as the board is shown,
// Enter or Space press a square as a click does, Escape lets go.

import { $, ui, layout, personToMove } from './api.js';
import { drawPiece, el, pieceSeat } from './pieces.js';
import { options, pendingPick } from './steps.js';
import { recentMarks } from './recent.js';
import { boardName, positionWords, squareLabel } from './boardwords.js';

const CELL = 60;
const MARGIN = 22;

// Set by the app: choose(entries) plays one of them (a promotion asks),
// pick(square) picks a piece for a step, place(entry) puts a piece,
// refused(from, to) is a move onto a square the position's moves do not
// allow (the server says why), and elsewhere(square) is a click that does
// none of those.
export const handlers = { choose: null, pick: null, place: null, refused: null, elsewhere: null };

let drag = null;

// A piece moving into its square: {square, from, start} (performance.now()).
let sliding = null;
const SLIDE_MS = 180;

// The choices a person has now (none while the engine thinks or a past
// position is shown).
function choices() {
  return personToMove() ? options(ui.state) : options(null);
}

// Top left of the cell of (file, rank) as seen from the chosen side.
function cellXY(L, flipped, file, rank) {
  const col = flipped ? L.files - 1 - file : file;
  const row = flipped ? rank : L.ranks - 1 - rank;
  return [MARGIN + col * CELL, MARGIN + row * CELL];
}

function center(L, flipped, file, rank) {
  const [x, y] = cellXY(L, flipped, file, rank);
  return [x + CELL / 2, y + CELL / 2];
}

// An SVG of the position `board` (the squares of a state, `positions/<ply>`
// or a diagram) of a game of layout `L`. `o`: flipped; past (a position
// before the game's last); marks (square -> classes drawn under the piece:
// `last`, `selected`, `recent seat-N`); targets (square -> anything: a dot
// or ring); movable (squares a click picks); faded (a square whose piece
// is being dragged); id; grid (the game's board: rows of focusable
// squares, each labelled, `cursor` the one in the tab order; else a
// picture whose words list the pieces).
export function drawBoard(L, board, o = {}) {
  const flipped = !!o.flipped;
  const width = L.files * CELL + 2 * MARGIN;
  const height = L.ranks * CELL + 2 * MARGIN;
  const svg = el('svg', { viewBox: `0 0 ${width} ${height}`, class: 'style-' + L.style });
  if (o.id) svg.id = o.id;
  if (o.past) svg.classList.add('past');
  const marks = o.marks || new Map();
  const targets = o.targets || new Map();
  const movable = o.movable || new Set();
  if (o.grid) {
    svg.setAttribute('role', 'grid');
    svg.setAttribute('aria-label', boardName(L, flipped));
    svg.setAttribute('aria-describedby', 'board-help');
  } else {
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', positionWords(L, board, targets));
  }
  el('rect', { x: 0, y: 0, width, height, class: 'frame' }, svg);
  if (L.style === 'points') drawLines(svg, L, flipped);
  drawLabels(svg, L, flipped);
  const at = new Map(board.map((q) => [`${q.file},${q.rank}`, q]));
  // Row by row as shown, top to bottom, each left to right: the grid's
  // rows and cells (numbered, as a sliding piece's square is raised).
  for (let row = 0; row < L.ranks; row++) {
    const line = o.grid ? el('g', { role: 'row', 'aria-rowindex': row + 1 }, svg) : svg;
    for (let col = 0; col < L.files; col++) {
      const q = at.get(flipped ? `${L.files - 1 - col},${row}` : `${col},${L.ranks - 1 - row}`);
      if (!q) continue;
      const g = drawSquare(line, L, q, flipped, o, { marks, targets, movable });
      if (!o.grid) continue;
      const own = marks.get(q.square) || [];
      const goes = own.includes('selected') ? [...targets.keys()] : null;
      g.setAttribute('role', 'gridcell');
      g.setAttribute('aria-colindex', col + 1);
      g.setAttribute('tabindex', q.square === o.cursor ? '0' : '-1');
      const picked = q.square === o.picked;
      g.setAttribute('aria-label', squareLabel(L, q, { marks: own, target: targets.has(q.square), goes, picked }));
    }
  }
  // The square a piece slides into is raised (drawn last), with its row,
  // so that the piece passes over the others: here, before the board is
  // on the page and a square focused (moving a node takes its focus away).
  const sliding = o.slide && svg.querySelector(`[data-square="${o.slide.square}"]`);
  if (sliding) {
    sliding.parentNode.appendChild(sliding);
    if (sliding.parentNode !== svg) svg.appendChild(sliding.parentNode);
  }
  return svg;
}

// One square or point and what stands on it, into `parent`.
function drawSquare(parent, L, q, flipped, o, { marks, targets, movable }) {
  const [x, y] = cellXY(L, flipped, q.file, q.rank);
  const classes = ['sq'];
  if (movable.has(q.square)) classes.push('movable');
  if (targets.has(q.square)) classes.push('target');
  const g = el('g', { 'data-square': q.square, class: classes.join(' ') }, parent);
  if (q.piece) g.setAttribute('data-piece', q.piece);
  if (q.zone) g.setAttribute('data-zone', '1');
  if (q.disarmed) g.setAttribute('data-disarmed', '1');
  if (q.check) g.setAttribute('data-check', '1');
  const dark = (q.file + q.rank) % 2 === 0;
  if (L.style === 'squares') {
    el('rect', { x, y, width: CELL, height: CELL, class: dark ? 'dark' : 'light' }, g);
  } else {
    el('rect', { x, y, width: CELL, height: CELL, class: 'hit' }, g);
  }
  if (q.zone) el('rect', { x, y, width: CELL, height: CELL, class: 'zone' }, g);
  for (const cls of marks.get(q.square) || []) mark(g, L, x, y, cls);
  if (q.check) el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.48, class: 'check' }, g);
  if (q.piece) {
    const inset = L.style === 'points' ? 4 : 3;
    const p = drawPiece(g, q.piece, x + inset, y + inset, CELL - 2 * inset, L);
    if (o.faded === q.square) p.setAttribute('opacity', '0.3');
    if (o.slide && o.slide.square === q.square) slideIn(p, L, flipped, o.slide, x + inset, y + inset, CELL - 2 * inset);
    if (q.disarmed) {
      const badge = el('g', { class: 'disarmed-mark', 'aria-hidden': 'true' }, g);
      el('circle', { cx: x + CELL - 10, cy: y + 10, r: 8 }, badge);
      el('path', { d: `M${x + CELL - 15.5} ${y + 15.5} L${x + CELL - 4.5} ${y + 4.5}` }, badge);
      el('title', {}, badge).textContent = 'disarmed: next to a cat, it cannot capture';
    }
  }
  if (targets.has(q.square)) {
    const cls = q.piece ? 'target-ring' : 'target-dot';
    el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: q.piece ? CELL * 0.45 : CELL * 0.14, class: cls }, g);
  }
  // The keyboard's square (shown by CSS while it has the focus).
  if (o.grid) el('rect', { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 4, class: 'focus-ring' }, g);
  return g;
}

// The piece just moved glides from its old square to its new one (its
// square is drawn last: `drawBoard`).
function slideIn(piece, L, flipped, slide, x, y, size) {
  const [fx, fy] = squareXY(L, flipped, slide.from);
  if (fx === null) return;
  const inset = (CELL - size) / 2;
  const dx = fx + inset - x;
  const dy = fy + inset - y;
  const scale = size / 100;
  const place = () => {
    const t = Math.min(1, (performance.now() - slide.start) / SLIDE_MS);
    const k = 1 - (1 - t) * (1 - t);
    piece.setAttribute('transform', `translate(${x + dx * (1 - k)} ${y + dy * (1 - k)}) scale(${scale})`);
    return t < 1;
  };
  // Frame by frame until it has arrived, or a new drawing replaced it
  // (the board is not on the page yet at the first call).
  const frame = () => {
    if (place() && (piece.isConnected || performance.now() - slide.start < SLIDE_MS)) requestAnimationFrame(frame);
  };
  place();
  requestAnimationFrame(frame);
}

function squareXY(L, flipped, name) {
  const m = /^([a-z])(\d+)$/.exec(name || '');
  if (!m) return [null, null];
  const file = L.file_names.indexOf(m[1]);
  const rank = L.rank_names.indexOf(m[2]);
  if (file < 0 || rank < 0) return [null, null];
  return cellXY(L, flipped, file, rank);
}

// The move just played slides in on the next drawing (`state` its state):
// only a move that left one square for another (not a roll or a pass).
export function slideNext(state) {
  const m = state.last_move;
  sliding = m && m.from && m.to && m.from !== m.to ? { square: m.to, from: m.from, start: performance.now() } : null;
}

export function render() {
  const L = layout();
  const shown = ui.view || ui.state;
  if (!L || !shown) return;
  const c = choices();
  const targets = new Map();
  if (ui.selected) for (const m of c.starts.get(ui.selected) || []) targets.set(m.to, m);
  for (const [sq, m] of c.places) targets.set(sq, m);
  const marks = ui.view ? lastMarks(shown) : recentMarks(ui.state);
  if (ui.selected) addMark(marks, ui.selected, 'selected');
  const movable = new Set([...c.starts.keys(), ...c.picks]);
  const slide = !ui.view && sliding && performance.now() - sliding.start < SLIDE_MS ? sliding : null;
  // The keyboard's square stays focused through a redrawing.
  const focused = $('board').contains(document.activeElement);
  const svg = drawBoard(L, shown.board, {
    id: 'board-svg',
    flipped: ui.flipped,
    past: !!ui.view,
    marks,
    targets,
    movable,
    faded: drag && drag.moved ? drag.from : null,
    slide,
    grid: true,
    cursor: cursorSquare(L, shown.board),
    // A 10×10 piece picked for the turn under way: said as picked, not as
    // a last move (its square is marked as the step just taken).
    picked: ui.view ? null : pendingPick(ui.state),
  });
  $('board').replaceChildren(svg);
  svg.addEventListener('pointerdown', onPointerDown);
  svg.addEventListener('keydown', onKeyDown);
  if (focused) focusBoard();
}

// Puts the focus on the board's square in the tab order (after the
// promotion chooser, which took it).
export function focusBoard() {
  const node = $('board').querySelector('[data-square][tabindex="0"]');
  if (node) node.focus({ preventScroll: true });
}

// A past position: its last move's squares.
function lastMarks(shown) {
  const marks = new Map();
  const last = shown.last_move;
  if (last) for (const sq of [last.from, last.to]) addMark(marks, sq, 'last');
  return marks;
}

function addMark(marks, square, cls) {
  if (!marks.has(square)) marks.set(square, []);
  marks.get(square).push(cls);
}

function mark(g, L, x, y, cls) {
  if (L.style === 'squares') el('rect', { x, y, width: CELL, height: CELL, class: cls }, g);
  else el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.47, class: cls }, g);
}

// Xiangqi-style boards: lines through the points, the river, palaces
// (pictures: the squares' labels name the points).
function drawLines(svg, L, flipped) {
  const g = el('g', { class: 'lines', 'aria-hidden': 'true' }, svg);
  const at = (f, r) => center(L, flipped, f, r);
  const river = L.marks.find((m) => m.kind === 'river');
  for (let r = 0; r < L.ranks; r++) {
    const [x0, y] = at(0, r);
    const [x1] = at(L.files - 1, r);
    el('line', { x1: x0, y1: y, x2: x1, y2: y }, g);
  }
  for (let f = 0; f < L.files; f++) {
    const outer = f === 0 || f === L.files - 1;
    const spans = river && !outer ? [[0, river.below], [river.below + 1, L.ranks - 1]] : [[0, L.ranks - 1]];
    for (const [a, b] of spans) {
      const [x, y0] = at(f, a);
      const [, y1] = at(f, b);
      el('line', { x1: x, y1: y0, x2: x, y2: y1 }, g);
    }
  }
  for (const m of L.marks) {
    if (m.kind === 'palace') {
      const [ax, ay] = at(m.file, m.rank);
      const [bx, by] = at(m.file + m.files - 1, m.rank + m.ranks - 1);
      el('line', { x1: ax, y1: ay, x2: bx, y2: by }, g);
      el('line', { x1: ax, y1: by, x2: bx, y2: ay }, g);
    } else if (m.kind === 'river') {
      const [, y0] = at(0, m.below);
      const [, y1] = at(0, m.below + 1);
      const t = el('text', { x: MARGIN + (L.files * CELL) / 2, y: (y0 + y1) / 2, class: 'river',
        'text-anchor': 'middle', 'dominant-baseline': 'central', 'aria-hidden': 'true' }, svg);
      const chinese = ui.glyphs !== 'letters';
      t.textContent = chinese ? m.text : 'river';
      if (chinese) t.classList.add('glyph');
    }
  }
}

// The files' and ranks' names along the edges (a picture: each square's
// label names it).
function drawLabels(svg, L, flipped) {
  const g = el('g', { class: 'labels', 'aria-hidden': 'true' }, svg);
  L.file_names.forEach((name, f) => {
    const [x] = center(L, flipped, f, 0);
    const t = el('text', { x, y: MARGIN + L.ranks * CELL + 15, 'text-anchor': 'middle' }, g);
    t.textContent = name;
  });
  L.rank_names.forEach((name, r) => {
    const [, y] = center(L, flipped, 0, r);
    const t = el('text', { x: MARGIN / 2, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g);
    t.textContent = name;
  });
}

// ---- Clicks and drags ---------------------------------------------------

function squareAt(clientX, clientY) {
  const hit = document.elementsFromPoint(clientX, clientY).find((n) => n.closest && n.closest('[data-square]'));
  return hit ? hit.closest('[data-square]').getAttribute('data-square') : null;
}

// Whether `square` holds a piece of the seat to move (the layout says
// which letters are whose): a click on it picks it, even with no move,
// so that a click on a target then says why it cannot go there.
function ownPiece(square) {
  const s = ui.state;
  if (!personToMove() || !s) return false;
  const q = s.board.find((b) => b.square === square);
  const seat = q && q.piece && pieceSeat(q.piece, layout());
  return !!seat && seat.name === s.turn;
}

// Whether the position takes whole moves from a square to another, whose
// refusal the server explains: not a turn built step by step (Cat's Chess
// 10×10: its pieces are picked first, and a click elsewhere takes a pick
// back).
function wholeMoves() {
  return !ui.state.turn_steps.length && !options(ui.state).picks.size;
}

function onPointerDown(ev) {
  const node = ev.target.closest('[data-square]');
  if (!node) return;
  const square = node.getAttribute('data-square');
  ev.preventDefault();
  // The keys go on from the square clicked last.
  cursor = { game: ui.state.id, square };
  if (!press(square)) return;
  const again = ui.selected === square;
  ui.selected = square;
  drag = { from: square, again, x: ev.clientX, y: ev.clientY, moved: false, ghost: null };
  render();
  window.addEventListener('pointermove', onPointerMove);
  window.addEventListener('pointerup', onPointerUp, { once: true });
}

// A click or Enter on `square`: plays the selected piece's move there,
// puts a piece, picks a 10×10 piece, or asks the server why a move
// cannot go there, or lets go; true when instead the square's piece is
// to be taken up (the caller selects it, or lets go of it again).
function press(square) {
  const c = choices();
  const onto = ui.selected ? (c.starts.get(ui.selected) || []).filter((m) => m.to === square) : [];
  if (onto.length) return void handlers.choose(onto);
  if (c.places.has(square)) return void handlers.place(c.places.get(square));
  if (c.picks.has(square)) return void handlers.pick(square);
  const whole = personToMove() && wholeMoves();
  if (!c.starts.has(square) && !(whole && ownPiece(square) && square !== ui.selected)) {
    const from = ui.selected;
    ui.selected = null;
    render();
    if (whole && from && from !== square) handlers.refused(from, square);
    else handlers.elsewhere(square);
    return false;
  }
  return true;
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
    if (personToMove() && wholeMoves()) {
      ui.selected = null;
      render();
      return handlers.refused(d.from, to);
    }
  }
  if (!d.moved && d.again) ui.selected = null;
  render();
}

// ---- Keys ----------------------------------------------------------------

// The square the keyboard is on, in the game shown: the board's one tab
// stop (a roving tabindex), where the arrows go on from.
let cursor = { game: null, square: null };

// The keyboard's square on `board`: the one it was on in this game, else
// the bottom left corner as shown.
function cursorSquare(L, board) {
  const s = ui.state;
  if (cursor.game === s.id && board.some((q) => q.square === cursor.square)) return cursor.square;
  const file = ui.flipped ? L.files - 1 : 0;
  const rank = ui.flipped ? L.ranks - 1 : 0;
  return L.file_names[file] + L.rank_names[rank];
}

// Where `square` is shown: [column, row] from the top left.
function shownAt(L, square) {
  const m = /^([a-z])(\d+)$/.exec(square);
  const file = L.file_names.indexOf(m[1]);
  const rank = L.rank_names.indexOf(m[2]);
  return ui.flipped ? [L.files - 1 - file, rank] : [file, L.ranks - 1 - rank];
}

function squareShownAt(L, col, row) {
  const file = ui.flipped ? L.files - 1 - col : col;
  const rank = ui.flipped ? row : L.ranks - 1 - row;
  return L.file_names[file] + L.rank_names[rank];
}

// The arrows move between squares as the board is shown (Home, End: the
// row's ends); Enter and Space press the square as a click does; Escape
// lets go of the piece taken up (a 10×10 pick is taken back). The move
// list's keys (movelist.js) leave the board's alone.
function onKeyDown(ev) {
  const node = ev.target.closest && ev.target.closest('[data-square]');
  if (!node || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const L = layout();
  const square = node.getAttribute('data-square');
  const [col, row] = shownAt(L, square);
  const to = {
    ArrowLeft: [col - 1, row],
    ArrowRight: [col + 1, row],
    ArrowUp: [col, row - 1],
    ArrowDown: [col, row + 1],
    Home: [0, row],
    End: [L.files - 1, row],
  }[ev.key];
  if (to) {
    ev.preventDefault();
    const [c, r] = [Math.max(0, Math.min(L.files - 1, to[0])), Math.max(0, Math.min(L.ranks - 1, to[1]))];
    return moveCursor(squareShownAt(L, c, r));
  }
  if (ev.key === 'Enter' || ev.key === ' ') {
    ev.preventDefault();
    if (ev.repeat) return;
    cursor = { game: ui.state.id, square };
    if (!press(square)) return;
    ui.selected = ui.selected === square ? null : square;
    return render();
  }
  if (ev.key === 'Escape') letGo();
}

// The keyboard's square moves to `square`: the tab stop and the focus go
// with it (no redrawing).
function moveCursor(square) {
  cursor = { game: ui.state.id, square };
  const svg = $('board-svg');
  const next = svg && svg.querySelector(`[data-square="${square}"]`);
  if (!next) return;
  for (const n of svg.querySelectorAll('[data-square][tabindex="0"]')) n.setAttribute('tabindex', '-1');
  next.setAttribute('tabindex', '0');
  next.focus({ preventScroll: true });
}

// Escape: the piece taken up is let go; a 10×10 pick is taken back.
function letGo() {
  if (personToMove() && pendingPick(ui.state)) return handlers.elsewhere(null);
  if (!ui.selected) return;
  ui.selected = null;
  render();
}
