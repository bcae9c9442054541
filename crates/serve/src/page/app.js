// The catchess page: plain JavaScript modules drawing SVG, no build step.
// Everything about a board (size, squares or points, river, palaces,
// piece set, seats, cats) comes from GET /api/variants; everything about
// a position from the game's state (api.md). Files: api.js (shared state,
// requests), pieces.js (figures, legend), board.js (drawing, clicks,
// drags), steps.js (the choices of a position, a 10×10 turn's steps),
// seats.js (who plays each seat of the next game), table.js (the tokens
// and links this browser holds), players.js (the table of the game
// shown: players, links, a take-back asked for), lobby.js (my games, the
// open games), live.js (the game's live stream), movelist.js (the moves,
// stepping through them), clock.js (the server's clocks, shown),
// analysis.js (the engine's thinking, analysis, the evaluation graph),
// tablebase.js (the endgame tables' answer, with `serve --tb-dir`),
// recent.js (the moves since this page's last turn, marked), rules.js
// (each game's rules, illustrated, and the legend), rulespage.js (/rules),
// dialogs.js (asking before resigning or deleting), turnwords.js (a
// 10×10 turn's steps in words), boardwords.js (the board in words, for
// screen readers).
//
// Every game this page makes has players (a table, issue #61): the seats
// this browser plays hold its tokens, the engine's are played by the
// server, and a page without a seat's token watches. Opening `/` shows no
// game and makes none: a game is made by New game only.

import { $, ui, api, cap, engineSeat, layout, mine, personToMove, seen, showError, thinkingShown } from './api.js';
import { focusBoard, render, handlers, slideNext } from './board.js';
import { checkWords } from './boardwords.js';
import { drawPiece, el, pieceName } from './pieces.js';
import { options, pendingPick, nextStep } from './steps.js';
import { initMoveList, renderMoves, shownTurns } from './movelist.js';
import { clockRequest, clockUpdate, onClockOut, readClockFields, renderClockBar } from './clock.js';
import { chosenSeats, playersRequest, rematchSeats, renderSetup, yours } from './seats.js';
import { playerHandlers, renderPlayers } from './players.js';
import { lobbyHandlers, renderLobby } from './lobby.js';
import { held, keep, keepCreated, keepJoined, myName, setMyName } from './table.js';
import { watch, stop as stopWatching } from './live.js';
import { renderTablebase, tablebaseHandlers } from './tablebase.js';
import { firstVisit, initRules, renderLegend } from './rules.js';
import { ask, initDialogs } from './dialogs.js';
import { turnWords } from './turnwords.js';
import { recentTurns } from './recent.js';
import { follow, unfollow, resetAnalysis, renderGraph, startAnalysis, stopAnalysis, resumeAnalysis, analysing } from './analysis.js';
import { checkReview, loadReview, startReview } from './analysis.js';

// ---- Moves and steps ------------------------------------------------------

// Plays `text` for the seat to move, on the position shown: a move the
// game has left behind meanwhile is refused (409) and the game shown again.
// `explain(message)`, if given, words a refusal by the rules (422), which
// leaves the game as it was. Whether the move was played.
async function play(text, explain = null) {
  if (ui.busy || !personToMove()) return false;
  const s = ui.state;
  ui.busy = true;
  try {
    showError(null);
    const state = await api('POST', `/games/${s.id}/moves`, { move: text, ...seen() }, ui.tokens[s.turn]);
    ui.busy = false;
    // The stream may have brought this state already, while the page was
    // busy: redrawn now that it may move again.
    if (!setState(state)) refresh();
    return true;
  } catch (e) {
    ui.busy = false;
    if (explain && e.status === 422) showError(explain(e.message));
    else {
      showError(e);
      reload();
    }
    return false;
  }
}

