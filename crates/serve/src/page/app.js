// The catchess page: plain JavaScript modules drawing SVG, no build step.
// Everything about a board (size, squares or points, river, palaces,
// piece set, seats, cats) comes from GET /api/variants; everything about
// a position from the game's state (api.md). Files: api.js (shared state,
// requests), pieces.js (figures, legend), board.js (drawing, clicks,
// drags), steps.js (the choices of a position, a 10×10 turn's steps),
// seats.js (who plays each seat, levels), movelist.js (the moves,
// stepping through them), clock.js (the server's clocks, shown),
// analysis.js (the engine's thinking, analysis, the evaluation graph),
// tablebase.js (the endgame tables' answer, with `serve --tb-dir`).

import { $, ui, api, cap, layout, personToMove, showError } from './api.js';
import { render, handlers } from './board.js';
import { drawPiece, el, renderLegend } from './pieces.js';
import { options, pendingPick, nextStep } from './steps.js';
import { initMoveList, renderMoves } from './movelist.js';
import { clockRequest, clockUpdate, onClockOut } from './clock.js';
import { defaultSeats, renderSeats, keepSeats, keptSeats } from './seats.js';
import { renderTablebase } from './tablebase.js';
import { follow, resetAnalysis, renderGraph, startAnalysis, stopAnalysis, resumeAnalysis, analysing } from './analysis.js';

// ---- Moves and steps ------------------------------------------------------

async function play(text) {
  if (ui.busy) return;
  ui.busy = true;
  try {
    showError(null);
    const state = await api('POST', `/games/${ui.state.id}/moves`, { move: text });
    ui.busy = false;
    setState(state);
  } catch (e) {
    ui.busy = false;
    showError(e);
    reload();
  }
}

// The game as the server has it now (after a refused move: a flag may
// have fallen; when a clock shows 0: the server decides).
async function reload() {
  const s = ui.state;
  if (!s) return;
  const token = ui.token;
  try {
    const state = await api('GET', `/games/${s.id}`);
    if (token === ui.token && !ui.busy && !ui.thinking) setState(state);
  } catch (e) {
    showError(e);
    refresh();
  }
}

// One move, or the promotion chooser when the squares allow several.
handlers.choose = (moves) => {
  ui.selected = null;
  if (moves.length === 1) return play(moves[0].move);
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
};

// A 10×10 step: the piece for the own, second-cat or bonus move. Its
// moves come with the next state; a pick made before is taken back first.
handlers.pick = async (square) => {
  if (pendingPick(ui.state) && !(await undoPick())) return;
  await play(square);
  if (pendingPick(ui.state) === square) {
    ui.selected = square;
    render();
  }
};

handlers.place = (entry) => play(entry.move);

// A click on a square with no choice: a pick under way is taken back,
// and the click counts again on the position before it.
handlers.elsewhere = async (square) => {
  if (!pendingPick(ui.state) || !(await undoPick())) return;
  const o = options(ui.state);
  if (o.picks.has(square)) return handlers.pick(square);
  if (o.starts.has(square)) {
    ui.selected = square;
    render();
  }
};

async function undoPick() {
  try {
    ui.selected = null;
    setState(await api('POST', `/games/${ui.state.id}/undo`, { plies: 1 }));
    return true;
  } catch (e) {
    showError(e);
    return false;
  }
}

// ---- Game state and status ----------------------------------------------

function setState(state) {
  const turnChanged = !ui.state || ui.state.turn !== state.turn || ui.state.id !== state.id;
  ui.state = state;
  if (turnChanged || !pendingPick(state)) ui.selected = pendingPick(state);
  if (ui.view && ui.view.ply > state.moves.length) ui.view = null;
  clockUpdate(state);
  refresh();
  renderMoves();
  renderGraph();
  renderTablebase(ui.view || state);
  $('fen').value = state.fen;
  setTimeout(engineTurn, 30);
  setTimeout(resumeAnalysis, 60);
}

// Redraws what depends on the state and the page's settings.
function refresh() {
  render();
  renderStatus();
  renderStepBar();
  renderSeatButtons();
}

function renderStatus() {
  const s = ui.state;
  const node = $('status');
  node.classList.toggle('over', !!s.outcome);
  const passing = s.forfeited.length ? ` (${s.forfeited.join(', ')} forfeited: passing)` : '';
  if (s.outcome) {
    node.textContent = 'Game over — ' + s.outcome.text;
  } else if (ui.thinking) {
    node.textContent = `${cap(s.turn)} (engine) is thinking…` + passing;
  } else {
    const who = ui.seats[s.turn] && ui.seats[s.turn].kind === 'engine' ? 'engine' : 'you';
    node.textContent = `${cap(s.turn)} to move (${who})` + passing;
  }
  const step = who() === 'person' ? nextStep(s) : null;
  $('step-text').textContent = step ? 'Next: ' + step : '';
}

