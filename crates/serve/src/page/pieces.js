// The pieces, drawn here as SVG in a 100×100 box: chess figures by FEN
// letter, Cat Chess's cat, the 10×10 game's cats (C), teleporting cats
// (T), mice (M) and neutral pieces (*), and discs with a label (xiangqi).

import { ui } from './api.js';

const SVG = 'http://www.w3.org/2000/svg';

const FIGURES = {
  p: '<circle cx="50" cy="30" r="13"/><path d="M37 46 H63 L69 78 H31 Z"/><rect x="22" y="76" width="56" height="12" rx="3"/>',
  r: '<path d="M25 20 h10 v8 h8 v-8 h14 v8 h8 v-8 h10 v20 h-6 v30 h12 v12 h-62 v-12 h12 v-30 h-6 Z"/>',
  n: '<path d="M30 86 H74 C74 60 72 34 52 20 L48 10 L41 20 C31 26 22 40 20 52 L27 59 L39 50 C43 55 37 61 34 66 C30 73 30 80 30 86 Z"/><circle class="detail" cx="44" cy="32" r="3.5"/>',
  b: '<circle cx="50" cy="20" r="7"/><path d="M35 76 C27 60 33 42 50 28 C67 42 73 60 65 76 Z"/><path class="line" d="M45 42 L57 56"/><rect x="24" y="76" width="52" height="12" rx="3"/>',
  q: '<path d="M24 76 L14 32 L33 54 L38 22 L50 50 L62 22 L67 54 L86 32 L76 76 Z"/><circle cx="14" cy="30" r="5"/><circle cx="38" cy="20" r="5"/><circle cx="62" cy="20" r="5"/><circle cx="86" cy="30" r="5"/><rect x="22" y="76" width="56" height="12" rx="3"/>',
  k: '<rect x="46" y="6" width="8" height="28"/><rect x="38" y="13" width="24" height="8"/><path d="M26 76 C16 54 32 40 50 46 C68 40 84 54 74 76 Z"/><rect x="43" y="34" width="14" height="13"/><rect x="22" y="76" width="56" height="12" rx="3"/>',
  // The 10×10 game's cat: a cat's head on a base, in its side's colours.
  c: '<path d="M26 60 L24 18 L42 34 H58 L76 18 L74 60 C74 74 62 80 50 80 C38 80 26 74 26 60 Z"/>' +
     '<ellipse class="detail" cx="40" cy="52" rx="4" ry="6"/><ellipse class="detail" cx="60" cy="52" rx="4" ry="6"/>' +
     '<path class="detail" d="M45 63 H55 L50 68 Z"/><rect x="22" y="80" width="56" height="10" rx="3"/>',
  // The teleporting cat: the cat with a spark (it may teleport).
  t: '<path d="M24 62 L22 22 L40 37 H54 L70 22 L70 62 C70 75 59 81 47 81 C35 81 24 75 24 62 Z"/>' +
     '<ellipse class="detail" cx="37" cy="54" rx="4" ry="6"/><ellipse class="detail" cx="57" cy="54" rx="4" ry="6"/>' +
     '<path class="detail" d="M42 65 H52 L47 70 Z"/>' +
     '<path class="spark" d="M82 6 L86 18 L98 22 L86 26 L82 38 L78 26 L66 22 L78 18 Z"/>' +
     '<rect x="20" y="81" width="54" height="10" rx="3"/>',
  // The mouse: a body, two round ears, a tail.
  m: '<path class="line" d="M74 68 C88 66 92 56 88 46"/>' +
     '<circle cx="36" cy="36" r="11"/><circle cx="56" cy="34" r="11"/>' +
     '<path d="M16 70 C16 52 32 42 50 44 C66 46 76 56 76 70 Z"/>' +
     '<circle class="detail" cx="32" cy="58" r="3"/><rect x="14" y="70" width="64" height="8" rx="3"/>',
};

