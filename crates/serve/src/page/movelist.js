// The move list: one entry per turn in the game's notation (SAN, WXF, a
// 10×10 turn's token), a column per seat named over it, numbered by
// rounds. An entry can be clicked, and ← → (Home, End) step through the
// game whatever has the focus (but a text field): the board shows that
// position (GET positions/<ply>); moving is possible again at the end.

import { $, ui, api, layout, showError } from './api.js';

let onView = () => {};

// The position asked for last (turns), while its answer is on its way: a
// key pressed meanwhile steps on from it, so three quick ← go back three
// turns; an answer to an older request is dropped.
let wanted = null;
let asked = 0;

// `changed` is called when the shown position changes.
export function initMoveList(changed) {
  onView = changed;
  document.addEventListener('keydown', (ev) => {
    const within = (css) => ev.target.closest && ev.target.closest(css);
    // Typing stays typing; a menu keeps ↑ ↓ Home End, but never takes ← →
    // (one changed the game, and a new game was made, at each press); the
    // board's squares keep theirs (board.js).
    if (within('input, textarea, [data-square]') || document.querySelector('dialog[open]')) return;
    if (within('select')) {
      if (ev.key !== 'ArrowLeft' && ev.key !== 'ArrowRight') return;
      ev.preventDefault();
    }
    const s = ui.state;
    if (!s) return;
    const at = wanted !== null ? wanted : shownTurns();
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: s.turns.length }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    showTurns(Math.max(0, Math.min(s.turns.length, to)));
  });
}

// How many turns the board shows: all of them unless a past position is.
export function shownTurns() {
  const s = ui.state;
  if (!ui.view) return s.turns.length;
  if (ui.view.ply === 0) return 0;
  return s.turns.findIndex((t) => t.last === ui.view.ply) + 1;
}

// Shows the position after `n` turns (all of them: the game).
export async function showTurns(n) {
  const s = ui.state;
  const request = ++asked;
  wanted = null;
  if (n >= s.turns.length) {
    ui.view = null;
  } else {
    const ply = n === 0 ? 0 : s.turns[n - 1].last;
    wanted = n;
    try {
      const token = ui.token;
      const view = await api('GET', `/games/${s.id}/positions/${ply}`);
      if (request !== asked) return;
      wanted = null;
      if (token !== ui.token || ui.state !== s) return;
      ui.view = view;
    } catch (e) {
      if (request === asked) wanted = null;
      showError(e);
      return;
    }
  }
  ui.selected = null;
  renderMoves();
  onView();
}

function startNumber(s) {
  const n = Number(s.start_fen.split(' ')[5]);
  return Number.isInteger(n) && n > 0 ? n : 1;
}

// The review's mark of turn `n` (from 1), if any: its symbol after the
// move ("c4?"), and its words for screen readers ("c4?, a mistake").
// The kind of each mark, by its symbol (the graph's rings use it too).
export const SLIPS = { '?!': 'inaccuracy', '?': 'mistake', '??': 'blunder' };
function markSlip(entry, n) {
  const mark = ui.review && ui.review.marks.find((m) => m.turn === n);
  if (!mark) return;
  const symbol = document.createElement('span');
  symbol.className = 'slip';
  symbol.textContent = mark.symbol;
  const words = document.createElement('span');
  words.className = 'sr-only';
  words.textContent = `, ${mark.words}`;
  entry.append(symbol, words);
  entry.classList.add(SLIPS[mark.symbol]);
  entry.setAttribute('data-mark', mark.symbol);
}

export function renderMoves() {
  const s = ui.state;
  const L = layout();
  const list = $('moves');
  const seats = L.seats.map((x) => x.name);
  list.style.gridTemplateColumns = `2.6em repeat(${seats.length}, minmax(0, 1fr))`;
  list.replaceChildren();
  const cell = (cls, text) => {
    const node = document.createElement('span');
    node.className = cls;
    node.textContent = text;
    list.appendChild(node);
    return node;
  };
  cell('head', '');
  for (const seat of seats) cell('head seat-name ' + seat, seat).setAttribute('data-seat-name', seat);
  const shown = shownTurns();
  let number = startNumber(s) - 1;
  let column = seats.length; // the next free column of the current row
  s.turns.forEach((t, i) => {
    const col = seats.indexOf(t.seat);
    if (col < column || column >= seats.length) {
      // A new row: its number, then blanks up to this seat's column.
      number++;
      cell('num', number + '.');
      for (let k = 0; k < col; k++) cell('ply empty', i === 0 ? '…' : '');
    } else {
      for (let k = column; k < col; k++) cell('ply empty', '');
    }
    column = col + 1;
    const entry = cell('ply ' + t.seat, t.notation);
    markSlip(entry, i + 1);
    entry.setAttribute('data-ply', t.last);
    entry.setAttribute('data-turn', i + 1);
    entry.title = `${t.seat}: ${s.moves.slice(t.first - 1, t.last).map((m) => m.move).join(', ')}`;
    if (i + 1 === shown) entry.classList.add(ui.view ? 'current' : 'last');
    entry.addEventListener('click', () => showTurns(i + 1));
  });
  $('notation').textContent = '(' + L.notation + ')';
  $('viewing').hidden = !ui.view;
  if (ui.view) $('viewing').textContent = `Showing the position after ${shown} of ${s.turns.length} turns — → or End returns to the game`;
  const current = list.querySelector('.current, .last');
  if (current) current.scrollIntoView({ block: 'nearest' });
}
