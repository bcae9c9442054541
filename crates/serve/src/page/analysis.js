// The engine's thinking, where it is shown (always on an analysis board;
// at a table at its creator's choice, and once the game is over): every
// search on the game comes through the game's event stream
// (analysis?follow=true), the server's engine moves too: depth, score, lines
// (MultiPV) and Cat Chess's outlook. "Analyse" starts an infinite
// analysis with the lines asked for; it runs until Stop, a move, or the
// page leaving (its own stream ends it). Each search's value of the
// position after a ply feeds the evaluation graph (a click on it shows
// that position). "Analyse the whole game" reads the server's review
// stream (GET review/stream): a value for each position, point by point,
// then the turns that cost their seat (?!, ?, ??), ringed on the graph and
// marked in the move list; a game's stored review is shown when it opens.

import { $, ui, api, engineSeat, layout, showError, thinkingShown } from './api.js';

import { el } from './pieces.js';
import { SLIPS, renderMoves, showTurns } from './movelist.js';

const a = {
  events: null,     // the follow stream
  own: null,        // the stream of the analysis this page started
  on: false,        // analysis wanted: restarted after each move
  searchPly: {},    // search id -> plies of the game when it started
  lines: [],        // the current search's lines by multipv index
  id: null,         // the game's
  evals: new Map(), // ply -> value from the first seat's view (cp), kept in localStorage
};

// A game shown: its values so far as this browser kept them.
export function resetAnalysis(id) {
  stopReview();
  ui.review = null;
  $('review-status').textContent = '';
  a.lines = [];
  a.id = id;
  a.evals = new Map();
  try {
    for (const [ply, cp] of JSON.parse(localStorage.getItem('catchess-evals-' + id)) || []) a.evals.set(ply, cp);
  } catch (_) {
    a.evals = new Map();
  }
  a.searchPly = {};
  ['a-depth', 'a-score', 'a-nodes', 'a-what'].forEach((id) => ($(id).textContent = '–'));
  $('a-lines').replaceChildren();
  $('outlook').hidden = true;
  $('outlook-note').hidden = true;
  renderGraph();
}

// Follows the searches on game `id` (where its thinking is shown).
export function follow(id) {
  unfollow();
  const source = new EventSource(`/api/games/${id}/analysis?follow=true`);
  a.events = source;
  source.addEventListener('start', (ev) => {
    const d = JSON.parse(ev.data);
    a.searchPly[d.search] = ui.state ? ui.state.moves.length : 0;
    a.lines = [];
    $('a-what').textContent = d.kind === 'engine' ? `engine thinking for ${ui.state.turn}` : 'analysing';
  });
  source.addEventListener('info', (ev) => {
    const d = JSON.parse(ev.data);
    showInfo(d.search, d.info);
  });
  source.addEventListener('done', (ev) => {
    const d = JSON.parse(ev.data);
    $('a-what').textContent = d.found.best ? `best: ${d.found.best_notation}` + (d.played ? ' (played)' : '') : '';
  });
}

export function unfollow() {
  if (a.events) a.events.close();
  a.events = null;
}

function scoreText(info) {
  if (info.score.mate !== undefined) return `mate ${info.score.mate}`;
  const cp = info.first_seat_cp;
  return `${cp >= 0 ? '+' : ''}${(cp / 100).toFixed(2)}`;
}

function showInfo(search, info) {
  const L = layout();
  const k = (info.multipv || 1) - 1;
  a.lines[k] = info;
  a.lines.length = Math.max(a.lines.length, k + 1);
  if (k === 0) {
    $('a-depth').textContent = `${info.depth}/${info.seldepth}`;
    $('a-score').textContent = info.score.mate !== undefined
      ? `mate ${info.score.mate} (for ${ui.state.turn})`
      : `${scoreText(info)} (${L.seats[0].name}'s view)`;
    // The score counts material; a side the position denies a win is told
    // so beside it (the outlook's note says why).
    const stuck = (info.outlook || []).filter((c) => c.cannot_win).map((c) => c.seat);
    if (stuck.length && info.score.mate === undefined) $('a-score').textContent += ` · ${stuck.join(' and ')} cannot win`;
    $('a-nodes').textContent = `${info.nodes.toLocaleString()} (${Math.round(info.nps / 1000)} kn/s)`;
    showOutlook(L, info);
    const ply = a.searchPly[search];
    if (ply !== undefined) {
      a.evals.set(ply, info.first_seat_cp);
      keepEvals();
      renderGraph();
    }
  }
  const list = $('a-lines');
  list.replaceChildren();
  a.lines.forEach((line, i) => {
    if (!line) return;
    const li = document.createElement('li');
    li.setAttribute('data-line', i + 1);
    const score = document.createElement('b');
    score.textContent = scoreText(line);
    li.append(score, ' ', line.pv_notation.join(' '));
    list.appendChild(li);
  });
}