// Cat Chess's neutral cat (the third seat's piece).
const CAT =
  '<g class="cat"><path d="M24 44 L28 10 L46 30 Z M76 44 L72 10 L54 30 Z"/><ellipse cx="50" cy="56" rx="30" ry="27"/>' +
  '<ellipse class="eye" cx="39" cy="51" rx="4.5" ry="7"/><ellipse class="eye" cx="61" cy="51" rx="4.5" ry="7"/>' +
  '<path class="nose" d="M45 63 H55 L50 69 Z"/><path class="whisker" d="M6 60 L34 64 M6 72 L34 68 M94 60 L66 64 M94 72 L66 68"/></g>';

// The 10×10 game's neutral piece: a grey stone nobody owns.
const NEUTRAL =
  '<g class="neutral"><path d="M50 10 L84 30 L84 70 L50 90 L16 70 L16 30 Z"/>' +
  '<path class="mark" d="M50 30 V70 M33 40 L67 60 M67 40 L33 60"/></g>';

export function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// A piece at (x, y), the top left of its cell, `size` wide.
// It is a picture only (`aria-hidden`): what stands on a square is said
// by the square's label, a legend's or button's words.
export function drawPiece(parent, letter, x, y, size, layout) {
  const g = el('g', { transform: `translate(${x} ${y}) scale(${size / 100})`, class: 'piece', 'aria-hidden': 'true' }, parent);
  if (letter === '*') {
    g.innerHTML = layout && layout.cats ? CAT : NEUTRAL;
    return g;
  }
  const upper = letter === letter.toUpperCase();
  const discs = layout && layout.pieces === 'discs';
  if (discs || !FIGURES[letter.toLowerCase()]) {
    const label = discs ? labelOf(layout, letter) : null;
    g.setAttribute('class', 'piece disc ' + (upper ? 'first' : 'second'));
    el('circle', { cx: 50, cy: 50, r: 44 }, g);
    el('circle', { cx: 50, cy: 50, r: 36, class: 'ring' }, g);
    const t = el('text', { x: 50, y: 52, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g);
    t.textContent = label !== null ? label : letter.toUpperCase();
    t.setAttribute('class', label !== null && !/^[\x20-\x7e]*$/.test(label) ? 'glyph' : 'latin');
    return g;
  }
  g.setAttribute('class', 'piece figure ' + (upper ? 'first' : 'second'));
  g.innerHTML = FIGURES[letter.toLowerCase()];
  return g;
}

// A disc's label: the game's character (xiangqi), unless the page is
// set to letters; then the letter the game's notation gives the piece
// (xiangqi's H and E, as its moves spell them), else the FEN letter.
function labelOf(layout, letter) {
  const found = layout.labels.find(([l]) => l === letter);
  if (!found) return null;
  if (ui.glyphs === 'letters' && !/^[\x20-\x7e]*$/.test(found[1])) {
    const own = (layout.letters || []).find(([l]) => l === letter);
    return own ? own[1] : null;
  }
  return found[1];
}

// A piece's name in the game's words (`layout.names`, the rules code's),
// by its FEN letter: for the turn in words (turnwords.js) and the
// squares' labels (board.js).
export function pieceName(letter, layout) {
  const found = letter && layout && layout.names.find(([l]) => l === letter.toLowerCase());
  return found ? found[1] : 'piece';
}

// The seat whose piece `letter` is (the layout's `owns`: upper or lower
// case, `*` the cats'), or undefined for a piece nobody owns (a 10×10
// neutral).
export function pieceSeat(letter, layout) {
  return layout.seats.find((s) => (s.owns === '*' ? letter === '*' : letter !== '*' && (s.owns === 'upper') === (letter === letter.toUpperCase())));
}

// A piece in words, its owner's colour first ("white pawn", "red
// chariot"); a cat or a neutral by its name alone.
export function pieceWords(letter, layout) {
  const seat = pieceSeat(letter, layout);
  const name = pieceName(letter, layout);
  return seat && seat.owns !== '*' ? `${seat.name} ${name}` : name;
}

// A small piece for a legend or a button.
export function pieceIcon(letter, layout, size = 22) {
  const svg = el('svg', { width: size, height: size, viewBox: '0 0 100 100', class: 'icon', 'aria-hidden': 'true' });
  drawPiece(svg, letter, 0, 0, 100, layout);
  return svg;
}
