// What happened since this page's last turn (issue #62): the squares of
// every move played since the last turn one of this page's seats played,
// each in its seat's colour (`recent seat-0`, `seat-1`, `seat-2`), so that
// black's reply is not lost behind the cats' step; and every step of a
// turn of several (Cat's Chess 10×10), the one under way included. On an
// analysis board (every seat is this page's) and for a watcher: the last
// turn.

import { layout, mine } from './api.js';

// The squares a move's text names (`e2e4`, `e10e9`, `T@b2`, `e3e4*h6`,
// `M@d1`, `+c3c5`; none for `0000`, `T@?`, `end`): api.md's notation.
export function squaresOf(text) {
  return text.match(/[a-z][0-9]+/g) || [];
}

// The turns to show: indices into `state.turns` (the status line says
// them too).
export function recentTurns(state) {
  const turns = state.turns;
  if (!turns.length) return [];
  const last = turns.length - 1;
  // A turn under way (its steps so far) is shown apart, after the others.
  const done = state.turn_steps.length ? last - 1 : last;
  const seats = layout().seats.length;
  const player = !!state.players && layout().seats.some((s) => mine(s.name));
  let from = done;
  if (player) {
    let i = done;
    while (i >= 0 && !mine(turns[i].seat)) i--;
    // Since this page's last turn (that turn itself when nobody has moved
    // since); before its first, every turn of the first round.
    from = i === done ? done : i >= 0 ? i + 1 : Math.max(0, done - (seats - 2));
  }
  const shown = [];
  for (let k = Math.max(0, from); k <= done; k++) shown.push(k);
  if (done < last) shown.push(last);
  return shown;
}

// square -> [classes] for the board (board.js draws them).
export function recentMarks(state) {
  const marks = new Map();
  if (!state) return marks;
  const seats = layout().seats.map((s) => s.name);
  for (const k of recentTurns(state)) {
    const t = state.turns[k];
    const cls = 'recent seat-' + seats.indexOf(t.seat);
    for (const m of state.moves.slice(t.first - 1, t.last)) {
      for (const sq of squaresOf(m.move)) {
        if (!marks.has(sq)) marks.set(sq, []);
        const list = marks.get(sq);
        if (!list.includes(cls)) list.push(cls);
      }
    }
  }
  return marks;
}
