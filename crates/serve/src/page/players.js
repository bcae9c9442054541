// The table of the game shown (issue #61): who plays each seat (you, a
// named person, someone awaited by a link or in the open games, the
// engine at its level), each seat's clock, the links this browser may
// share (an invitation for each seat still waiting, the watch link, its
// own seats' links to play from another device), and a take-back asked
// for, with the answers this browser may give. Whoever holds no token of
// the game watches it.

import { $, ui, cap, mine } from './api.js';
import { renderClocks } from './clock.js';

// Set by the app: answer(accept) answers the take-back waiting.
export const playerHandlers = { answer: null };

function who(state, seat) {
  const p = state.players[seat];
  if (p.kind === 'engine') return `engine (level ${p.level})`;
  let text = p.name || 'a person';
  if (mine(seat)) text = p.name ? `you (${p.name})` : 'you';
  if (!p.joined) text = p.open ? 'waiting: open to anyone' : 'waiting: invited by a link';
  if (state.forfeited.includes(seat)) text += ' — forfeited';
  return text;
}

// A link with a button that copies it.
function linkRow(label, url, kind) {
  const row = document.createElement('div');
  row.className = 'link';
  row.setAttribute('data-link', kind);
  const words = document.createElement('span');
  words.textContent = label;
  const field = document.createElement('input');
  field.readOnly = true;
  field.value = url;
  field.setAttribute('aria-label', label);
  const copy = document.createElement('button');
  copy.type = 'button';
  copy.textContent = 'Copy';
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch (_) {
      field.select();
      document.execCommand('copy');
    }
    copy.textContent = 'Copied';
  });
  row.append(words, field, copy);
  return row;
}

export function renderPlayers(state, held) {
  const panel = $('players');
  panel.hidden = !state;
  if (!state) return;
  const L = ui.layouts[state.variant];
  const rows = $('player-rows');
  rows.replaceChildren();
  for (const seat of L.seats.map((s) => s.name)) {
    const row = document.createElement('div');
    row.className = 'player';
    row.setAttribute('data-player', seat);
    const name = document.createElement('b');
    name.textContent = seat;
    const text = document.createElement('span');
    text.className = 'who';
    text.textContent = state.players ? who(state, seat) : 'anyone';
    const clock = document.createElement('span');
    clock.className = 'clock';
    clock.setAttribute('data-clock', seat);
    clock.hidden = true;
    row.append(name, text, clock);
    if (state.turn === seat && !state.outcome) row.classList.add('to-move');
    rows.appendChild(row);
  }
  const seatsHeld = Object.keys(ui.tokens).filter((seat) => mine(seat));
  let role;
  if (!state.players) role = 'An analysis board: anyone with its link moves any seat.';
  else if (seatsHeld.length) role = `You play ${seatsHeld.join(' and ')}.`;
  else role = 'You are watching: the board follows the game as it is played.';
  $('role').textContent = role;
  $('role').setAttribute('data-role', !state.players ? 'board' : seatsHeld.length ? 'player' : 'watcher');

  const links = $('links');
  links.replaceChildren();
  if (state.players) {
    for (const [seat, url] of Object.entries(held.invites)) {
      const p = state.players[seat];
      if (p && p.kind === 'person' && !p.joined) links.appendChild(linkRow(`Invite ${seat}:`, url, seat));
    }
    if (held.watch) links.appendChild(linkRow('Watch:', held.watch, 'watch'));
    for (const [seat, url] of Object.entries(held.own)) {
      if (ui.tokens[seat]) links.appendChild(linkRow(`Your ${seat} (another device):`, url, 'own-' + seat));
    }
  }
  renderProposal(state);
  renderClocks();
}

// A take-back asked for or a draw offered: what it is, who is awaited,
// and the buttons of this browser's seats (consent or refusal; its
// asker's withdrawal).
// What a draw means in this game: in Cat Chess the cats' win.
function drawMeaning(state) {
  return state.variant === 'catchess' ? ' (in Cat Chess a draw is the cats\' win)' : '';
}

function renderProposal(state) {
  const box = $('proposal');
  const p = state.proposal;
  box.hidden = !p;
  box.replaceChildren();
  if (!p) return;
  const text = document.createElement('p');
  const waiting = `waiting for ${p.waiting_for.join(', ')}.`;
  if (p.kind === 'draw') {
    text.textContent = `${cap(p.by)} offers a draw${drawMeaning(state)}; ${waiting}`;
  } else {
    const moves = p.plies === 1 ? '1 move' : `${p.plies} moves`;
    text.textContent = `${cap(p.by)} asks to take back ${moves}; ${waiting}`;
  }
  box.appendChild(text);
  const button = (id, words, accept) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.id = id;
    b.textContent = words;
    b.addEventListener('click', () => playerHandlers.answer(accept));
    box.appendChild(b);
  };
  if (p.waiting_for.some((seat) => mine(seat))) {
    button('accept', 'Accept', true);
    button('refuse', 'Refuse', false);
  } else if (mine(p.by)) {
    button('withdraw', 'Withdraw', false);
  }
}