// A move typed in the box under the board (SAN, WXF, from square to
// square, a 10×10 step or turn): the server reads it, and a refusal is
// its own words, under the board (read out: `#error` is an alert).
async function typedMove(ev) {
  ev.preventDefault();
  const input = $('move-input');
  const text = input.value.trim();
  if (!text) return;
  if (!ui.state) return showError('No game shown: start one with New game.');
  if (ui.view) return showError('A past position is shown: End returns to the game, where moves are played.');
  if (!personToMove()) return showError(`Not your move: ${$('status').textContent}`);
  if (await play(text, (message) => message)) input.value = '';
}

// The game as the server has it now (after a refused move: the game may
// have moved on; when a clock shows 0: the server decides).
async function reload() {
  const s = ui.state;
  if (!s) return;
  const token = ui.token;
  try {
    const state = await api('GET', `/games/${s.id}`);
    if (token === ui.token && !ui.busy) setState(state);
  } catch (e) {
    showError(e);
    refresh();
  }
}

// A move the position's moves do not allow, from a square to another: the
// server is asked, and its refusal (422, the rule the move breaks, from
// the rules code) is shown under the board. Nothing is guessed here.
handlers.refused = (from, to) => play(from + to, (message) => refusal(message, from, to));

// The server's refusal of a move in a player's words: `illegal move
// "c4f7": the bishop on c4 stands next to a cat: disarmed, it cannot
// capture` → `c4–f7 is not allowed: the bishop on c4 …`.
function refusal(message, from, to) {
  const m = /^illegal move "[^"]*": (.*)$/s.exec(message);
  return m ? `${from}–${to} is not allowed: ${m[1]}` : message;
}

// The promotion chooser, closed without a choice (Cancel, Escape, a click
// beside it): nothing is played, the piece stays picked; the keys are the
// board's again.
function closeChooser() {
  if ($('chooser').hidden) return;
  $('chooser').hidden = true;
  render();
  focusBoard();
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
    button.setAttribute('aria-label', pieceName(letter, L));
    const svg = el('svg', { width: 56, height: 56, viewBox: '0 0 56 56' });
    drawPiece(svg, upper ? letter.toUpperCase() : letter, 3, 3, 50, L);
    button.appendChild(svg);
    button.addEventListener('click', () => {
      $('chooser').hidden = true;
      play(m.move);
      focusBoard();
    });
    box.appendChild(button);
  }
  $('chooser').hidden = false;
  box.querySelector('button').focus();
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
  if (!pendingPick(ui.state) || !personToMove() || !(await undoPick())) return;
  const o = options(ui.state);
  if (o.picks.has(square)) return handlers.pick(square);
  if (o.starts.has(square)) {
    ui.selected = square;
    render();
  }
};

// Takes back the pick of the turn under way (the seat to move's own step:
// free at a table).
async function undoPick() {
  const s = ui.state;
  try {
    ui.selected = null;
    setState(await api('POST', `/games/${s.id}/undo`, { plies: 1, ...seen() }, ui.tokens[s.turn]));
    return true;
  } catch (e) {
    showError(e);
    return false;
  }
}

// ---- Game state and status ----------------------------------------------

// A state of the game shown, from its live stream or from an answer:
// shown if it is newer than the one shown (the server numbers them, and
// answers and the stream may arrive in either order). Whether it was.
function setState(state) {
  const old = ui.state;
  if (!old || old.id !== state.id || state.version <= old.version) return false;
  if (state.moves.length > old.moves.length) slideNext(state);
  apply(state, old);
  return true;
}

// Shows `state` of the game shown, which was `old` (null: a game shown
// anew).
function apply(state, old) {
  const turnChanged = !old || old.turn !== state.turn || old.moves.length !== state.moves.length;
  ui.state = state;
  if (turnChanged || !pendingPick(state)) ui.selected = pendingPick(state);
  if (ui.view && ui.view.ply > state.moves.length) ui.view = null;
  if (old && thinkingShown(state) && !thinkingShown(old)) follow(state.id);
  if (old && !thinkingShown(state) && thinkingShown(old)) {
    unfollow();
    stopAnalysis();
  }
  checkReview(state);
  if (old && state.outcome && !old.outcome) renderLobby();
  clockUpdate(state);
  refresh();
  renderMoves();
  renderGraph();
  renderTablebase(ui.view || state);
  $('fen').value = (ui.view || state).fen;
  setTimeout(resumeAnalysis, 60);
}

