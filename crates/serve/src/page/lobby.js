// Finding a game again (issue #61): "my games", the games whose tokens
// this browser holds (table.js), with who plays, the result or who is to
// move, and when each last changed; and the open games, waiting for
// anyone to take a seat (GET /api/games?open=true). Each can be resumed
// or joined from here, forgotten in this browser, or deleted (while nobody
// else plays in it); a game the server no longer holds leaves the list.

import { $, ui, api, cap, showError } from './api.js';
import { forget, held, myGames } from './table.js';
import { ask } from './dialogs.js';

// Set by the app: show(id) shows a game of this browser's, join(id, seat)
// takes an open seat, deleted(id) is told of a game deleted from here.
export const lobbyHandlers = { show: null, join: null, deleted: null };

// Who plays each seat of `game`, in turn order.
function players(game, tokens) {
  if (!game.players) return 'analysis board';
  const order = ui.layouts[game.variant] ? ui.layouts[game.variant].seats.map((s) => s.name) : Object.keys(game.players);
  return order
    .map((seat) => [seat, game.players[seat]])
    .map(([seat, p]) => {
      if (tokens[seat]) return `${seat}: you`;
      if (p.kind === 'engine') return `${seat}: engine ${p.level}`;
      return `${seat}: ${p.joined ? p.name || 'a person' : 'waiting'}`;
    })
    .join(', ');
}

function title(variant) {
  return ui.layouts[variant] ? ui.layouts[variant].title : variant;
}

function when(ms) {
  return new Date(ms).toLocaleString();
}

function row(game, words, buttons) {
  const li = document.createElement('li');
  li.setAttribute('data-game', game.id);
  const text = document.createElement('span');
  text.textContent = words;
  li.appendChild(text);
  for (const [label, act, attr] of buttons) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    if (attr) b.setAttribute(attr[0], attr[1]);
    b.addEventListener('click', act);
    li.appendChild(b);
  }
  return li;
}

// Deletes a game of this browser's on the server, once confirmed (refused
// once someone else has joined it: it is theirs too), and forgets it here.
async function remove(id, tokens) {
  if (!(await ask('Delete this game for everyone? It cannot be brought back.', 'Delete'))) return;
  try {
    await api('DELETE', `/games/${id}`, undefined, Object.values(tokens)[0]);
    forget(id);
    lobbyHandlers.deleted(id);
    renderLobby();
  } catch (e) {
    showError(e);
  }
}

// Fills the lists from the server.
export async function renderLobby() {
  try {
    const ids = myGames();
    const mine = ids.length ? await api('GET', '/games?ids=' + ids.join(',')) : { games: [], unknown: [] };
    for (const id of mine.unknown) forget(id);
    const list = $('my-games');
    list.replaceChildren();
    for (const g of mine.games) {
      const tokens = held(g.id).tokens;
      const state = g.outcome ? g.outcome.text : `${cap(g.turn)} to move` + (g.waiting_for.length ? `, waiting for ${g.waiting_for.join(', ')}` : '');
      const words = `${title(g.variant)} — ${players(g, tokens)} — ${state} — ${g.plies} moves, ${when(g.updated_ms)}`;
      list.appendChild(row(g, words, [
        ['Resume', () => lobbyHandlers.show(g.id), ['data-resume', g.id]],
        ['Forget', () => { forget(g.id); renderLobby(); }, ['data-forget', g.id]],
        ['Delete', () => remove(g.id, tokens), ['data-delete', g.id]],
      ]));
    }
    $('my-games-none').hidden = mine.games.length > 0;
    const open = await api('GET', '/games?open=true');
    const openList = $('open-games');
    openList.replaceChildren();
    const others = open.games.filter((g) => !Object.keys(held(g.id).tokens).length);
    for (const g of others) {
      const buttons = g.open_seats.map((seat) => [`Join as ${seat}`, () => lobbyHandlers.join(g.id, seat), ['data-join', seat]]);
      buttons.push(['Watch', () => lobbyHandlers.show(g.id), ['data-watch', g.id]]);
      openList.appendChild(row(g, `${title(g.variant)} — ${players(g, {})} — made ${when(g.created_ms)}`, buttons));
    }
    $('open-games-none').hidden = others.length > 0;
  } catch (e) {
    showError(e);
  }
}