function who() {
  const seat = ui.seats[ui.state.turn];
  return seat ? seat.kind : null;
}

// The 10×10 turn's controls: teleport, keep or roll again, end the turn.
function renderStepBar() {
  const o = personToMove() ? options(ui.state) : options(null);
  const bar = $('step-bar');
  const several = ui.state.turn_steps.length || ui.state.legal.some((m) => m === 'T@?' || m === 'end');
  bar.hidden = !several && !ui.layouts[ui.state.variant].labels.some(([l]) => l === 'T');
  $('teleport').disabled = !o.teleport;
  $('end-turn').disabled = !o.end;
  $('keep').hidden = $('reroll').hidden = !o.keep;
  $('turn-steps').textContent = ui.state.turn_steps.length ? 'This turn: ' + ui.state.turn_steps.join(', ') : '';
}

// ---- The engine ----------------------------------------------------------

// Resign is for a person's seat: the one to move, else the first.
function resigningSeat() {
  const s = ui.state;
  if (!s || s.outcome) return null;
  const people = layout().seats.map((x) => x.name).filter((n) => ui.seats[n].kind === 'person' && !s.forfeited.includes(n));
  return people.includes(s.turn) ? s.turn : people[0] || null;
}

function renderSeatButtons() {
  const seat = resigningSeat();
  $('resign').disabled = !seat;
  $('resign').textContent = seat ? `Resign (${seat})` : 'Resign';
}

function engineBody(seat) {
  return ui.levels ? { level: seat.level } : {};
}

async function engineTurn() {
  const s = ui.state;
  if (!s || s.outcome || ui.thinking || ui.busy) return;
  const seat = ui.seats[s.turn];
  if (!seat || seat.kind !== 'engine') return;
  ui.thinking = true;
  const token = ui.token;
  refresh();
  try {
    const answer = await api('POST', `/games/${s.id}/engine`, engineBody(seat));
    ui.thinking = false;
    if (token === ui.token) setState(answer);
  } catch (e) {
    ui.thinking = false;
    if (token === ui.token) {
      showError(e);
      reload();
    }
  }
}

async function resign(seat) {
  try {
    if (ui.thinking) return;
    setState(await api('POST', `/games/${ui.state.id}/forfeit`, { seat, why: 'resignation' }));
  } catch (e) {
    showError(e);
    reload();
  }
}

// ---- New game, rematch, take back, FEN and PGN ----------------------------

function clockSettings() {
  const base = Math.max(0, Number($('clock-base').value) || 0) * 60000;
  const inc = Math.max(0, Number($('clock-inc').value) || 0) * 1000;
  return [Math.round(base), Math.round(inc)];
}

async function newGame(body, seats) {
  await showGame(null, body, seats);
}

// Shows `state`, or a new game made from `body` when it is null, with
// `seats` (or the seats so far in the same game, else the defaults); a
// new game gets clocks (Clock in the header) for the seats a person plays.
async function showGame(state, body, seats) {
  try {
    showError(null);
    stopAnalysis();
    const reloaded = !!state;
    if (!state) {
      const variant = body.variant;
      const planned = seats || (ui.state && ui.state.variant === variant ? ui.seats : defaultSeats(variant));
      const people = ui.layouts[variant].seats.map((s) => s.name).filter((n) => planned[n] && planned[n].kind === 'person');
      const [base, inc] = clockSettings();
      // A record read in may be of another game, with other seats: no clocks.
      const clocks = body.pgn ? undefined : clockRequest(base, inc, people);
      state = await api('POST', '/games', clocks ? { ...body, clocks } : body);
    }
    history.replaceState(null, '', '#game=' + encodeURIComponent(state.id));
    ui.token++;
    ui.thinking = false;
    ui.busy = false;
    ui.view = null;
    const old = ui.state;
    if (seats) ui.seats = seats;
    else if (reloaded && keptSeats(state)) ui.seats = keptSeats(state);
    else if (!old || old.variant !== state.variant) ui.seats = defaultSeats(state.variant);
    keepSeats(state.id);
    ui.state = state;
    $('variant').value = state.variant;
    renderSeats(() => {
      refresh();
      engineTurn();
    });
    renderLegend($('legend'), layout());
    follow(state.id);
    resetAnalysis(state.id);
    setState(state);
  } catch (e) {
    showError(e);
  }
}

// The same game again from the same start, each seat's player one seat
// on (white's plays black; in Cat Chess white's black, black's the cats,
// the cats' white).
function rematch() {
  const s = ui.state;
  const names = layout().seats.map((x) => x.name);
  const seats = {};
  names.forEach((n, i) => (seats[names[(i + 1) % names.length]] = { ...ui.seats[n] }));
  // A person who now plays the second seat alone sees the board from there.
  ui.flipped = seats[names[0]].kind !== 'person' && seats[names[1]].kind === 'person';
  const body = { variant: s.variant };
  if (s.start_fen !== layout().start_fen) body.fen = s.start_fen;
  newGame(body, seats);
}