// Redraws what depends on the state and the page's settings.
function refresh() {
  const s = ui.state;
  $('board-area').setAttribute('data-game', s ? s.id : '');
  if (!s) {
    say('status', 'No game shown: start one with New game, or resume or join one from Games.');
    say('since', '');
    $('board').replaceChildren();
    $('step-bar').hidden = true;
    renderPlayers(null);
    renderClockBar(null);
    renderSeatButtons();
    return;
  }
  render();
  renderStatus();
  renderStepBar();
  renderSeatButtons();
  renderPlayers(s, held(s.id));
  renderClockBar(s, layout().seats.map((x) => x.name), clockWho);
  const shown = thinkingShown(s);
  $('analysis').hidden = !shown;
  $('thinking-hidden').hidden = shown;
  const toggle = !!thinkingSeat();
  $('thinking-toggle').hidden = !toggle;
  if (toggle) $('thinking-on').checked = s.show_thinking;
}

// The seat of this page's that may show or hide the engine's thinking: in
// a game not over where this page holds every person seat and the engine
// plays the others (one person alone against it). The server decides.
function thinkingSeat() {
  const s = ui.state;
  if (!s || !s.players || s.outcome) return null;
  const seats = Object.keys(s.players);
  const people = seats.filter((seat) => !engineSeat(seat));
  if (people.length === seats.length || !people.every((seat) => mine(seat))) return null;
  return people[0] || null;
}

// The box beside the board: the engine's thinking shown or hidden now.
async function setThinking() {
  const s = ui.state;
  const seat = thinkingSeat();
  if (!seat) return;
  try {
    setState(await api('POST', `/games/${s.id}/thinking`, { show: $('thinking-on').checked }, ui.tokens[seat]));
  } catch (e) {
    showError(e);
    reload();
  }
}

// Who plays `seat`, in a few words for the status line.
function whoPlays(seat) {
  const s = ui.state;
  if (!s.players) return 'anyone';
  if (mine(seat)) return 'you';
  const p = s.players[seat];
  if (p.kind === 'engine') return 'engine';
  if (!p.joined) return 'waiting for its player';
  return p.name || 'a person';
}

// Who plays `seat`, on its big clock.
function clockWho(seat) {
  const p = ui.state.players && ui.state.players[seat];
  return p && p.kind === 'engine' ? `engine, level ${p.level}` : whoPlays(seat);
}

// Sets the text of `id` when it changes: the status line is a live
// region, read out at each change (and only then).
function say(id, text) {
  if ($(id).textContent !== text) $(id).textContent = text;
}

// The status line (a live region with the line under it): whose turn,
// the result, a king in check; under it the moves since this page's last
// turn (recent.js's, marked on the board), or the past position shown.
function renderStatus() {
  const s = ui.state;
  const L = layout();
  $('status').classList.toggle('over', !!s.outcome);
  const passing = s.forfeited.length ? ` (${s.forfeited.join(', ')} forfeited: passing)` : '';
  const check = checkWords(L, s.board);
  let line;
  if (s.outcome) {
    line = 'Game over — ' + s.outcome.text;
  } else if (engineSeat(s.turn)) {
    line = `${cap(s.turn)} (engine) is thinking…` + passing;
  } else {
    line = `${cap(s.turn)} to move (${whoPlays(s.turn)})` + passing;
  }
  say('status', check && !s.outcome ? `${line} · ${check}` : line);
  say('since', sinceWords(s));
  const step = personToMove() ? nextStep(s) : null;
  $('step-text').textContent = step ? 'Next: ' + step : '';
  const first = s.legal_moves.find((m) => m.from && m.to && m.from !== m.to);
  $('move-help').textContent = `as the move list writes it (${L.notation}), or from square to square` + (first ? `, such as ${first.move}` : '');
}

