// A turn of several steps (Cat's Chess 10×10) in plain words, for the
// step bar (issue #62): "teleporting cat to b2 · pawn a2–a4 · a mouse
// on d1" rather than the turn's token (`T@b2,a2a4,M@d1`, api.md), which
// the move list keeps. Each piece is named by what stands on the square
// it went to, on the board shown.

import { ui } from './api.js';
import { pieceName } from './pieces.js';

const SQ = '([a-z][0-9]+)';
const MOVE = new RegExp(`^(\\+)?${SQ}${SQ}([a-z])?(?:\\*${SQ})?$`);

function pieceOn(state, square) {
  const q = state.board.find((b) => b.square === square);
  return q ? q.piece : null;
}

// One step in words, or null for one that says nothing by itself (a
// pick followed by its move, the end of the turn).
function stepWords(state, step, last) {
  const name = (letter) => pieceName(letter, ui.layouts[state.variant]);
  let m;
  if (step === 'T@?') return last ? 'teleport: the server rolls' : null;
  if ((m = /^T@([a-z][0-9]+)$/.exec(step))) return `teleporting cat to ${m[1]}`;
  if ((m = /^T\?([a-z][0-9]+)$/.exec(step))) return `the roll landed on the mouse on ${m[1]}`;
  if (step === 'keep') return 'kept that square (the mouse leaves)';
  if (step === 'reroll') return 'rolled again';
  if (step === 'end') return null;
  if ((m = /^M@([a-z][0-9]+)$/.exec(step))) return `a mouse on ${m[1]}`;
  if ((m = /^[a-z][0-9]+$/.exec(step))) return last ? `picked the ${name(pieceOn(state, step))} on ${step}` : null;
  if ((m = MOVE.exec(step))) {
    const [, bonus, from, to, promotion, neutral] = m;
    let text = `${name(pieceOn(state, to))} ${from}–${to}`;
    if (promotion) text = `pawn ${from}–${to}, promoted to ${name(promotion)}`;
    if (neutral) text += `, the neutral put on ${neutral}`;
    return bonus ? 'bonus move: ' + text : text;
  }
  return step;
}

// The steps of the turn under way, in words ('' at a turn's start).
export function turnWords(state) {
  const steps = state.turn_steps;
  const said = steps.map((s, i) => stepWords(state, s, i === steps.length - 1)).filter((w) => w);
  return said.length ? `${state.turn}'s turn so far: ${said.join(' · ')}` : '';
}
