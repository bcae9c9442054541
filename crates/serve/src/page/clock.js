// Clocks: the server keeps them (api.md, "Clocks"). A game gets clocks
// for every seat when it is made (Clock in the header: base + increment,
// or a preset, from the next new game or rematch); every state carries
// each clocked seat's time left and the seat whose clock runs. This file
// only shows them, counting the running one down between states; when it
// reaches 0 the page asks the server for the state, and the server, which
// decides, ends the game by time forfeit. A reload or a second tab shows
// the same clocks. They show big beside the board (`renderClockBar`) and
// small in the Players panel.

const shown = { clock: null, at: 0, asked: false, onOut: null };

// The clocks a new game asks for: each of `seats` (every seat, the
// engine's too: the server's engine spends its own time) gets `base` ms
// and `inc` ms a turn; none when `base` is 0.
export function clockRequest(baseMs, incMs, seats) {
  if (!(baseMs > 0)) return undefined;
  const clocks = {};
  for (const seat of seats) clocks[seat] = { base_ms: baseMs, inc_ms: incMs };
  return seats.length ? clocks : undefined;
}

// The clock field's minutes and seconds (`clock-base`, `clock-inc`) as
// [base ms, increment ms], or an error in the words of the field: a
// negative or unreadable number is refused, never taken for "no clock".
// The server says how long a clock may be (api.md).
export function readClockFields(minutes, seconds) {
  const base = Number(minutes === '' ? 0 : minutes);
  const inc = Number(seconds === '' ? 0 : seconds);
  if (!Number.isFinite(base) || base < 0) throw new Error(`Clock: the minutes must be a number, 0 (no clock) or more, not “${minutes}”`);
  if (!Number.isFinite(inc) || inc < 0) throw new Error(`Clock: the seconds a move must be a number, 0 or more, not “${seconds}”`);
  if (base === 0 && inc > 0) throw new Error('Clock: an increment needs minutes to start with (0 minutes: no clock)');
  return [Math.round(base * 60000), Math.round(inc * 1000)];
}

// The big clocks beside the board: a card for every seat, its player
// (`who(seat)`), its time (or "no clock"), the running one lit.
export function renderClockBar(state, seats, who) {
  const bar = document.getElementById('clocks');
  bar.hidden = !state || !state.clock;
  bar.replaceChildren();
  if (bar.hidden) return;
  for (const seat of seats) {
    const card = document.createElement('div');
    card.className = 'clock-card';
    card.setAttribute('data-clock-card', seat);
    const name = document.createElement('span');
    name.className = 'clock-seat';
    name.textContent = seat;
    const player = document.createElement('span');
    player.className = 'clock-who';
    player.textContent = who(seat);
    const time = document.createElement('span');
    time.className = 'clock-time';
    time.setAttribute('data-clock', seat);
    const none = document.createElement('span');
    none.className = 'clock-none';
    none.textContent = 'no clock';
    card.append(name, player, time, none);
    bar.appendChild(card);
  }
  renderClocks();
}

// `onOut` is called (once a state) when the running clock shows 0.
export function onClockOut(onOut) {
  shown.onOut = onOut;
}

// A new state: its clocks, as read now.
export function clockUpdate(state) {
  shown.clock = state.clock || null;
  shown.at = performance.now();
  shown.asked = false;
  renderClocks();
}

function leftOf(seat) {
  const c = shown.clock;
  const entry = c && c.seats.find((s) => s.seat === seat);
  if (!entry) return null;
  let ms = entry.left_ms;
  if (c.running === seat) ms -= performance.now() - shown.at;
  return Math.max(0, ms);
}

function format(ms) {
  const s = Math.ceil(ms / 100) / 10;
  const m = Math.floor(s / 60);
  const rest = s - 60 * m;
  return s < 20 ? `${m}:${rest.toFixed(1).padStart(4, '0')}` : `${m}:${String(Math.floor(rest)).padStart(2, '0')}`;
}

export function renderClocks() {
  const running = shown.clock && shown.clock.running;
  for (const node of document.querySelectorAll('[data-clock]')) {
    const seat = node.getAttribute('data-clock');
    const ms = leftOf(seat);
    node.hidden = ms === null;
    const card = node.closest('.clock-card');
    if (card) {
      card.classList.toggle('no-clock', ms === null);
      card.classList.toggle('running', running === seat);
    }
    if (ms === null) continue;
    node.textContent = format(ms);
    node.classList.toggle('running', running === seat);
    node.classList.toggle('low', ms < 10000);
  }
}

setInterval(() => {
  if (!shown.clock) return;
  renderClocks();
  const seat = shown.clock.running;
  if (seat && !shown.asked && leftOf(seat) <= 0 && shown.onOut) {
    shown.asked = true;
    shown.onOut(seat);
  }
}, 100);