async function takeBack() {
  const s = ui.state;
  if (!s) return;
  if (ui.thinking) {
    await api('POST', `/games/${s.id}/stop`, {}).catch(() => {});
    return;
  }
  // A forfeit first (one undo); else back to the last turn a person
  // began (or one turn if nobody is a person).
  let plies = 0;
  if (s.outcome && ['resignation', 'time forfeit'].includes(s.outcome.reason)) {
    plies = 1;
  } else {
    for (let i = s.turns.length - 1; i >= 0; i--) {
      const t = s.turns[i];
      plies += t.last - t.first + 1;
      const seat = ui.seats[t.seat];
      if (!seat || seat.kind === 'person') break;
    }
  }
  if (!plies) return;
  try {
    ui.view = null;
    setState(await api('POST', `/games/${s.id}/undo`, { plies }));
  } catch (e) {
    showError(e);
  }
}

// Each seat's player as the record names it: `Person`, `catchess level 3`.
function playerNames() {
  const query = new URLSearchParams();
  for (const seat of layout().seats) {
    const conf = ui.seats[seat.name];
    if (!conf) continue;
    query.set(seat.name, conf.kind === 'engine' ? (ui.levels ? `catchess level ${conf.level}` : 'catchess') : 'Person');
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
  ui.levels = await api('GET', '/levels').catch(() => null);
  ui.glyphs = localStorage.getItem('catchess-glyphs') || 'chinese';
  const select = $('variant');
  for (const v of variants) {
    ui.layouts[v.name] = v.layout;
    const option = document.createElement('option');
    option.value = v.name;
    option.textContent = v.name;
    select.appendChild(option);
  }
  $('new-game').addEventListener('click', () => newGame({ variant: select.value }, samePlayers(select.value)));
  select.addEventListener('change', () => newGame({ variant: select.value }));
  $('flip').addEventListener('click', () => {
    ui.flipped = !ui.flipped;
    render();
  });
  // The clock setting is kept in the browser, for the next new game.
  const keptClock = (localStorage.getItem('catchess-clock') || '').split('+');
  if (keptClock.length === 2) [$('clock-base').value, $('clock-inc').value] = keptClock;
  for (const id of ['clock-base', 'clock-inc']) {
    $(id).addEventListener('change', () => localStorage.setItem('catchess-clock', `${$('clock-base').value}+${$('clock-inc').value}`));
  }
  $('glyphs').value = ui.glyphs;
  $('glyphs').addEventListener('change', () => {
    ui.glyphs = $('glyphs').value;
    localStorage.setItem('catchess-glyphs', ui.glyphs);
    render();
  });
  $('take-back').addEventListener('click', takeBack);
  $('resign').addEventListener('click', () => {
    const seat = resigningSeat();
    if (seat) resign(seat);
  });
  $('rematch').addEventListener('click', rematch);
  $('teleport').addEventListener('click', () => play('T@?'));
  $('keep').addEventListener('click', () => play('keep'));
  $('reroll').addEventListener('click', () => play('reroll'));
  $('end-turn').addEventListener('click', () => play('end'));
  $('fen-load').addEventListener('click', () => newGame({ variant: select.value, fen: $('fen').value.trim() }, samePlayers(select.value)));
  $('fen-copy').addEventListener('click', copyFen);
  $('pgn-export').addEventListener('click', exportPgn);
  $('pgn-import').addEventListener('click', () => newGame({ variant: select.value, pgn: $('pgn').value }));
  $('analyse').addEventListener('click', () => (analysing() ? stopAnalysis() : startAnalysis()));
  $('multipv').addEventListener('change', () => {
    if (!analysing()) return;
    stopAnalysis();
    startAnalysis();
  });
  $('stop').addEventListener('click', () => {
    stopAnalysis();
    if (ui.state) api('POST', `/games/${ui.state.id}/stop`, {}).catch(showError);
  });
  onClockOut(reload);
  initMoveList(() => {
    refresh();
    renderGraph();
    renderTablebase(ui.view || ui.state);
  });
  // A reload shows the game the page was showing (kept in the address's
  // #game=<id>); the server keeps games across its restarts.
  const kept = new URLSearchParams(location.hash.slice(1)).get('game');
  const state = kept && (await api('GET', `/games/${encodeURIComponent(kept)}`).catch(() => null));
  await showGame(state, { variant: 'catchess' });
}

// The players so far when the game stays the same, else the defaults.
function samePlayers(variant) {
  return ui.state && ui.state.variant === variant ? ui.seats : null;
}

start().catch(showError);