// The turns since this page's last (each seat's, in its notation), or the
// turn that led to the past position shown.
function sinceWords(s) {
  const turn = (t) => `${t.seat} ${t.notation}`;
  if (ui.view) {
    const n = shownTurns();
    return n ? `Shown: after ${turn(s.turns[n - 1])} (turn ${n} of ${s.turns.length})` : 'Shown: the start';
  }
  const turns = recentTurns(s).map((k) => s.turns[k]);
  if (!turns.length) return '';
  const player = !!s.players && layout().seats.some((x) => mine(x.name));
  const mover = player && turns.every((t) => !mine(t.seat));
  return (mover ? 'Since your last move: ' : 'Last move: ') + turns.map(turn).join(' · ');
}

// The 10×10 turn's controls: teleport, keep or roll again (only where
// the rules allow it: the state's legal steps say), end the turn.
function renderStepBar() {
  const o = personToMove() ? options(ui.state) : options(null);
  const bar = $('step-bar');
  const several = ui.state.turn_steps.length || ui.state.legal.some((m) => m === 'T@?' || m === 'end');
  bar.hidden = !several && !ui.layouts[ui.state.variant].labels.some(([l]) => l === 'T');
  $('teleport').disabled = !o.teleport;
  $('end-turn').disabled = !o.end;
  $('keep').hidden = !o.keep;
  $('reroll').hidden = !o.reroll;
  // In words; the tokens too, for a tooltip (and the browser tests).
  const steps = $('turn-steps');
  steps.textContent = turnWords(ui.state);
  steps.setAttribute('data-steps', ui.state.turn_steps.join(', '));
  steps.title = ui.state.turn_steps.join(', ');
}

// The seats this page plays in the game shown that have not forfeited.
function playing() {
  const s = ui.state;
  if (!s || s.outcome) return [];
  return layout().seats.map((x) => x.name).filter((n) => mine(n) && !engineSeat(n) && !s.forfeited.includes(n));
}

// Resign is for one of this page's seats: the one to move, else the first.
function resigningSeat() {
  const seats = playing();
  return seats.includes(ui.state.turn) ? ui.state.turn : seats[0] || null;
}

function renderSeatButtons() {
  const s = ui.state;
  const seat = s ? resigningSeat() : null;
  $('resign').disabled = !seat;
  $('resign').textContent = seat ? `Resign (${seat})` : 'Resign';
  $('take-back').disabled = !s || !s.moves.length || (!!s.players && !takeBackSeat());
  // A draw is agreed at a table; an analysis board has nobody to agree with.
  $('offer-draw').disabled = !seat || !s.players || !!s.proposal;
  $('rematch').disabled = !s;
}

// Resigns for `seat`, once the person confirms.
async function resign(seat) {
  const s = ui.state;
  if (!(await ask(`Resign for ${seat}? The game is lost for ${seat}.`, 'Resign')) || ui.state !== s) return;
  try {
    setState(await api('POST', `/games/${s.id}/forfeit`, { seat, why: 'resignation' }, ui.tokens[seat]));
  } catch (e) {
    showError(e);
    reload();
  }
}

// ---- Showing a game, making one, joining one -------------------------------

