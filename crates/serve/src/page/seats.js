// The next game's seats (issue #61): who plays each — you (this
// browser), a friend invited by a link, anyone (an open game, listed for
// all to join), or the engine at a level 1..8 of GET /api/levels. Every
// game the page makes is made this way (POST /api/games with `players`),
// so even a person alone against the engine plays at a table the server
// keeps, and the server plays the engine's seats. A new game's defaults
// come from the server (in Cat Chess levels a beginner can beat); the
// choice is kept in the browser per game, for the next new game.

import { $, ui } from './api.js';

const LEVELS = [1, 2, 3, 4, 5, 6, 7, 8];

// The picker's kinds: value, words.
const KINDS = [
  ['you', 'you'],
  ['link', 'a friend (link)'],
  ['open', 'anyone (open game)'],
  ['engine', 'engine'],
];

const setup = { variant: null, seats: {} };

function levelOf(variant, seat, fallback) {
  const d = ui.levels && ui.levels.defaults && ui.levels.defaults[variant];
  return (d && d[seat]) || fallback;
}

// The first seat is yours, the others the engine's.
function defaults(variant) {
  const seats = {};
  ui.layouts[variant].seats.forEach((s, i) => {
    seats[s.name] = { kind: i === 0 ? 'you' : 'engine', level: levelOf(variant, s.name, ui.layouts[variant].cats ? 1 : 2) };
  });
  return seats;
}

function kept(variant) {
  try {
    const seats = JSON.parse(localStorage.getItem('catchess-setup-' + variant));
    const names = ui.layouts[variant].seats.map((x) => x.name);
    const kinds = KINDS.map(([k]) => k);
    return seats && names.every((n) => seats[n] && kinds.includes(seats[n].kind) && LEVELS.includes(seats[n].level)) ? seats : null;
  } catch (_) {
    return null;
  }
}

function keepSetup() {
  try {
    localStorage.setItem('catchess-setup-' + setup.variant, JSON.stringify(setup.seats));
  } catch (_) {
    // Not kept: the next visit starts from the defaults.
  }
}

function levelText(n) {
  const found = ui.levels && ui.levels.levels.find((l) => l.level === n);
  if (!found) return `level ${n}`;
  return found.elo ? `level ${n} (Elo ${found.elo})` : `level ${n} (full)`;
}

// Shows the pickers of `variant`'s seats, with `seats` (else the kept
// choice, else the defaults).
export function renderSetup(variant, seats) {
  setup.variant = variant;
  setup.seats = seats || kept(variant) || defaults(variant);
  const L = ui.layouts[variant];
  const box = $('setup-seats');
  box.replaceChildren();
  for (const seat of L.seats) {
    const conf = setup.seats[seat.name];
    const row = document.createElement('div');
    row.className = 'seat';
    row.setAttribute('data-seat', seat.name);
    const name = document.createElement('b');
    name.textContent = seat.name;
    const kind = document.createElement('select');
    kind.className = 'kind';
    kind.setAttribute('aria-label', `who plays ${seat.name}`);
    for (const [value, words] of KINDS) kind.appendChild(new Option(words, value));
    const level = document.createElement('select');
    level.className = 'level';
    level.setAttribute('aria-label', `${seat.name}'s level`);
    for (const n of LEVELS) {
      const option = new Option(levelText(n), n);
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
      level.hidden = conf.kind !== 'engine';
      keepSetup();
    };
    kind.addEventListener('change', update);
    level.addEventListener('change', update);
    row.append(name, kind, level);
    box.appendChild(row);
  }
  $('level-note').hidden = !L.cats;
}

// The seats chosen for the next game.
export function chosenSeats() {
  return setup.seats;
}

// The `players` of POST /api/games for `seats`, `name` naming yours.
export function playersRequest(seats, name) {
  const players = {};
  for (const [seat, conf] of Object.entries(seats)) {
    if (conf.kind === 'engine') players[seat] = { kind: 'engine', level: conf.level };
    else if (conf.kind === 'you') players[seat] = name ? { kind: 'person', name } : { kind: 'person' };
    else players[seat] = { kind: 'person', invite: conf.kind };
  }
  return players;
}

// The seats of `seats` this browser plays itself.
export function yours(seats) {
  return Object.keys(seats).filter((seat) => seats[seat].kind === 'you');
}

// The seats of a rematch of the game shown: each player one seat on
// (white's plays black; in Cat Chess white's black, black's the cats, the
// cats' white): the engine at its level, this browser's seats its own,
// the other people's invited again by a link.
export function rematchSeats(state, mine) {
  const names = ui.layouts[state.variant].seats.map((x) => x.name);
  const seats = {};
  names.forEach((n, i) => {
    const p = state.players ? state.players[n] : { kind: 'person' };
    const next = names[(i + 1) % names.length];
    if (p.kind === 'engine') seats[next] = { kind: 'engine', level: p.level };
    else seats[next] = { kind: !state.players || mine(n) ? 'you' : 'link', level: levelOf(state.variant, next, 1) };
  });
  return seats;
}
