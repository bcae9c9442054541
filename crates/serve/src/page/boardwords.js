// The board in words, for screen readers (issue #62): each square's
// label ("e2, white pawn, disarmed, selected"), the name of the board, a
// rules diagram said as a list of its pieces, the kings in check. Every
// piece is named by the layout (`names`, the rules code's words: a
// xiangqi chariot, a Cat Chess cat, a 10×10 mouse); every state by the
// server's squares (`zone`, `disarmed`, `check`) and the marks the board
// draws (board.js), so that nothing here knows a game's rules.

import { pieceName, pieceSeat, pieceWords } from './pieces.js';

// What a mark drawn on a square says: the last move, the moves since
// one's last turn (recent.js: `recent seat-N`), a selection. A diagram's
// hint is its caption's to say.
function markWords(L, cls) {
  if (cls === 'last') return 'last move';
  if (cls === 'selected') return 'selected';
  const m = /^recent seat-(\d+)$/.exec(cls);
  const seat = m && L.seats[Number(m[1])];
  return seat ? `${seat.name}${seat.name.endsWith('s') ? "'" : "'s"} last move` : null;
}

// The label of square `q` (a square of a state's `board`): its name, what
// stands on it, its states. `marks`: the classes the board draws on it;
// `target`: a move may end there; `goes`: for the selected piece, the
// squares its moves reach; `picked`: the piece a 10×10 turn under way
// picked, whose move comes next (its square's marks are that step's).
export function squareLabel(L, q, { marks = [], target = false, goes = null, picked = false } = {}) {
  const words = [q.square, q.piece ? pieceWords(q.piece, L) : 'empty'];
  if (q.check) words.push('in check');
  if (q.disarmed) words.push('disarmed');
  else if (q.zone && !q.piece) words.push('no-capture zone');
  if (picked) words.push('picked: its move comes next');
  for (const cls of marks.filter((c) => !picked || c === 'selected')) {
    const said = markWords(L, cls);
    if (said && !words.includes(said)) words.push(said);
  }
  if (goes) words.push(goes.length ? `it may go to ${goes.join(', ')}` : 'no legal move');
  if (target) words.push('possible move');
  return words.join(', ');
}

// The board's name: the game, and the seat at the bottom as shown.
export function boardName(L, flipped) {
  const bottom = L.seats[flipped ? 1 : 0];
  return `${L.title} board, ${bottom.name} at the bottom`;
}

// A position said as its pieces, seat by seat (a rules diagram: a picture
// with these words): "white: king e1, bishop c4 disarmed; black: king e8;
// cats: cat a4"; the squares a diagram dots, after.
export function positionWords(L, board, targets = new Map()) {
  const said = (q) => [pieceName(q.piece, L), q.square, q.check ? 'in check' : '', q.disarmed ? 'disarmed' : ''].filter((w) => w).join(' ');
  const parts = [];
  for (const seat of L.seats) {
    const pieces = board.filter((q) => q.piece && pieceSeat(q.piece, L) === seat);
    if (pieces.length) parts.push(`${seat.name}: ${pieces.map(said).join(', ')}`);
  }
  const nobody = board.filter((q) => q.piece && !pieceSeat(q.piece, L));
  if (nobody.length) parts.push(nobody.map(said).join(', '));
  if (targets.size) parts.push(`moves to ${[...targets.keys()].join(', ')}`);
  return `${L.title} diagram. ${parts.join('; ')}`;
}

// The kings (generals) in check on `board`, in words, or ''.
export function checkWords(L, board) {
  return board
    .filter((q) => q.check && q.piece)
    .map((q) => `${pieceWords(q.piece, L)} on ${q.square} in check`)
    .join(', ');
}