function showOutlook(L, info) {
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
  // However large its edge, a seat that cannot win as things stand
  // (Cat Chess: the king it must mate is beside a cat) is told so, not
  // shown a score that promises a win.
  const stuck = chances.filter((c) => c.cannot_win).map((c) => c.seat);
  const note = $('outlook-note');
  note.hidden = stuck.length === 0;
  note.textContent = stuck.length === 0 ? '' : stuck.map((seat) =>
    `${seat} cannot win as things stand: the king ${seat} must mate is beside a cat, where nothing checks it.`).join(' ');
}

// A two-seat game: the first seat's share from the score.
function twoWay(L, info) {
  const p = Math.round(100 / (1 + Math.exp(-info.first_seat_cp / 250)));
  return [{ seat: L.seats[0].name, percent: p }, { seat: L.seats[1].name, percent: 100 - p }];
}

function keepEvals() {
  try {
    localStorage.setItem('catchess-evals-' + a.id, JSON.stringify([...a.evals.entries()]));
  } catch (_) {
    // Nothing kept: a reload starts the graph again.
  }
}

// ---- Infinite analysis ----------------------------------------------------

export function analysing() {
  return a.on;
}

export function startAnalysis() {
  a.on = true;
  $('analyse').classList.add('on');
  resumeAnalysis();
}

// (Re)starts the analysis of the game's position when one is wanted and
// nothing else searches.
export function resumeAnalysis() {
  const s = ui.state;
  if (!a.on || !s || s.outcome || engineSeat(s.turn) || !thinkingShown(s) || a.own) return;
  const multipv = Number($('multipv').value) || 1;
  const source = new EventSource(`/api/games/${s.id}/analysis?infinite=true&multipv=${multipv}`);
  a.own = source;
  const end = () => {
    source.close();
    if (a.own === source) a.own = null;
  };
  source.addEventListener('done', end);
  source.addEventListener('error', end);
}

export function stopAnalysis() {
  a.on = false;
  $('analyse').classList.remove('on');
  if (a.own) a.own.close();
  a.own = null;
}

// ---- The whole game's review ----------------------------------------------

let reviewing = null; // the review stream's AbortController, while one runs

// Shows `review` ({plies, points, marks}): its values are the graph's.
function showReview(review) {
  ui.review = review;
  a.evals = new Map(review.points.map((p) => [p.ply, p.first_seat_cp]));
  keepEvals();
  renderGraph();
  renderMoves();
}

// The game's stored review, if it has one (404 before: nothing shown).
export async function loadReview(id) {
  try {
    const review = await api('GET', `/games/${id}/review`);
    if (a.id === id && !reviewing) showReview(review);
  } catch (_) {
    // No review yet, or the thinking is hidden: nothing to show.
  }
}

function reviewDone(review) {
  const n = review.marks.length;
  const count = (symbol) => review.marks.filter((m) => m.symbol === symbol).length;
  const parts = Object.entries(SLIPS).filter(([k]) => count(k)).map(([k, kind]) => {
    const c = count(k);
    return `${c} ${c === 1 ? kind : kind.replace(/y$/, 'ie') + 's'} (${k})`;
  });
  $('review-status').textContent = n ? `Game analysed: ${parts.join(', ')} marked in the move list.` : 'Game analysed: no mistake found.';
}