// Shows game `state`: this browser's tokens for it, the board from its
// first seat it plays, its live stream; the address names it (`#game=`,
// never a token).
function showGame(state) {
  showError(null);
  stopAnalysis();
  ui.token++;
  ui.busy = false;
  ui.view = null;
  ui.selected = null;
  ui.tokens = state.players ? held(state.id).tokens : {};
  ui.state = state;
  // A game shown anew goes into the browser's history: Back brings the
  // one before it back (`route`).
  const address = '#game=' + encodeURIComponent(state.id);
  if (location.hash === address) history.replaceState(null, '', address);
  else history.pushState(null, '', address);
  if (Object.keys(ui.tokens).length) keep(state.id, {});
  const names = ui.layouts[state.variant].seats.map((x) => x.name);
  ui.flipped = !!state.players && !mine(names[0]) && mine(names[1]);
  renderLegend($('legend'), layout());
  resetAnalysis(state.id);
  if (thinkingShown(state)) {
    follow(state.id);
    loadReview(state.id);
  } else unfollow();
  watch(state.id, (next) => setState(next), () => {
    showError('This game was deleted.');
    ui.state = null;
    refresh();
  });
  apply(state, null);
  firstVisit(state.variant);
}

// No game shown (Back to the address without one, a game deleted).
function showNone() {
  stopWatching();
  stopAnalysis();
  ui.token++;
  ui.state = null;
  ui.view = null;
  refresh();
}

// The game `id` as the server has it, shown.
async function showById(id) {
  try {
    showGame(await api('GET', `/games/${encodeURIComponent(id)}`));
  } catch (e) {
    showError(e);
  }
}

// The clock fields as [base ms, increment ms] (throws, in words, on a
// negative or unreadable number).
function clockSettings() {
  return readClockFields($('clock-base').value.trim(), $('clock-inc').value.trim());
}

// A preset (1+0 … 15+10) fills the fields; fields that match none show
// "custom".
function initClockPresets() {
  const preset = $('clock-preset');
  const match = () => {
    const now = `${Number($('clock-base').value) || 0}+${Number($('clock-inc').value) || 0}`;
    preset.value = [...preset.options].some((o) => o.value === now) ? now : '';
  };
  preset.addEventListener('change', () => {
    if (!preset.value) return;
    [$('clock-base').value, $('clock-inc').value] = preset.value.split('+');
    localStorage.setItem('catchess-clock', preset.value);
  });
  for (const id of ['clock-base', 'clock-inc']) $(id).addEventListener('input', match);
  match();
}

// A new game at a table with `seats` (the New game pickers by default):
// `extra` gives its start (`fen`, `pgn`); the people's seats get the
// header's clock. This browser keeps its own seats' tokens and the links
// to send to the others.
async function newGame(extra = {}, seats = chosenSeats()) {
  try {
    showError(null);
    const variant = extra.variant || $('variant').value;
    const names = ui.layouts[variant].seats.map((s) => s.name);
    const [base, inc] = clockSettings();
    // A record read in may be of another game, with other seats: no clocks.
    const clocks = extra.pgn ? undefined : clockRequest(base, inc, names);
    const body = { variant, ...extra, players: playersRequest(seats, myName()), show_thinking: $('show-thinking').checked };
    if (clocks) body.clocks = clocks;
    const answer = await api('POST', '/games', body);
    keepCreated(answer, yours(seats));
    const { tokens: _tokens, links: _links, ...state } = answer;
    showGame(state);
    renderLobby();
  } catch (e) {
    showError(e);
  }
}

// Joins a seat by its link's token, or (no token) an open seat by name;
// the seat's new token stays in this browser.
async function join(id, seat, token) {
  const name = myName();
  const body = token ? {} : { seat };
  if (name) body.name = name;
  try {
    const answer = await api('POST', `/games/${encodeURIComponent(id)}/join`, body, token);
    keepJoined(answer);
    const { seat: _seat, token: _token, link: _link, ...state } = answer;
    showGame(state);
    renderLobby();
  } catch (e) {
    // This browser's own link, used already: its seat is kept here.
    if (held(id).tokens[seat]) return showById(id);
    await showById(id);
    showError(token ? `This link's seat was taken by whoever opened it first (${e.message}); you are watching.` : e);
  }
}

