// The seats: who plays each (a person, or the engine at a level 1..8 of
// GET /api/levels, the cats too), as pickers over the seats' names; a
// new game's defaults come from the server (in Cat Chess levels a
// beginner can beat). A game's players are kept in the browser, so that
// a reload finds them.

import { $, ui, layout } from './api.js';
import { renderClocks } from './clock.js';

const LEVELS = [1, 2, 3, 4, 5, 6, 7, 8];

function levelOf(variant, seat, fallback) {
  const d = ui.levels && ui.levels.defaults && ui.levels.defaults[variant];
  return (d && d[seat]) || fallback;
}

export function defaultSeats(variant) {
  const seats = {};
  ui.layouts[variant].seats.forEach((s, i) => {
    seats[s.name] = { kind: i === 0 ? 'person' : 'engine', level: levelOf(variant, s.name, ui.layouts[variant].cats ? 1 : 2) };
  });
  return seats;
}

function levelText(n) {
  const found = ui.levels && ui.levels.levels.find((l) => l.level === n);
  if (!found) return `level ${n}`;
  return found.elo ? `level ${n} (Elo ${found.elo})` : `level ${n} (full)`;
}

// `changed` is called when a picker changes.
export function renderSeats(changed) {
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
      `<select class="level" aria-label="${seat.name}'s level"></select><span class="clock" data-clock="${seat.name}" hidden></span>`;
    const [kind, level] = [row.querySelector('.kind'), row.querySelector('.level')];
    for (const n of LEVELS) {
      const option = document.createElement('option');
      option.value = n;
      option.textContent = levelText(n);
      const found = ui.levels && ui.levels.levels.find((l) => l.level === n);
      if (found) option.title = found.description;
      level.appendChild(option);
    }
    kind.value = conf.kind;
    level.value = conf.level;
    level.hidden = conf.kind !== 'engine';
    const update = () => {
      conf.kind = kind.value;
      conf.level = Number(level.value);
      keepSeats(ui.state.id);
      level.hidden = conf.kind !== 'engine';
      changed();
    };
    [kind, level].forEach((n) => n.addEventListener('change', update));
    box.appendChild(row);
  }
  $('level-note').hidden = !L.cats;
  renderClocks();
}

// Who plays each seat of a game is kept in the browser, so that a reload
// finds the same players.
export function keepSeats(id) {
  try {
    localStorage.setItem('catchess-seats-' + id, JSON.stringify(ui.seats));
  } catch (_) {
    // Nothing kept: a reload starts with the defaults.
  }
}

export function keptSeats(state) {
  try {
    const seats = JSON.parse(localStorage.getItem('catchess-seats-' + state.id));
    const names = ui.layouts[state.variant].seats.map((x) => x.name);
    return seats && names.every((n) => seats[n] && ['person', 'engine'].includes(seats[n].kind)) ? seats : null;
  } catch (_) {
    return null;
  }
}
