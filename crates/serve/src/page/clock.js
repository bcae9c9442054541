// Clocks: the server keeps them (api.md, "Clocks"). A game gets clocks
// for the seats a person plays when it is made (Clock in the header: base
// + increment, from the next new game or rematch); every state carries
// each clocked seat's time left and the seat whose clock runs. This file
// only shows them, counting the running one down between states; when it
// reaches 0 the page asks the server for the state, and the server, which
// decides, ends the game by time forfeit. A reload or a second tab shows
// the same clocks.

const shown = { clock: null, at: 0, asked: false, onOut: null };

// The clocks a new game asks for: each seat a person plays gets `base`
// ms and `inc` ms a turn; none when `base` is 0.
export function clockRequest(baseMs, incMs, personSeats) {
  if (!(baseMs > 0)) return undefined;
  const clocks = {};
  for (const seat of personSeats) clocks[seat] = { base_ms: baseMs, inc_ms: incMs };
  return personSeats.length ? clocks : undefined;
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
