// What every part of the page shares: the page's state (`ui`), the API
// (api.md) and small helpers.

export const $ = (id) => document.getElementById(id);
export const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

export const ui = {
  layouts: {},       // variant name -> layout (GET /api/variants)
  levels: null,      // GET /api/levels, or null when the server has none
  state: null,       // the game's state from the API
  seats: {},         // seat name -> {kind: 'person' | 'engine', level}
  flipped: false,
  selected: null,    // square name
  thinking: false,   // an engine move is being asked for
  busy: false,       // a move or step is on its way to the server
  token: 0,          // bumped by every new game: stale answers are dropped
  view: null,        // a past position shown from the move list (positions/<ply>), or null: the game
  glyphs: 'chinese', // xiangqi pieces: 'chinese' characters or 'letters'
};

export async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch('/api' + path, init);
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new Error((data && data.error) || response.statusText);
  return data;
}

export function showError(e) {
  $('error').textContent = e ? String(e.message || e) : '';
}

// The layout of the game shown.
export function layout() {
  return ui.state && ui.layouts[ui.state.variant];
}

// Whether the seat to move is played by a person on this page, and may move now.
export function personToMove() {
  const s = ui.state;
  return !!(s && !s.outcome && !ui.thinking && !ui.busy && !ui.view && ui.seats[s.turn] &&
    ui.seats[s.turn].kind === 'person');
}
