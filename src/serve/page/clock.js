// Clocks for the seats a person plays: base time plus an increment per
// turn, set when a game starts (Clock in the header). A person's clock
// runs while it is that seat's turn; when it runs out the page tells the
// server (POST forfeit, why "time"), which ends the game by the game's
// forfeit rule. Engine seats have no clock. The clocks of a game are
// kept in the browser (localStorage), so a reload finds them running.

import { ui } from './api.js';

const clock = { id: null, base: 0, inc: 0, left: {}, running: null, since: 0, flagged: false, onFlag: null };
const KEPT = ['base', 'inc', 'left', 'running', 'since', 'flagged'];

// A new game `id`: every person's seat gets `baseMs`; 0 means no clocks.
export function startClocks(id, baseMs, incMs, seatNames, onFlag) {
  clock.id = id;
  clock.base = baseMs;
  clock.inc = incMs;
  clock.left = {};
  for (const s of seatNames) clock.left[s] = baseMs;
  clock.running = null;
  clock.flagged = false;
  clock.onFlag = onFlag;
  save();
}

// The clocks of game `id` as this browser kept them; false if none.
export function resumeClocks(id, onFlag) {
  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem('catchess-clock-' + id));
  } catch (_) {
    kept = null;
  }
  if (!kept || typeof kept.left !== 'object') return false;
  for (const k of KEPT) clock[k] = kept[k];
  clock.id = id;
  clock.onFlag = onFlag;
  return true;
}

function save() {
  if (!clock.id) return;
  const kept = {};
  for (const k of KEPT) kept[k] = clock[k];
  try {
    if (clock.base > 0) localStorage.setItem('catchess-clock-' + clock.id, JSON.stringify(kept));
  } catch (_) {
    // A browser that keeps nothing: the clocks start again on a reload.
  }
}

export function clocksOn() {
  return clock.base > 0;
}

function personSeat(seat) {
  return ui.seats[seat] && ui.seats[seat].kind === 'person';
}

// A new state: the clock of the seat that finished its turn stops (and
// gets the increment), the next person's starts.
export function clockUpdate(state) {
  if (!clocksOn()) return;
  const now = Date.now();
  if (clock.running && (clock.running !== state.turn || state.outcome || !personSeat(clock.running))) {
    clock.left[clock.running] -= now - clock.since;
    if (!state.outcome && clock.running !== state.turn) clock.left[clock.running] += clock.inc;
    clock.running = null;
  }
  if (!state.outcome && personSeat(state.turn) && !clock.flagged && clock.running !== state.turn) {
    clock.running = state.turn;
    clock.since = now;
  }
  save();
  renderClocks();
}

function leftOf(seat) {
  let ms = clock.left[seat];
  if (ms === undefined) return null;
  if (clock.running === seat) ms -= Date.now() - clock.since;
  return Math.max(0, ms);
}

function format(ms) {
  const s = Math.ceil(ms / 100) / 10;
  const m = Math.floor(s / 60);
  const rest = s - 60 * m;
  return s < 20 ? `${m}:${rest.toFixed(1).padStart(4, '0')}` : `${m}:${String(Math.floor(rest)).padStart(2, '0')}`;
}

export function renderClocks() {
  for (const node of document.querySelectorAll('[data-clock]')) {
    const seat = node.getAttribute('data-clock');
    const ms = leftOf(seat);
    const shown = clocksOn() && personSeat(seat) && ms !== null;
    node.hidden = !shown;
    if (!shown) continue;
    node.textContent = format(ms);
    node.classList.toggle('running', clock.running === seat);
    node.classList.toggle('low', ms < 10000);
  }
}

setInterval(() => {
  if (!clocksOn()) return;
  renderClocks();
  const seat = clock.running;
  if (seat && !clock.flagged && leftOf(seat) <= 0) {
    clock.flagged = true;
    clock.left[seat] = 0;
    clock.running = null;
    save();
    if (clock.onFlag) clock.onFlag(seat);
  }
}, 100);
