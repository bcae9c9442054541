// What this browser holds of the games it plays (issue #61): for each
// game, the tokens of its seats (the secret that acts for a seat, sent as
// X-Seat-Token), the links of the seats it invited others to (shown until
// they join) and the game's watch link; and the list of those games, the
// newest first ("my games", lobby.js). Kept in localStorage, so that a
// reload or a closed tab finds them again; a token never goes into the
// address (a join link's is taken out once used).

const INDEX = 'catchess-games';
const MAX_GAMES = 200;

const key = (id) => 'catchess-table-' + id;

function read(name, fallback) {
  try {
    return JSON.parse(localStorage.getItem(name)) || fallback;
  } catch (_) {
    return fallback;
  }
}

function write(name, value) {
  try {
    localStorage.setItem(name, JSON.stringify(value));
  } catch (_) {
    // Nothing kept (storage full or refused): this tab still plays.
  }
}

// {tokens: {seat: token}, invites: {seat: link}, watch: link, own: {seat: link}}
export function held(id) {
  const h = read(key(id), {});
  return { tokens: h.tokens || {}, invites: h.invites || {}, watch: h.watch || null, own: h.own || {} };
}

// Keeps `more` (some of held()'s fields) for game `id`, which goes to the
// top of the list of this browser's games.
export function keep(id, more) {
  const h = held(id);
  write(key(id), {
    tokens: { ...h.tokens, ...(more.tokens || {}) },
    invites: { ...h.invites, ...(more.invites || {}) },
    own: { ...h.own, ...(more.own || {}) },
    watch: more.watch || h.watch,
  });
  const ids = myGames().filter((x) => x !== id);
  ids.unshift(id);
  for (const old of ids.splice(MAX_GAMES)) localStorage.removeItem(key(old));
  write(INDEX, ids);
}

// Forgets game `id` in this browser (its tokens with it).
export function forget(id) {
  localStorage.removeItem(key(id));
  write(INDEX, myGames().filter((x) => x !== id));
}

// The ids of this browser's games, the last shown first.
export function myGames() {
  const ids = read(INDEX, []);
  return Array.isArray(ids) ? ids.filter((x) => typeof x === 'string') : [];
}

// A new game's answer (state, tokens, links) as this browser keeps it:
// the tokens of the seats it plays itself (`mine`), the links of the
// others, the watch link.
export function keepCreated(answer, mine) {
  const tokens = {};
  const invites = {};
  const own = {};
  for (const [seat, token] of Object.entries(answer.tokens || {})) {
    if (mine.includes(seat)) {
      tokens[seat] = token;
      own[seat] = answer.links[seat];
    } else {
      invites[seat] = answer.links[seat];
    }
  }
  keep(answer.id, { tokens, invites, own, watch: answer.links && answer.links.watch });
}

// A seat joined (POST join's answer): its token, and its link to play
// from another device.
export function keepJoined(answer) {
  keep(answer.id, {
    tokens: { [answer.seat]: answer.token },
    own: { [answer.seat]: answer.link },
    watch: `${location.origin}/#game=${answer.id}`,
  });
}

// The player name this browser gives when it makes or joins a game.
export function myName() {
  return (localStorage.getItem('catchess-name') || '').trim();
}

export function setMyName(name) {
  localStorage.setItem('catchess-name', name.trim());
}
