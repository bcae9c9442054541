// The choices of a position, read from the state's `legal_moves` (api.md):
// moves from a square to another; and in a game of several steps a turn
// (Cat's Chess 10×10) the steps too: picking the piece for a move (its
// square), putting a piece (`M@c1`, a captured neutral `*e5`), the
// teleport (`T@?`), keep or roll again after a roll on a mouse (`keep`,
// `reroll`) and ending the turn (`end`). Also which step comes next, for
// the status line and the step bar.

const SQUARE = /^[a-z]+[0-9]+$/;

// {starts: square -> moves from it, picks: squares, places: square -> entry,
//  teleport, end, keep, reroll: the entry or null}
export function options(state) {
  const o = { starts: new Map(), picks: new Set(), places: new Map(), teleport: null, end: null, keep: null, reroll: null };
  if (!state || state.outcome) return o;
  for (const m of state.legal_moves) {
    const t = m.move;
    if (t === 'T@?') o.teleport = m;
    else if (t === 'end') o.end = m;
    else if (t === 'keep') o.keep = m;
    else if (t === 'reroll') o.reroll = m;
    else if (SQUARE.test(t)) o.picks.add(t);
    else if (t.startsWith('M@') || t.startsWith('*')) o.places.set(m.to, m);
    else {
      if (!o.starts.has(m.from)) o.starts.set(m.from, []);
      o.starts.get(m.from).push(m);
    }
  }
  return o;
}

// Whether the last step of the turn under way picked a piece (its move
// comes next): a click elsewhere takes the pick back.
export function pendingPick(state) {
  const steps = state ? state.turn_steps : [];
  const last = steps.length ? steps[steps.length - 1] : null;
  return last && SQUARE.test(last) ? last : null;
}

// What the seat to move does next, in a few words (a game of several
// steps a turn); null in the other games.
export function nextStep(state) {
  if (!state || state.outcome || !state.legal.length) return null;
  const o = options(state);
  const steps = state.turn_steps;
  const several = steps.length || o.teleport || o.picks.size || o.places.size || o.end || o.keep;
  if (!several) return null;
  if (o.keep) return 'the teleport landed on a mouse: keep the square (the mouse leaves) or roll again';
  const pick = pendingPick(state);
  if (pick) return `move the piece on ${pick} (click its target; elsewhere to pick another)`;
  const placesMouse = [...o.places.values()].some((m) => m.move.startsWith('M@'));
  const placesNeutral = [...o.places.values()].some((m) => m.move.startsWith('*'));
  if (placesNeutral) return 'put the captured neutral on an empty square';
  if (placesMouse) return 'step 4: put a mouse on an empty square of your first rank (optional) — or end the turn';
  // The own move is made once a picked piece has moved.
  const own = steps.some((s, i) => SQUARE.test(s) && i + 1 < steps.length);
  if (o.teleport) return 'teleport (optional), move a neutral (optional), or make your own move';
  if (own && o.end) {
    const bonus = steps.some((s) => s.startsWith('M@')) || [...o.starts.values()].flat().some((m) => m.move.startsWith('+'));
    return bonus ? 'step 5: the bonus move (optional) — or end the turn' : 'a second cat move (optional) — or end the turn';
  }
  const neutral = o.starts.size && [...o.starts.keys()].some((sq) => pieceAt(state, sq) === '*');
  if (neutral) return 'move a neutral (optional), or make your own move';
  return 'step 3: your own move';
}

function pieceAt(state, square) {
  const q = state.board.find((b) => b.square === square);
  return q ? q.piece : undefined;
}