// The same game again from the same start, each seat's player one seat on.
function rematch() {
  const s = ui.state;
  const seats = rematchSeats(s, mine);
  const body = { variant: s.variant };
  if (s.start_fen !== layout().start_fen) body.fen = s.start_fen;
  renderSetup(s.variant, seats);
  $('variant').value = s.variant;
  newGame(body, seats);
}

// ---- Take-backs --------------------------------------------------------------

// The seat of this page's that asks for a take-back: the one that played
// last, else the one to move.
function takeBackSeat() {
  const s = ui.state;
  for (let i = s.turns.length - 1; i >= 0; i--) {
    if (mine(s.turns[i].seat) && !engineSeat(s.turns[i].seat)) return s.turns[i].seat;
  }
  return mine(s.turn) ? s.turn : null;
}

// At a table: the server takes back to before this page's last turn (at
// once against the engine, else once the other people consent). On an
// analysis board: back to the last turn a person began.
async function takeBack() {
  const s = ui.state;
  if (!s) return;
  try {
    ui.view = null;
    if (s.players) {
      const seat = takeBackSeat();
      if (!seat) return;
      setState(await api('POST', `/games/${s.id}/undo`, seen(), ui.tokens[seat]));
      return;
    }
    const last = s.turns[s.turns.length - 1];
    const plies = s.outcome && ['resignation', 'time forfeit'].includes(s.outcome.reason) ? 1 : last ? last.last - last.first + 1 : 0;
    if (plies) setState(await api('POST', `/games/${s.id}/undo`, { plies, ...seen() }));
  } catch (e) {
    showError(e);
    reload();
  }
}

// ---- Draw offers --------------------------------------------------------------

// Offers a draw for this page's seat (the one Resign names): agreed at
// once if every other seat is an engine that takes it, else it waits for
// the other people; an engine that plays on says so (the server's words).
async function offerDraw() {
  const s = ui.state;
  const seat = s && resigningSeat();
  if (!seat || !s.players) return;
  try {
    setState(await api('POST', `/games/${s.id}/draw`, seen(), ui.tokens[seat]));
  } catch (e) {
    showError(e);
  }
}

// Answers the take-back or draw offer waiting: each seat of this page's awaited
// consents (or refuses); its asker may withdraw it.
playerHandlers.answer = async (accept) => {
  const s = ui.state;
  const p = s.proposal;
  if (!p) return;
  const seats = p.waiting_for.filter((seat) => mine(seat));
  if (!seats.length && mine(p.by)) seats.push(p.by);
  try {
    for (const seat of seats) {
      const state = await api('POST', `/games/${s.id}/answer`, { accept }, ui.tokens[seat]);
      setState(state);
      if (!state.proposal || !accept) break;
    }
  } catch (e) {
    showError(e);
    reload();
  }
};

lobbyHandlers.show = showById;
lobbyHandlers.deleted = (id) => {
  if (ui.state && ui.state.id === id) {
    history.replaceState(null, '', '/');
    showNone();
  }
};
lobbyHandlers.join = (id, seat) => join(id, seat, null);

// ---- FEN and PGN ----------------------------------------------------------