// Reviews the whole game: the stream read as it comes (fetch, not
// EventSource, which would start the review again when it ends), each
// position's value drawn at once.
export async function startReview() {
  const s = ui.state;
  if (!s || reviewing || !thinkingShown(s)) return;
  const id = s.id;
  const control = new AbortController();
  reviewing = control;
  $('review').disabled = true;
  showError(null);
  const total = s.turns.length + 1;
  const partial = { plies: s.moves.length, points: [], marks: [] };
  ui.review = null;
  a.evals = new Map();
  renderGraph();
  renderMoves();
  $('review-status').textContent = `Analysing the whole game: 0 of ${total} positions…`;
  try {
    const response = await fetch(`/api/games/${id}/review/stream`, { signal: control.signal });
    if (!response.ok) {
      const body = await response.json().catch(() => null);
      throw new Error((body && body.error) || response.statusText);
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = text.indexOf('\n\n')) >= 0) {
        const block = text.slice(0, cut);
        text = text.slice(cut + 2);
        const name = (/^event: (.*)$/m.exec(block) || [])[1];
        const data = (/^data: (.*)$/m.exec(block) || [])[1];
        if (!name || !data || a.id !== id) continue;
        const d = JSON.parse(data);
        if (name === 'position') {
          partial.points.push(d);
          a.evals.set(d.ply, d.first_seat_cp);
          renderGraph();
          $('review-status').textContent = `Analysing the whole game: ${partial.points.length} of ${total} positions…`;
        } else if (name === 'done') {
          showReview(d);
          reviewDone(d);
        } else if (name === 'error') {
          throw new Error(d.error);
        }
      }
    }
  } catch (e) {
    if (control.signal.aborted) return;
    $('review-status').textContent = '';
    showError(e);
  } finally {
    if (reviewing === control) reviewing = null;
    $('review').disabled = false;
  }
}

// Stops the review under way (another game shown): its search stops with it.
export function stopReview() {
  if (reviewing) reviewing.abort();
  reviewing = null;
  $('review').disabled = false;
}

// A take-back forgets the review: moves it judged are gone.
export function checkReview(state) {
  if (ui.review && state.moves.length < ui.review.plies) {
    ui.review = null;
    $('review-status').textContent = '';
  }
}

// ---- The evaluation graph ---------------------------------------------

const W = 400;
const H = 90;

// The first seat's value as a share in -1..1 (a winning chance's shape).
const squash = (cp) => 2 / (1 + Math.exp(-cp / 300)) - 1;

export function renderGraph() {
  const box = $('graph');
  const s = ui.state;
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', id: 'graph-svg' });
  el('rect', { x: 0, y: 0, width: W, height: H / 2, class: 'upper' }, svg);
  el('rect', { x: 0, y: H / 2, width: W, height: H / 2, class: 'lower' }, svg);
  el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'zero' }, svg);
  const plies = s ? Math.max(s.moves.length, 1) : 1;
  const points = [...a.evals.entries()].filter(([p]) => p <= plies).sort((x, y) => x[0] - y[0]);
  // A margin above and below, so that a ring at a won game's value shows whole.
  const xy = ([p, cp]) => [(p / plies) * W, H / 2 - squash(cp) * (H / 2 - 6)];
  if (points.length) {
    const line = points.map((pt) => xy(pt).map((v) => v.toFixed(1)).join(',')).join(' ');
    el('polyline', { points: line, class: 'eval' }, svg);
    for (const pt of points) {
      const [x, y] = xy(pt);
      el('circle', { cx: x, cy: y, r: 2.2, class: 'eval-point', 'data-eval-ply': pt[0] }, svg);
    }
    // The review's marks, ringed where the marked turn left the game.
    const marks = ui.review ? ui.review.marks : [];
    for (const m of marks) {
      const cp = a.evals.get(m.ply);
      if (cp === undefined || m.ply > plies) continue;
      const [x, y] = xy([m.ply, cp]);
      const kind = SLIPS[m.symbol];
      const ring = el('circle', { cx: x, cy: y, r: 5, class: `mark ${kind}`, 'data-mark-turn': m.turn }, svg);
      el('title', {}, ring).textContent = `${m.notation}${m.symbol}, ${m.words} (${m.seat})`;
    }
  }
  if (ui.view && s) {
    const x = (ui.view.ply / plies) * W;
    el('line', { x1: x, y1: 0, x2: x, y2: H, class: 'cursor' }, svg);
  }
  box.replaceChildren(svg);
  // A click shows the position there (the turn that ends nearest).
  svg.addEventListener('click', (ev) => {
    if (!s || !s.turns.length) return;
    const box = svg.getBoundingClientRect();
    const ply = Math.round(((ev.clientX - box.left) / box.width) * plies);
    const n = s.turns.filter((t) => t.last <= ply).length;
    showTurns(n);
  });
  const L = layout();
  const marked = ui.review ? ` · ${ui.review.marks.length} marked (rings)` : '';
  $('graph-caption').textContent = L
    ? `${points.length} values from the engine's searches, ${L.seats[0].name}'s view (up: ${L.seats[0].name} better)${marked}`
    : '';
}
