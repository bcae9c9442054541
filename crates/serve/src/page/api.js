// What every part of the page shares: the page's state (`ui`), the API
// (api.md) and small helpers.

export const $ = (id) => document.getElementById(id);
export const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

export const ui = {
  layouts: {},       // variant name -> layout (GET /api/variants)
  levels: null,      // GET /api/levels, or null when the server has none
  state: null,       // the game's state from the API (null: no game shown)
  tokens: {},        // seat name -> this browser's token for it, in the game shown (table.js)
  flipped: false,
  selected: null,    // square name
  busy: false,       // a move or step is on its way to the server
  token: 0,          // bumped by every game shown: stale answers are dropped
  view: null,        // a past position shown from the move list (positions/<ply>), or null: the game
  review: null,      // the game's review (GET review, or the review stream's so far): {plies, points, marks}
  glyphs: 'chinese', // xiangqi pieces: 'chinese' characters or 'letters'
};

// A request to the API; `token`, when given, acts for its seat
// (`X-Seat-Token`). A refusal throws an Error with the server's `error`
// and its `status`.
export async function api(method, path, body, token) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (token) init.headers['X-Seat-Token'] = token;
  const response = await fetch('/api' + path, init);
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const error = new Error((data && data.error) || response.statusText);
    error.status = response.status;
    throw error;
  }
  return data;
}

export function showError(e) {
  $('error').textContent = e ? String(e.message || e) : '';
}

// The layout of the game shown.
export function layout() {
  return ui.state && ui.layouts[ui.state.variant];
}

// Whether this page acts for `seat` of the game shown: on an analysis
// board (no players) anyone moves any seat; at a table, the seats whose
// tokens this browser holds.
export function mine(seat) {
  const s = ui.state;
  if (!s) return false;
  if (!s.players) return true;
  const p = s.players[seat];
  return !!(p && p.kind === 'person' && ui.tokens[seat]);
}

// Whether the engine plays `seat` at the game shown's table.
export function engineSeat(seat) {
  const p = ui.state && ui.state.players && ui.state.players[seat];
  return !!(p && p.kind === 'engine');
}

// Whether the seat to move is this page's, and may move now.
export function personToMove() {
  const s = ui.state;
  return !!(s && !s.outcome && !ui.busy && !ui.view && mine(s.turn));
}

// Whether the engine's thinking may be shown: always on an analysis
// board, at a table when its creator chose so, and once the game is over.
export function thinkingShown(state) {
  return !!(state && (!state.players || state.show_thinking || state.outcome));
}

// What a request made on the position shown carries, so that the server
// refuses it (409) if the game has moved on meanwhile.
export function seen() {
  return { ply: ui.state.moves.length, fen: ui.state.fen };
}
