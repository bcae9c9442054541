// The rules of each game, short and illustrated (issue #62): the panel the
// board's Rules button opens, shown by itself on a person's first visit to
// a game (remembered in this browser), and every game's on /rules. The
// words say RULES.md's rules plainly; the diagrams are positions the
// server draws (GET /api/variants/<game>/board: its zones, disarmed
// pieces, checks and moves come from the rules code, never from here),
// drawn by the page's own board (board.js). Also the legend under the
// board, which for Cat's Chess 10×10 says how each piece moves.

import { $, ui, api } from './api.js';
import { drawBoard } from './board.js';
import { pieceIcon } from './pieces.js';

// Each game: a few sections, each with its words (`**bold**`) and maybe a
// diagram: `fen`, `moves` played first (a 10×10 pick shows the piece's
// steps), `show` (a square whose legal moves are dotted), `hint` (squares
// to look at) and its caption.
const RULES = {
  catchess: [
    {
      title: 'Three players, one after another',
      text: [
        'White, black and the **cats** play. They move in turn: **white, then black, then the cats**, then white again.',
        'White and black have the chess armies, and their pieces move as in chess (castling, en passant and promotion too).',
      ],
      diagram: { fen: 'rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', caption: 'The start: the two cats on a4 and h5.' },
    },
    {
      title: 'The cats move like kings',
      text: [
        'On the cats’ turn **one cat steps one square in any direction, like a king**, onto an empty square.',
        'Cats never capture and are never captured: no piece may land on a cat. They block lines like any piece (a knight jumps over them). When neither cat can step, the cats pass.',
      ],
      diagram: { fen: '4k3/8/8/8/3*4/8/8/4K3 c - - 0 1', show: 'd4', caption: 'The cat on d4 may step to any of the eight squares around it.' },
    },
    {
      title: 'No captures next to a cat',
      text: [
        'The squares around each cat (shaded) are its **zone**. A piece standing in a zone is **disarmed** (the red badge): **it cannot capture**, and it threatens nothing.',
        'A piece in a zone **cannot be captured** either, and en passant may not land in a zone.',
      ],
      diagram: {
        fen: 'r1bqkb1r/pppp1ppp/2n2n2/1*2p3/2B1P1*1/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4',
        show: 'c4',
        hint: ['f7', 'e5'],
        caption: 'The bishop c4 and the knight f3 stand next to cats: Bxf7 and Nxe5 are not allowed. Their quiet moves are (the dots: the bishop’s).',
      },
    },
    {
      title: 'A king next to a cat cannot be checked',
      text: [
        'Only an armed piece gives check, and no square of a zone can be attacked: **a king next to a cat is never in check**, even on an enemy rook’s line.',
        'As in chess, no move may leave your own king in check.',
      ],
      diagram: {
        fen: '4r1k1/8/8/8/8/3*4/4K3/8 w - - 0 1',
        show: 'e2',
        caption: 'The king e2 is on the rook’s file but next to the cat: not in check. It may step to e3 (still in the zone), not to e1.',
      },
    },
    {
      title: 'A cat’s step can give check',
      text: [
        'When a cat steps away, a piece it disarmed is armed again, and may be giving check. The game is judged only at white’s or black’s turn: a king left in check must get out of it on its own turn, or it is mate.',
      ],
      diagram: {
        fen: 'R5k1/1*3ppp/8/8/8/8/8/6K1 c - - 0 1',
        moves: 'b7c6',
        caption: 'The cat on b7 disarmed the rook a8; it has stepped to c6: black’s king is in check, walled in by its own pawns. At black’s turn it is checkmate: white wins.',
      },
    },
    {
      title: 'How the game ends: any draw is the cats’ win',
      text: [
        '**Checkmate** wins, for white or for black, as in chess.',
        '**Any draw is the cats’ win**: stalemate, the same position three times, fifty moves each without a capture or a pawn move, too little material to mate. So white and black both play to mate, and the cats try to keep every king safe.',
      ],
      diagram: {
        fen: '7k/8/6Q1/8/8/8/8/4K2* w - - 0 1',
        hint: ['f7'],
        caption: 'Here Qf7 would stalemate black: a draw, so the cats would win.',
      },
    },
  ],
  chess: [
    {
      title: 'The pieces',
      text: [
        'White moves first, then the two sides take turns. A piece captures by moving onto an enemy piece.',
        'The **king** steps one square any way; the **queen** goes any distance along lines and diagonals, the **rook** along lines, the **bishop** along diagonals; the **knight** jumps two squares one way and one to the side, over anything between.',
      ],
      diagram: { fen: '4k3/8/8/8/3N4/8/8/4K3 w - - 0 1', show: 'd4', caption: 'The knight’s eight jumps.' },
    },
    {
      title: 'Pawns',
      text: [
        'A pawn moves one square straight ahead (two from its starting square) and **captures one square diagonally forward**. Right after an enemy pawn moves two squares past it, it may capture that pawn as if it had moved one (**en passant**).',
        'A pawn reaching the last rank becomes a queen, rook, bishop or knight (**promotion**).',
      ],
      diagram: { fen: '4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1', show: 'e4', caption: 'The pawn e4 may step to e5 or capture on d5.' },
    },
    {
      title: 'Castling',
      text: [
        'Once a game the king may move two squares towards a rook that has not moved, the rook jumping over it, if the squares between are empty and the king is not in check, nor passes or lands on an attacked square.',
      ],
      diagram: { fen: 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', show: 'e1', caption: 'The king e1 may castle either way (to g1 or c1).' },
    },
    {
      title: 'Check, mate and draws',
      text: [
        'An attacked king is **in check**: its side must get out of it, and no move may leave one’s own king in check. **Checkmate** (in check, no legal move) wins.',
        'Draws: stalemate (no legal move, not in check), the same position three times, fifty moves each without a capture or pawn move, too little material to mate.',
      ],
      diagram: { fen: '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1', hint: ['a8'], caption: 'Ra8 is checkmate: the king is walled in by its own pawns.' },
    },
  ],
  xiangqi: [
    {
      title: 'The board',
      text: [
        '**Red moves first**, then the two sides take turns. The pieces stand on the points where the lines cross. The **river** runs across the middle; each side has a **palace**, the box with the diagonals.',
        '**Win** by checkmating the enemy general, or by leaving the other side no legal move: in xiangqi **stalemate loses** too.',
      ],
      diagram: { fen: 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1', caption: 'The start.' },
    },
    {
      title: 'General and advisors stay in the palace',
      text: [
        'The **general** steps one point along a line, never out of its palace, and **the two generals may never face each other** on a file with nothing between them.',
        'An **advisor** steps one point diagonally, inside the palace.',
      ],
      diagram: { fen: '3k5/9/9/9/9/9/9/9/4A4/5K3 w - - 0 1', show: 'e2', caption: 'The advisor e2 may go to d1, d3 or f3 (f1 is its own general’s).' },
    },
    {
      title: 'Elephants and horses',
      text: [
        'An **elephant** moves exactly two points diagonally, never across the river, and not if the point between is taken.',
        'A **horse** moves one point along a line, then one diagonally outwards, and not if the point next to it in that direction (its leg) is taken.',
      ],
      diagram: { fen: '3k5/9/9/9/4p4/3pN4/9/9/9/5K3 w - - 0 1', show: 'e5', caption: 'The soldiers on e6 and d5 block the horse e5’s way to d7, f7, c4 and c6.' },
    },
    {
      title: 'Chariots and cannons',
      text: [
        'A **chariot** moves any distance along a line, like a rook.',
        'A **cannon** moves like a chariot, but **captures only by jumping over exactly one piece** (its screen, of either side) onto the piece beyond.',
      ],
      diagram: { fen: '3k5/n8/r8/9/9/p8/9/9/9/C4K3 w - - 0 1', show: 'a1', caption: 'The cannon a1 captures the chariot a8 over the soldier a5.' },
    },
    {
      title: 'Soldiers',
      text: ['A **soldier** steps one point forward; once across the river it may also step sideways. It never goes back, and never promotes.'],
      diagram: { fen: '4k4/9/9/9/4P4/9/P8/9/9/3K5 w - - 0 1', show: 'e6', caption: 'Across the river, the soldier e6 may go to d6, e7 or f6; the soldier a4 only to a5.' },
    },
    {
      title: 'Check and repetition',
      text: [
        'No move may leave one’s own general attacked. When a position comes back a third time, a side that gave check with every move (or chased the same piece every move) loses; otherwise it is a draw.',
        'Draws also come after fifty moves each without a capture, or when neither side has a piece left that can cross the river.',
      ],
      diagram: { fen: 'R2k5/9/9/9/9/9/9/9/9/3R1K3 b - - 0 1', caption: 'Black is checkmated: red wins.' },
    },
  ],
  catschess10: [
    {
      title: 'The game',
      text: [
        'zzo38’s Cat’s Chess: white and black on a 10×10 board, with cats, teleporting cats, mice and neutral pieces. White moves first.',
        '**There is no check**: a king may stand on an attacked square, and is captured like any piece.',
      ],
      diagram: { fen: 'rnbcqkcbnr/*8*/pppppppppp/10/10/10/10/PPPPPPPPPP/*8*/RNBCQKCBNR w KQkq - 0 1 -', caption: 'The start.' },
    },
    {
      title: 'How one wins',
      text: [
        '**Capture the enemy king**, or have **two of your cats (C or T) on your last rank** at the end of your turn. A player who cannot make the own move of its turn loses.',
        'Draws: the same position for the third time, or a hundred turns in a row without a capture.',
      ],
      diagram: {
        fen: 'rnb1q5/3C2T3/p4k4/10/10/10/10/10/10/K9 w - - 0 1 -',
        hint: ['d10', 'g10'],
        caption: 'White’s cat steps d9–d10 and the second cat g9–g10 in the same turn: two cats home, white wins.',
      },
    },
    {
      title: 'A turn',
      text: [
        'A turn is up to five steps, in this order: **1. Teleport** (optional): your teleporting cat T goes to a square the server rolls. **2. Neutral** (optional): move one neutral piece. **3. Own move** (required): move one of your pieces; after a cat’s (C) step, not its knight jump, another of your cats may step too. **4. Mouse** (optional): put a new mouse on an empty square of your first rank. **5. Bonus move**: if you captured the enemy T this turn, one more move.',
        'The bar over the board says which step comes next; End turn skips the optional steps left.',
      ],
    },
    {
      title: 'Cats',
      text: [
        'A **cat** (C) steps one square along a line onto an empty square, **captures one square diagonally**, and **jumps like a knight**, capturing or not. A **teleporting cat** (T) is a cat that may teleport in step 1; a T that teleported may not capture in that turn.',
      ],
      diagram: {
        fen: 'rnbcqk4/10/10/5n4/3p6/4C5/10/10/10/K9 w - - 0 1 -',
        moves: 'e5',
        show: 'e5',
        caption: 'The cat e5 steps to e4, e6, d5 or f5, captures the pawn d6 diagonally, and jumps like a knight (onto the knight f7 too).',
      },
    },
    {
      title: 'Mice and neutral pieces',
      text: [
        'A **mouse** (M) steps one square along a line onto an empty square, and captures only an enemy **king or queen** next to it on a line. Only pawns and cats capture mice. **Mice block nothing**: pieces pass over them.',
        'A **neutral** (✱) is nobody’s: in step 2 either player may move one, one square along a line or jumping over the piece next to it. It never captures. A pawn, cat, queen, king or bishop captures it with a non-capturing move, then puts it on any empty square.',
      ],
      diagram: {
        fen: 'rnbc1k4/10/10/10/4q5/3rMn4/4p5/10/10/K9 w - - 0 1 -',
        moves: 'e5',
        show: 'e5',
        caption: 'The mouse e5 has one move: taking the queen e6 (not the rook, the knight or the pawn).',
      },
    },
    {
      title: 'The other pieces, and pieces coming back',
      text: [
        'King, queen, rook, bishop, knight and pawn move as in chess, except: the king castles three squares; queen, rook and bishop pass over mice; a knight cannot capture a mouse or a neutral; a pawn promotes to Q, R, B, N, C, T or M.',
        'When the last piece of a kind (pawn, knight, bishop, rook, queen or cat) leaves the board, all of that kind come back on their starting squares (under a piece standing there, until it leaves).',
      ],
    },
  ],
};

// The 10×10 game's pieces under the board: how each moves and captures.
const PIECES10 = [
  ['K', 'king: one step any way (castles three squares)'],
  ['Q', 'queen, R rook, B bishop: as in chess, passing over mice'],
  ['N', 'knight: jumps as in chess; takes no mouse or neutral'],
  ['P', 'pawn: as in chess; promotes to Q R B N C T M'],
  ['C', 'cat: one step along a line; captures one step diagonally; jumps like a knight'],
  ['T', 'teleporting cat: a cat that may teleport (step 1)'],
  ['M', 'mouse: one step along a line; captures only a king or queen; blocks nothing'],
  ['*', 'neutral: anyone moves one (step 2): a step or a jump over a piece'],
];

// Splits `**bold**` words into text and <b> nodes.
function words(text, parent) {
  text.split('**').forEach((part, i) => {
    if (!part) return;
    if (i % 2) {
      const b = document.createElement('b');
      b.textContent = part;
      parent.appendChild(b);
    } else {
      parent.appendChild(document.createTextNode(part));
    }
  });
  return parent;
}

// A diagram, drawn when the server has answered.
async function diagram(variant, d) {
  const figure = document.createElement('figure');
  figure.className = 'diagram';
  const box = document.createElement('div');
  box.className = 'diagram-board';
  const caption = document.createElement('figcaption');
  caption.textContent = d.caption;
  figure.append(box, caption);
  try {
    const query = new URLSearchParams({ fen: d.fen });
    if (d.moves) query.set('moves', d.moves);
    const pos = await api('GET', `/variants/${variant}/board?${query}`);
    const targets = new Map();
    for (const m of pos.legal_moves) if (d.show && m.from === d.show && m.to !== d.show) targets.set(m.to, m);
    const marks = new Map();
    const mark = (sq, cls) => marks.set(sq, [...(marks.get(sq) || []), cls]);
    if (d.show) mark(d.show, 'selected');
    if (pos.last_move && !d.show) for (const sq of [pos.last_move.from, pos.last_move.to]) mark(sq, 'last');
    for (const sq of d.hint || []) mark(sq, 'hint');
    box.appendChild(drawBoard(ui.layouts[variant], pos.board, { marks, targets }));
  } catch (e) {
    box.textContent = `(the diagram could not be drawn: ${e.message})`;
  }
  return figure;
}

// The rules of `variant` into `box`: its title, sections and diagrams.
export function renderRules(box, variant) {
  const L = ui.layouts[variant];
  box.replaceChildren();
  box.setAttribute('data-rules', variant);
  const title = document.createElement('h2');
  title.textContent = L ? L.title : variant;
  box.appendChild(title);
  for (const section of RULES[variant] || []) {
    const part = document.createElement('section');
    part.className = 'rule';
    const h = document.createElement('h3');
    h.textContent = section.title;
    part.appendChild(h);
    const text = document.createElement('div');
    text.className = 'rule-text';
    for (const p of section.text) text.appendChild(words(p, document.createElement('p')));
    part.appendChild(text);
    if (section.diagram) {
      const placeholder = document.createElement('div');
      part.appendChild(placeholder);
      diagram(variant, section.diagram).then((figure) => placeholder.replaceWith(figure));
    }
    box.appendChild(part);
  }
}

// ---- The panel on the board's page ---------------------------------------

const SEEN = 'catchess-rules-seen';

function seen() {
  try {
    const list = JSON.parse(localStorage.getItem(SEEN));
    return Array.isArray(list) ? list : [];
  } catch (_) {
    return [];
  }
}

// Opens the rules of `variant` over the page (Escape or Close closes it).
export function openRules(variant) {
  const dialog = $('rules-dialog');
  renderRules($('rules-body'), variant);
  $('rules-all').href = '/rules#' + variant;
  if (!dialog.open) dialog.showModal();
  $('rules-close').focus();
}

// A game of `variant` shown: its rules open by themselves the first time
// this browser shows one.
export function firstVisit(variant) {
  const list = seen();
  if (list.includes(variant)) return;
  try {
    localStorage.setItem(SEEN, JSON.stringify([...list, variant]));
  } catch (_) {
    // Not kept: the rules open again next time.
  }
  openRules(variant);
}

export function initRules(current) {
  $('rules-open').addEventListener('click', () => openRules(current()));
  $('rules-close').addEventListener('click', () => $('rules-dialog').close());
  // A click on the backdrop (outside the panel's box) closes it too.
  $('rules-dialog').addEventListener('click', (ev) => {
    if (ev.target === $('rules-dialog')) $('rules-dialog').close();
  });
}

// ---- The legend under the board --------------------------------------------

// The colours of the moves since one's last turn (recent.js), per seat.
function recentKey(box, layout) {
  const key = document.createElement('p');
  key.className = 'legend-recent';
  key.append('Moves since your last turn: ');
  layout.seats.forEach((seat, i) => {
    const swatch = document.createElement('span');
    swatch.className = `swatch recent-swatch seat-${i}`;
    key.append(swatch, ` ${seat.name}’s`, i + 1 < layout.seats.length ? ' · ' : '');
  });
  box.appendChild(key);
}

// Cat Chess: the zones and the disarmed pieces; Cat's Chess 10×10: each
// piece, how it moves and captures, and how a game is won; the colours of
// the last moves.
export function renderLegend(box, layout) {
  box.replaceChildren();
  box.classList.toggle('pieces10', layout.pieces === 'chess' && layout.labels.length > 0);
  recentKey(box, layout);
  if (layout.cats) {
    const zone = document.createElement('p');
    zone.className = 'legend-zone';
    zone.innerHTML =
      '<span class="swatch zone-swatch"></span> no-capture zone (next to a cat) · ' +
      '<svg width="14" height="14" viewBox="0 0 20 20" class="disarmed-mark" aria-hidden="true"><circle cx="10" cy="10" r="8"/><path d="M4.5 15.5 L15.5 4.5"/></svg> disarmed piece: it cannot capture or give check';
    box.appendChild(zone);
    return;
  }
  if (layout.pieces !== 'chess' || !layout.labels.length) return;
  const win = document.createElement('p');
  win.className = 'legend-win';
  words('**No check.** Win by **capturing the king**, or with **two of your cats on the last rank** at the end of your turn.', win);
  box.appendChild(win);
  const letters = new Set(layout.labels.map(([l]) => l));
  for (const [letter, text] of PIECES10.filter(([l]) => letters.has(l))) {
    const item = document.createElement('span');
    item.className = 'legend-item';
    item.setAttribute('data-legend', letter);
    item.appendChild(pieceIcon(letter, layout));
    if (letter !== '*') item.appendChild(pieceIcon(letter.toLowerCase(), layout));
    item.append(` ${letter === '*' ? '✱' : letter} ${text}`);
    box.appendChild(item);
  }
}