async function exportPgn() {
  try {
    const s = ui.state;
    // At a table the server names the players; on a board, people.
    const query = s.players ? '' : '?' + layout().seats.map((x) => `${x.name}=Person`).join('&');
    const { pgn } = await api('GET', `/games/${s.id}/pgn${query}`);
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

// What the address asks for: a seat's join link (`#game=<id>&seat=<seat>&
// token=<token>`), a game to watch or resume (`#game=<id>`), or nothing.
// Back and Forward come here too (the games shown are in the history).
let routing = null;
async function route() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const id = hash.get('game');
  if (!id) {
    if (ui.state) showNone();
    return;
  }
  const token = hash.get('token');
  // The token leaves the address (and the history) at once.
  history.replaceState(null, '', '#game=' + encodeURIComponent(id));
  if (token) return join(id, hash.get('seat'), token);
  // popstate and hashchange both come for one step back: one request.
  if ((ui.state && ui.state.id === id) || routing === id) return;
  routing = id;
  try {
    await showById(id);
  } finally {
    routing = null;
  }
}

async function start() {
  const variants = await api('GET', '/variants');
  ui.levels = await api('GET', '/levels').catch(() => null);
  ui.glyphs = localStorage.getItem('catchess-glyphs') || 'chinese';
  const select = $('variant');
  for (const v of variants) {
    ui.layouts[v.name] = v.layout;
    select.appendChild(new Option(v.layout.title, v.name));
  }
  select.value = localStorage.getItem('catchess-variant') || 'catchess';
  if (!ui.layouts[select.value]) select.value = 'catchess';
  renderSetup(select.value);
  select.addEventListener('change', () => {
    localStorage.setItem('catchess-variant', select.value);
    renderSetup(select.value);
    // The menu lets go of the keys: ← → step through the moves again.
    select.blur();
  });
  $('new-game').addEventListener('click', () => newGame());
  $('my-name').value = myName();
  $('my-name').addEventListener('change', () => setMyName($('my-name').value));
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
  initClockPresets();
  // So is the choice to show the engine's thinking to the players.
  $('show-thinking').checked = localStorage.getItem('catchess-show-thinking') === 'true';
  $('show-thinking').addEventListener('change', () => localStorage.setItem('catchess-show-thinking', String($('show-thinking').checked)));
  $('glyphs').value = ui.glyphs;
  $('glyphs').addEventListener('change', () => {
    ui.glyphs = $('glyphs').value;
    localStorage.setItem('catchess-glyphs', ui.glyphs);
    if (ui.state) render();
  });
  $('take-back').addEventListener('click', takeBack);
  $('offer-draw').addEventListener('click', offerDraw);
  initDialogs();
  initRules(() => (ui.state ? ui.state.variant : select.value));
  $('choose-cancel').addEventListener('click', closeChooser);
  $('move-form').addEventListener('submit', typedMove);
  $('chooser').addEventListener('click', (ev) => ev.target === $('chooser') && closeChooser());
  document.addEventListener('keydown', (ev) => ev.key === 'Escape' && closeChooser());
  tablebaseHandlers.canPlay = (shown) => shown === ui.state && personToMove();
  tablebaseHandlers.play = play;
  $('resign').addEventListener('click', () => {
    const seat = ui.state && resigningSeat();
    if (seat) resign(seat);
  });
  $('rematch').addEventListener('click', () => ui.state && rematch());
  $('teleport').addEventListener('click', () => play('T@?'));
  $('keep').addEventListener('click', () => play('keep'));
  $('reroll').addEventListener('click', () => play('reroll'));
  $('end-turn').addEventListener('click', () => play('end'));
  $('fen-load').addEventListener('click', () => newGame({ variant: select.value, fen: $('fen').value.trim() }));
  $('fen-copy').addEventListener('click', copyFen);
  $('pgn-export').addEventListener('click', () => ui.state && exportPgn());
  $('pgn-import').addEventListener('click', () => newGame({ variant: select.value, pgn: $('pgn').value }));
  $('games-refresh').addEventListener('click', renderLobby);
  $('analyse').addEventListener('click', () => (analysing() ? stopAnalysis() : startAnalysis()));
  $('multipv').addEventListener('change', () => {
    if (!analysing()) return;
    stopAnalysis();
    startAnalysis();
  });
  $('stop').addEventListener('click', stopAnalysis);
  $('review').addEventListener('click', startReview);
  $('thinking-on').addEventListener('change', setThinking);
  onClockOut(reload);
  initMoveList(() => {
    refresh();
    renderGraph();
    renderTablebase(ui.view || ui.state);
    $('fen').value = (ui.view || ui.state).fen;
  });
  window.addEventListener('hashchange', route);
  window.addEventListener('popstate', route);
  refresh();
  renderLobby();
  await route();
}

start().catch(showError);
