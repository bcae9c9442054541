// The endgame tables' panel (issue #43): shown when the game state carries
// `tablebase` (the server runs with --tb-dir and the tables cover the
// position): the result in words, what the tables ignore, and, behind a
// toggle that stays open from one position to the next, every legal move's
// result, the mover's best first and the tables' best move marked. It sits
// above the engine's panel: where the tables answer, theirs is the answer.
// app.js calls renderTablebase(state) after each state, and with the
// position shown while stepping through the game (GET positions/<ply>
// carries `tablebase` too). Each move is coloured by what it means for
// the player who makes it (`for_mover`: a win, a draw, a loss) and, where
// that player may move now, plays it when clicked (issue #62).

// Set by the app: play(move) plays a listed move, if this page may
// (`canPlay()`: the position shown is the game's, and its seat to move
// is this page's).
export const tablebaseHandlers = { play: null, canPlay: () => false };

export function renderTablebase(state) {
  let panel = document.getElementById('tablebase');
  const tb = state && state.tablebase;
  if (!tb) {
    if (panel) panel.hidden = true;
    return;
  }
  if (!panel) {
    panel = document.createElement('section');
    panel.className = 'panel';
    panel.id = 'tablebase';
    panel.innerHTML =
      '<h2>Tablebase</h2><p id="tb-words" data-tb-words></p><p id="tb-note" class="small"></p>' +
      '<details><summary>Every move</summary><p class="small" id="tb-key"></p><ol id="tb-moves" data-tb-moves></ol></details>';
    const analysis = document.getElementById('analysis');
    analysis.parentNode.insertBefore(panel, analysis);
  }
  panel.hidden = false;
  const words = tb.result.words;
  document.getElementById('tb-words').textContent = words.charAt(0).toUpperCase() + words.slice(1) + '.';
  const note = tb.note;
  document.getElementById('tb-note').textContent = note.charAt(0).toUpperCase() + note.slice(1) + '.';
  const list = document.getElementById('tb-moves');
  list.textContent = '';
  const playable = tablebaseHandlers.canPlay(state);
  document.getElementById('tb-key').textContent =
    'Green: the move wins for the player making it; grey: a draw; red: it loses.' + (playable ? ' Click a move to play it.' : '');
  for (const m of tb.moves) {
    const item = document.createElement('li');
    item.dataset.move = m.move;
    item.dataset.result = m.for_mover;
    item.className = 'tb-' + m.for_mover;
    item.title = m.words;
    const name = playable ? document.createElement('button') : document.createElement('b');
    if (playable) {
      name.type = 'button';
      name.className = 'tb-play';
      name.addEventListener('click', () => tablebaseHandlers.play(m.move));
    }
    name.textContent = m.notation;
    item.append(name, `: ${m.short}`);
    if (m.move === tb.best) {
      item.classList.add('best');
      item.append(' (best)');
    }
    list.appendChild(item);
  }
}
